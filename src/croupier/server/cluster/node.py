"""One process of a cluster: :class:`Node`.

It beats (a Redis key with a time to live), keeps the leases of the tables it owns and takes
free or expired ones up to its share, runs the tables it owns (:class:`.host.TableHost`) and
is the gateway of its own sockets (:class:`.gateway.ClusterAccess`).

Taking a table over (:meth:`Node._take`), under the new fencing token: the rounds its last
owner left open are voided, every stake returned, as one process does after a crash
(spec/uth.md "Faults"; :func:`croupier.server.rounds.store.void_round`); the table opens
reading the commands sent from then on; every gateway hears :class:`.messages.TakenOver`
(its sockets get the void and a fresh welcome).

A lease lost (another process took it, the database refused a write under the old token, or
renewals failed for a whole lease period) stops the table here at once, writing nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from typing import Any

import msgspec

from croupier.server.audit.service import audit_recovery
from croupier.server.cluster import lease as leases
from croupier.server.cluster import messages as m
from croupier.server.cluster import tasks
from croupier.server.cluster.bus import Bus
from croupier.server.cluster.gateway import ClusterAccess
from croupier.server.cluster.holds import GatewayHolds
from croupier.server.cluster.host import TableHost
from croupier.server.cluster.tasks import Background
from croupier.server.db import Database
from croupier.server.floor.store import load_or_seed
from croupier.server.metrics import Metrics
from croupier.server.rounds.models import Round
from croupier.server.rounds.store import recover_open_rounds
from croupier.server.tables.config import TableConfig
from croupier.server.tables.manager import TableManager
from croupier.server.tables.wire import EventFrame, RoundClosed, encode
from croupier.server.tables.wire_events import Reveal

__all__ = ["TAKEOVER_REASON", "Node"]

log = logging.getLogger(__name__)

# A joining process waits this long (at most a third of its lease) before taking tables, so
# that processes starting together share them.
JOIN_SECONDS = 1.0
TAKEOVER_REASON = "the table's server stopped: the round was voided, every stake returned"
_SEQ_BASE = 1_000_000_000
"""A table's event numbers under lease token T start at T x this (they only grow)."""


class Node:
    """This process in the cluster."""

    def __init__(
        self,
        *,
        db: Database,
        manager: TableManager,
        bus: Bus,
        metrics: Metrics,
        lease_seconds: float,
        request_timeout: float,
    ) -> None:
        self.db = db
        self.manager = manager
        self.bus = bus
        self.name = bus.node
        self.metrics = metrics
        self.lease_seconds = lease_seconds
        self.hosts: dict[str, TableHost] = {}
        self.leases: dict[str, leases.Lease] = {}
        self._renewed: dict[str, float] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lobby_sent: dict[str, bytes] = {}
        self._background = Background()
        holds = metrics.gateway_holds
        self.access = ClusterAccess(
            bus,
            check=manager.check,
            timeout=request_timeout,
            holds=GatewayHolds(
                db,
                price=manager.bet_stake,
                word=manager.decision_word,
                check=manager.admission.check_stakes,
                count=lambda table, outcome, kind: holds.labels(
                    table=table, outcome=outcome, type=kind
                ).inc(),
                reachable=bus.ping,
            ),
        )
        manager.forward = self._forward

    # -- life --------------------------------------------------------------------------

    async def start(self) -> None:
        """Join: beat, listen, then take tables (first after a short wait, so that processes
        starting together share them)."""
        self._loop = asyncio.get_running_loop()
        await self.bus.ping()
        await self.bus.beat()
        # The lobby of the tables other processes own, before this one serves its first
        # request (else it lists them "starting", without their rules, for a second).
        await self._refresh_lobby()
        channels = [m.gateway_channel(self.name), m.CLUSTER_CHANNEL]
        self._tasks = [
            asyncio.create_task(self.bus.subscribe(channels, self._on_message), name="bus"),
            asyncio.create_task(self._beat(), name="heartbeat"),
            asyncio.create_task(self._leases(), name="leases"),
            asyncio.create_task(self._lobby(), name="lobby"),
        ]

    async def stop(self) -> None:
        """Leave: the tables owned here stop as one process's do (rounds in play voided),
        their leases are given up at once for another process to take."""
        for task in self._tasks[2:]:
            task.cancel()
        for name in list(self.hosts):
            await self._give_up(name, abandon=False)
        await self.bus.forget()
        # Bounded: a task whose Redis call swallows its cancellation (the bus's subscriber,
        # say) is cancelled again, then left and named, never waited for for ever.
        await tasks.stop(self._tasks, what=f"the tasks of node {self.name}")
        await self.bus.close()

    def owned(self) -> dict[str, int]:
        """The tables this process owns, with their tokens."""
        return {name: lease.token for name, lease in self.leases.items()}

    # -- heartbeat, lobby --------------------------------------------------------------

    async def _beat(self) -> None:
        while True:
            try:
                await self.bus.beat()
            except Exception as exc:
                log.warning("heartbeat failed: %s", exc)
            await asyncio.sleep(self.lease_seconds / 3)

    async def _lobby(self) -> None:
        while True:
            await asyncio.sleep(1.0)
            await self._refresh_lobby()

    async def _refresh_lobby(self) -> None:
        """Publish the lobby entries of the tables owned here; read the others'."""
        try:
            for name, host in list(self.hosts.items()):
                entry = msgspec.json.encode(host.table.describe())
                if self._lobby_sent.get(name) != entry:
                    await self.bus.set_lobby(name, entry)
                    self._lobby_sent[name] = entry
            found = await self.bus.lobby()
            self.manager.remote_lobby = {
                name: msgspec.json.decode(raw)
                for name, raw in found.items()
                if name not in self.hosts
            }
        except Exception as exc:
            log.debug("lobby refresh failed: %s", exc)

    def _on_message(self, channel: str, raw: bytes) -> None:
        if channel == m.CLUSTER_CHANNEL:
            self.access.on_cluster(raw)
        else:
            self.access.on_frames(raw)

    # -- leases ------------------------------------------------------------------------

    async def _leases(self) -> None:
        await asyncio.sleep(min(JOIN_SECONDS, self.lease_seconds / 3))
        while True:
            try:
                await self._refresh_tables()
            except Exception as exc:
                log.warning("could not read the tables: %s", exc)
            await self._renew()
            with contextlib.suppress(Exception):
                await self._acquire()
            await asyncio.sleep(self.lease_seconds / 3)

    async def _refresh_tables(self) -> None:
        """Learn tables opened or changed by an operator through another process."""

        def read() -> list[tuple[TableConfig, bool]]:
            with self.db.session() as session:
                return [(t.config, t.status.value == "closed") for t in load_or_seed(session, [])]

        mark = self.manager.mark()
        for config, closed in await asyncio.to_thread(read):
            if config.name not in self.hosts:
                with contextlib.suppress(Exception):
                    self.manager.learn(config, closed=closed, read_after=mark)

    async def _renew(self) -> None:
        for name, lease in list(self.leases.items()):
            try:
                renewed = await asyncio.to_thread(
                    self._in_session, leases.renew, lease=lease, seconds=self.lease_seconds
                )
            except Exception as exc:
                # The database is unreachable: keep the table while the lease may still be
                # ours; past it, someone else may own it.
                if time.monotonic() - self._renewed.get(name, 0) > self.lease_seconds * 0.9:
                    log.error("lease of %s not renewed for a lease period (%s): stop", name, exc)
                    await self._give_up(name, abandon=True)
                continue
            if renewed is None:
                log.error("lost the lease of %s (another process took it): stop", name)
                await self._give_up(name, abandon=True)
            else:
                self.leases[name] = renewed
                self._renewed[name] = time.monotonic()

    async def _acquire(self) -> None:
        openable = self.manager.openable()
        try:
            live = max(1, await self.bus.live_nodes())
        except Exception:
            return  # without Redis no table can be served: take none
        share = math.ceil(len(openable) / live)
        for name in openable:
            if len(self.hosts) >= share:
                return
            if name in self.hosts:
                continue
            lease = await asyncio.to_thread(
                self._in_session,
                leases.acquire,
                table=name,
                owner=self.name,
                seconds=self.lease_seconds,
            )
            if lease is not None:
                await self._take(name, lease)

    def _in_session(self, fn: Any, **kwargs: Any) -> Any:
        with self.db.session() as session:
            return fn(session, **kwargs)

    async def _take(self, name: str, lease: leases.Lease) -> None:
        """Open table ``name`` here under ``lease``: void what its last owner left open."""
        fenced = leases.FencedDatabase(
            self.db,
            table=name,
            token=lease.token,
            on_fenced=lambda: self._fenced(name, lease.token),
        )
        self.leases[name] = lease
        self._renewed[name] = time.monotonic()
        try:
            voided = await asyncio.to_thread(_void_left_open, fenced, name)
            start_id = await self.bus.last_id(name)
        except Exception as exc:
            log.error("could not take %s over: %s", name, exc)
            self.leases.pop(name, None)
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self._in_session, leases.release, lease=lease)
            return
        table = self.manager.adopt(name, db=fenced)
        table.metrics = self.metrics
        base = lease.token * _SEQ_BASE
        table.out.seq = base
        host = TableHost(table, token=lease.token, bus=self.bus, start_id=start_id)
        host.start()
        self.hosts[name] = host
        frame = None
        if voided:
            event = voided[-1]
            frame = encode(EventFrame(seq=base, table=name, event=event))
        log.warning(
            "took table %s over (token %d)%s", name, lease.token,
            f", voided round(s) {[e.round_id for e in voided]}" if voided else "",
        )  # fmt: skip
        with contextlib.suppress(Exception):
            await self.bus.publish(
                m.CLUSTER_CHANNEL, m.encode(m.TakenOver(name, self.name, lease.token, frame))
            )
        await self._refresh_lobby()  # the table's lobby entry now, not at the next tick

    def _fenced(self, name: str, token: int) -> None:
        """The database refused a write to ``name`` under our token (from a worker thread)."""
        log.error(
            "the database refused a write to %s under lease token %d (fenced: another process "
            "owns the table): stop",
            name, token,
        )  # fmt: skip
        loop = self._loop
        if loop is not None:
            loop.call_soon_threadsafe(
                lambda: self._background.start(self._give_up(name, abandon=True, token=token))
            )

    async def _give_up(self, name: str, *, abandon: bool, token: int | None = None) -> None:
        """Stop table ``name`` here (``token``: only if it is still held under that token --
        a refusal that arrives late must not drop the table taken again since)."""
        if token is not None and (name not in self.leases or self.leases[name].token != token):
            return
        host = self.hosts.pop(name, None)
        lease = self.leases.pop(name, None)
        self._lobby_sent.pop(name, None)
        if host is not None:
            await host.stop(abandon=abandon)
            self.manager.drop(name)
            log.warning("stopped serving %s here", name)
        if lease is not None and not abandon:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self._in_session, leases.release, lease=lease)

    async def _forward(self, name: str, config: TableConfig, closed: bool, changed: Any) -> None:
        """An operator's change of a table another process owns: to its owner."""
        await self.bus.send(
            name,
            m.Reconfigure(config.model_dump(mode="json"), closed, dict(changed)),
        )


def _void_left_open(db: leases.FencedDatabase, name: str) -> list[RoundClosed]:
    """Void the rounds of table ``name`` its last owner left open (one fenced transaction,
    as a restart after a crash does); their ``round_closed`` events."""
    with db.session() as session:
        voided = recover_open_rounds(session, reason=TAKEOVER_REASON, table=name)
        if voided:
            audit_recovery(session, voided)
        rows = [session.get(Round, round_id) for round_id in voided]
        return [
            RoundClosed(
                round_id=row.id,
                status="voided",
                summary={"void": TAKEOVER_REASON},
                reveal=Reveal(commitment=row.commitment, salt=row.salt, deck=row.deck),
            )
            for row in rows
            if row is not None and row.commitment  # not a next round never played
        ]
