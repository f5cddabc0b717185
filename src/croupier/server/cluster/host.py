"""The owner's side of a table in a cluster: :class:`TableHost`.

The table itself is the one process's :class:`croupier.server.tables.table.Table`, unchanged:
its inbox takes the commands the gateways put on the table's Redis Stream (:meth:`TableHost.
read`), and its connections are :class:`RemoteConnection` s, one per socket on some gateway,
whose frames an :class:`Outlet` batches per gateway and publishes on that gateway's channel:
each frame encoded once, with the list of sockets it is for (``None``: all of that gateway's
sockets at the table), in the order the table sent them.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from croupier.errors import CroupierError
from croupier.server.cluster import messages as m
from croupier.server.cluster import tasks
from croupier.server.cluster.bus import Bus
from croupier.server.cluster.tasks import Background
from croupier.server.errors import ServiceUnavailable
from croupier.server.tables.config import TableConfig
from croupier.server.tables.connection import (
    Connect,
    Connection,
    Frame,
    GatewayLost,
    LookForHolds,
    Prepaid,
    Request,
)
from croupier.server.tables.table import Table
from croupier.server.tables.wire import (
    Closing,
    SeatEventFrame,
    Shared,
    encode,
    error_frame,
    parse_client_message,
)
from croupier.server.tables.wire_events import YourTurn

__all__ = ["Outlet", "RemoteConnection", "TableHost"]

log = logging.getLogger(__name__)

_REAP_SECONDS = 1.0
"""How often the owner looks for gateways that died (their sockets are then disconnected)."""
_LOOK_SECONDS = 10.0
"""How often the owner has its table look for stakes held for bets that never came
(:meth:`croupier.server.tables.nextround.NextRounds.unclaimed`)."""
_FORGET_REAPED_SECONDS = 300.0
"""How long an owner remembers a reaped socket's player: a socket of a gateway alive after
all sends its next request within seconds (the browser pings every few); past this its
gateway is taken to be truly gone, and a request from it is answered ``table_moved``."""


@dataclass(eq=False, slots=True)
class RemoteConnection(Connection):
    """A socket on a gateway, as the owner's table sees it: what the table sends it goes to
    the gateway's batch in the :class:`Outlet`."""

    gateway: str = ""
    cid: int = 0
    outlet: Outlet | None = None

    def send(self, frame: Frame) -> None:
        if self.closed or self.outlet is None:
            return
        if isinstance(frame, Closing):
            # This owner stops (or lost the table): the socket stays open on its gateway,
            # which hands it to the table's next owner.
            return
        self.outlet.add(self.gateway, self.cid, frame)

    def close(self, code: int = 1000, *, last: Frame | None = None) -> None:
        if self.closed:
            return
        if last is not None:
            self.send(last)
        self.closed = True
        if self.outlet is not None:
            self.outlet.close(self.gateway, self.cid, code)


@dataclass(slots=True)
class _Entry:
    frame: Frame | None
    conns: list[int] | None = None
    answered: int = 0
    close: int = 0


@dataclass(slots=True)
class Outlet:
    """What one table sends to each gateway, batched and published in order."""

    table: str
    token: int
    publish: Callable[[str, bytes], Awaitable[Any]]
    seat_of: Callable[[int], int | None] = lambda user_id: None
    """A user's seat at the table now (the table's record), sent with a frame for one
    socket: the gateway learns seats from it, not from the frames' text."""
    members: dict[str, dict[int, RemoteConnection]] = field(default_factory=dict)
    """Each gateway's sockets at the table."""
    _pending: dict[str, list[_Entry]] = field(default_factory=dict)
    _wake: asyncio.Event = field(default_factory=asyncio.Event)

    def add(self, gateway: str, cid: int, frame: Frame) -> None:
        entries = self._pending.setdefault(gateway, [])
        if entries:
            last = entries[-1]
            if last.frame is frame and last.conns is not None and not last.close:
                last.conns.append(cid)  # a frame for everyone: one entry, encoded once
                return
        entries.append(_Entry(frame, [cid]))
        self._wake.set()

    def answered(self, gateway: str, request: int) -> None:
        self._pending.setdefault(gateway, []).append(_Entry(None, answered=request))
        self._wake.set()

    def close(self, gateway: str, cid: int, code: int) -> None:
        self._pending.setdefault(gateway, []).append(_Entry(None, [cid], close=code))
        self._wake.set()

    def _items(self, gateway: str, entries: list[_Entry]) -> list[m.Item]:
        members = self.members.get(gateway, {})
        everyone = set(members)
        items = []
        for entry in entries:
            text = turn = None
            seated, seat = False, None
            if entry.frame is not None:
                frame = entry.frame
                text = frame.text if isinstance(frame, Shared) else encode(frame)
                turn = _turn(frame.frame if isinstance(frame, Shared) else frame)
                conn = (
                    members.get(entry.conns[0]) if entry.conns and len(entry.conns) == 1 else None
                )
                if conn is not None:
                    seated, seat = True, self.seat_of(conn.user_id)
            conns = entry.conns
            if conns is not None and len(conns) > 1 and len(conns) == len(everyone):
                conns = None if set(conns) == everyone else conns
            items.append(m.Item(text, conns, entry.answered, entry.close, seated, seat, turn))
        return items

    async def run(self) -> None:
        """Publish the batches, one message per gateway each time (until cancelled)."""
        while True:
            await self._wake.wait()
            self._wake.clear()
            pending, self._pending = self._pending, {}
            for gateway, entries in pending.items():
                batch = m.Frames(self.table, self.token, self._items(gateway, entries))
                try:
                    await self.publish(m.gateway_channel(gateway), m.encode(batch))
                except Exception as exc:  # Redis down: the frames are lost, the table goes on
                    log.warning("frames for gateway %s of %s lost: %s", gateway, self.table, exc)


def _turn(frame: object) -> m.TurnOffer | None:
    """The turn a ``your_turn`` frame offers (no stakes: its decisions add none)."""
    if not isinstance(frame, SeatEventFrame) or not isinstance(frame.event, YourTurn):
        return None
    event = frame.event
    if not isinstance(event.round_id, int) or not isinstance(event.decision, str):
        return None
    stakes = event.stakes if isinstance(event.stakes, dict) else {}
    return m.TurnOffer(event.round_id, event.phase, list(event.legal), stakes, event.decision)


def _moved(prepaid: Prepaid | None) -> ServiceUnavailable:
    """Why a request from a socket the table's new owner never saw is not applied."""
    held = ""
    if prepaid is not None:
        closes, idle = (
            ("betting", " (within a minute if no round starts)")
            if prepaid.phase is None
            else ("the decision phase", "")
        )
        held = f"; its stake is returned when {closes} closes at the latest{idle}"
    return ServiceUnavailable(
        "the table moved to another server: nothing of this request was done" + held,
        reason="table_moved",
    )


class TableHost:
    """A table this process owns: its commands read from the bus, its frames published."""

    def __init__(self, table: Table, *, token: int, bus: Bus, start_id: str) -> None:
        self.table = table
        self.token = token
        self.bus = bus
        self._start_id = start_id
        self.outlet = Outlet(table.config.name, token, bus.publish, table.seat_of)
        self.remote: dict[tuple[str, int], RemoteConnection] = {}
        self._reaped: dict[tuple[str, int], tuple[int, str, float]] = {}
        """The sockets of gateways taken for dead, with their players and when: one whose
        gateway was alive after all is connected again at its next request."""
        self._tasks: list[asyncio.Task[None]] = []
        self._changes = Background()

    @property
    def name(self) -> str:
        return self.table.config.name

    def start(self) -> None:
        self.table.start()
        name = self.name
        self._tasks = [
            asyncio.create_task(self.outlet.run(), name=f"outlet:{name}"),
            asyncio.create_task(self.read(), name=f"commands:{name}"),
            asyncio.create_task(self._reap(), name=f"reaper:{name}"),
        ]

    async def stop(self, *, abandon: bool) -> None:
        """Stop the table: ``abandon`` (the lease is lost) cancels it without a write (its
        next owner voids the round in play); else it stops as one process does (the round in
        play voided) and the last frames go out."""
        reader = self._tasks[1] if len(self._tasks) > 1 else None
        if reader is not None:
            reader.cancel()
        if abandon:
            await self.table.abandon()
        else:
            await self.table.stop("the server moved the table")
            await asyncio.sleep(0.05)  # let the outlet publish the void
        await tasks.stop(self._tasks, what=f"the tasks of table {self.name}")

    # -- commands from the gateways ----------------------------------------------------

    async def read(self) -> None:
        stream = m.command_stream(self.name)
        last = self._start_id
        while True:
            try:
                batch = await self.bus.read_stream(stream, last)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("reading %s failed: %s (retrying)", stream, exc)
                await asyncio.sleep(0.5)
                continue
            for entry_id, raw in batch:
                last = entry_id
                for command in m.decode_commands(raw, stream):
                    self.command(command)

    def command(self, command: m.Command) -> None:
        """Apply one validated command to the table (through its inbox)."""
        table = self.table
        match command:
            case m.Connect(gateway, cid, user_id, username):
                self._connect(gateway, cid, user_id, username)
            case m.Disconnect(gateway, cid):
                self._drop(gateway, cid)
            case m.Submit():
                self._submit(command)
            case m.Reconfigure(config, closed, changed):
                try:
                    new = TableConfig.model_validate(config)
                except ValidationError as exc:
                    log.error(
                        "dropped a reconfigure of %s that does not validate: %s", self.name, exc
                    )
                    return
                self._changes.start(table.reconfigure(new, closed=closed, changed=changed))

    def _connect(self, gateway: str, cid: int, user_id: int, username: str) -> RemoteConnection:
        conn = RemoteConnection(
            user_id=user_id, username=username, gateway=gateway, cid=cid, outlet=self.outlet
        )
        old = self.remote.pop((gateway, cid), None)
        if old is not None:
            self.table.disconnect(old)
        self._reaped.pop((gateway, cid), None)
        self.remote[(gateway, cid)] = conn
        self.outlet.members.setdefault(gateway, {})[cid] = conn
        self.table.core.inbox.put_nowait(Connect(conn))
        return conn

    def _drop(self, gateway: str, cid: int, *, reaped: bool = False) -> None:
        self._reaped.pop((gateway, cid), None)
        conn = self.remote.pop((gateway, cid), None)
        if reaped and conn is not None:
            now = asyncio.get_running_loop().time()
            self._reaped[(gateway, cid)] = (conn.user_id, conn.username, now)
        members = self.outlet.members.get(gateway)
        if members is not None:
            members.pop(cid, None)
            if not members:
                del self.outlet.members[gateway]
        if conn is not None:
            self.table.disconnect(conn)

    def _submit(self, command: m.Submit) -> None:
        gateway, cid, request = command.gateway, command.conn, command.request
        try:
            message = parse_client_message(command.message)
        except CroupierError as exc:
            log.error("dropped a request on the bus that does not validate: %s", exc)
            self.outlet.answered(gateway, request)
            return
        conn = self.remote.get((gateway, cid))
        reaped = self._reaped.get((gateway, cid))
        if conn is None and reaped is not None and reaped[0] == command.user_id:
            # A socket of a gateway this owner took for dead when its heartbeat came late:
            # alive after all (it sent this). Connected again first (its welcome says where
            # it sits now), then the request is taken as any other: applied, or refused and
            # a stake held for it returned.
            log.info("request from reaped socket %s/%s at %s: connected", gateway, cid, self.name)
            conn = self._connect(gateway, cid, reaped[0], reaped[1])
        if conn is None:
            # A socket this owner never saw connect: it sent the request to the table's
            # previous owner just before this one took over. Not applied, and said so, as
            # its gateway says to the requests waiting at the takeover (it connects the
            # socket again); a stake held for it comes back with the void of the old
            # owner's round, or at the close of its window.
            log.info("request from unknown socket %s/%s at %s refused", gateway, cid, self.name)
            self.outlet.add(gateway, cid, error_frame(_moved(command.prepaid), ref=message.id))
            self.outlet.answered(gateway, request)
            return
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        outlet = self.outlet
        done.add_done_callback(lambda _: outlet.answered(gateway, request))
        self.table.core.inbox.put_nowait(Request(conn, message, done, command.prepaid))

    def forget_reaped(self, now: float) -> None:
        """Forget the reaped sockets silent for :data:`_FORGET_REAPED_SECONDS`: their
        gateway is truly gone (else the memory of every dead gateway's sockets would grow)."""
        for key, (_, _, at) in list(self._reaped.items()):
            if now - at >= _FORGET_REAPED_SECONDS:
                del self._reaped[key]

    async def _reap(self) -> None:
        """Disconnect the sockets of gateways that stopped beating (a dead process); now
        and then have the table look for stakes held for bets that never came."""
        loop = asyncio.get_running_loop()
        looked = loop.time()
        while True:
            await asyncio.sleep(_REAP_SECONDS)
            now = loop.time()
            self.forget_reaped(now)
            if now - looked >= _LOOK_SECONDS:
                looked = now
                self.table.core.inbox.put_nowait(LookForHolds())
            for gateway in list(self.outlet.members):
                try:
                    alive = await self.bus.alive(gateway)
                except Exception:
                    continue  # Redis down: nobody can tell; keep them
                if not alive:
                    log.warning("gateway %s is gone: its sockets leave %s", gateway, self.name)
                    for cid in list(self.outlet.members.get(gateway, {})):
                        self._drop(gateway, cid, reaped=True)
                    # Stakes it held for bets it never sent are returned.
                    self.table.core.inbox.put_nowait(GatewayLost(gateway))
