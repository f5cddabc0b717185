"""One live table: a single asyncio task owns its seats, its connections and its round.

Everything that changes a table goes through its inbox and is handled one command at a time
by :meth:`Table.run`: requests from WebSocket connections, timers, connects and disconnects,
an operator's changes. So the round, the seats and the sequence counter have one writer and
need no locks.

A table is composed, not inherited: it owns

- its state (:class:`.core.TableCore`: settings, inbox, timer, the round in play),
- its broadcaster (:class:`.broadcast.Broadcaster`: connections, event log, frames),
- its seats (:class:`.seats.Seats`: who sits where, the seat rules),

and hands the round's life to a driver chosen by the game's kind: a
:class:`.banked.BankedDriver` for games against the house (UTH, Russian Poker), a
:class:`.cash.CashDriver` for the Hold'em cash game. The commands waiting in the inbox are
taken together, and the bets (or the decisions) among them handed to the driver as one batch
(a live table with a thousand players stays interactive: see :mod:`.banked`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from croupier.deck import Shoe
from croupier.errors import CroupierError, IllegalActionError
from croupier.server.db import Database
from croupier.server.metrics import TableObserver
from croupier.server.tables.admission import Admission
from croupier.server.tables.banked import BankedDriver
from croupier.server.tables.broadcast import TALLY_SECONDS, Broadcaster
from croupier.server.tables.cash import CashDriver
from croupier.server.tables.clock import Clock
from croupier.server.tables.config import TableConfig
from croupier.server.tables.connection import (
    Command,
    Connect,
    Connection,
    Disconnect,
    GatewayLost,
    LookForHolds,
    Reconfigure,
    Request,
    Stop,
    Tick,
    Timer,
)
from croupier.server.tables.core import TableCore, TableStatus
from croupier.server.tables.driver import Driver, Parts
from croupier.server.tables.escrow import Escrow, WindowedEscrow
from croupier.server.tables.games import GameFactory
from croupier.server.tables.seats import Seats
from croupier.server.tables.wire import (
    ActMessage,
    BetMessage,
    BuyInMessage,
    ClientMessage,
    Closing,
    JoinMessage,
    LeaveMessage,
    LobbyEntry,
    PingMessage,
    Pong,
    Result,
    ResyncMessage,
    SitInMessage,
    SitOutMessage,
    TableChanged,
    error_frame,
)

__all__ = ["TALLY_SECONDS", "Connection", "Table"]

log = logging.getLogger(__name__)

_BATCH = 4096
"""The most inbox commands taken together."""

DRIVERS: Mapping[str, Callable[[Parts], Driver]] = {"banked": BankedDriver, "cash": CashDriver}
"""The driver of each kind of game (:attr:`croupier.server.tables.games.GameFactory.kind`)."""


class Table:
    """A table: seats, connections and at most one round in play, played by its driver."""

    def __init__(
        self,
        config: TableConfig,
        factory: GameFactory,
        *,
        db: Database,
        clock: Clock,
        shoe_factory: Callable[[], Shoe],
        history: int = 1024,
        windowed: bool = False,
    ) -> None:
        self.core = TableCore(config, factory, db=db, clock=clock, shoe_factory=shoe_factory)
        self.out = Broadcaster(self.core, history=history)
        self.seats = Seats(self.core, self.out)
        # A cluster's table (``windowed``): its gateways hold stakes themselves (:mod:`.window`).
        self.escrow = (WindowedEscrow if windowed else Escrow)(self.core)
        self.driver = DRIVERS[factory.kind](Parts(self.core, self.out, self.seats, self.escrow))
        self.seats.policy = self.driver
        self._task: asyncio.Task[None] | None = None

    # -- what the server reads and sets ------------------------------------------------

    @property
    def config(self) -> TableConfig:
        return self.core.config

    @property
    def factory(self) -> GameFactory:
        return self.core.factory

    @property
    def status(self) -> TableStatus:
        return self.core.status

    @property
    def closed(self) -> bool:
        """Closed by an operator: the round in play finishes, no new bets, seats or hands."""
        return self.core.closed

    @closed.setter
    def closed(self, closed: bool) -> None:
        self.core.closed = closed

    @property
    def metrics(self) -> TableObserver:
        """Told of every round closed and request answered (the app sets its own)."""
        return self.core.metrics

    @metrics.setter
    def metrics(self, metrics: TableObserver) -> None:
        self.core.metrics = metrics

    @property
    def admission(self) -> Admission:
        """Who may sit and play (issue 16; the server sets its responsible-gaming checks)."""
        return self.core.admission

    @admission.setter
    def admission(self, admission: Admission) -> None:
        self.core.admission = admission

    @property
    def rounds_played(self) -> int:
        return self.core.rounds_played

    def seat_of(self, user_id: int) -> int | None:
        """The seat ``user_id`` holds at the table now."""
        return self.core.seat_of.get(user_id)

    @property
    def seq(self) -> int:
        return self.out.seq

    def lobby_entry(self) -> LobbyEntry:
        """The lobby entry of this table."""
        return self.out.lobby_entry()

    def describe(self) -> dict[str, Any]:
        """The lobby entry of this table, as JSON."""
        return self.out.describe()

    # -- outside API (called from WebSocket handlers on the same loop) -------------------------

    def start(self) -> None:
        self._task = asyncio.create_task(self.run(), name=f"table:{self.config.name}")

    @property
    def running(self) -> bool:
        """Whether the table's task is alive (``/healthz``)."""
        return self._task is not None and not self._task.done()

    async def stop(self, reason: str = "server shut down") -> None:
        if self._task is None:
            return
        await self.core.inbox.put(Stop(reason))
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        self._task = None

    async def abandon(self) -> None:
        """Stop at once, writing nothing (a cluster's process that lost the table's lease:
        its new owner voids the round in play, the database refuses this one's writes)."""
        for task in (self._task, self.core.timer_task, self.out.tally_task):
            if task is not None:
                task.cancel()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        self._task = None
        for request in self._drain_inbox():
            request.done.set_result(None)

    def _drain_inbox(self) -> list[Request]:
        waiting = []
        while not self.core.inbox.empty():
            command = self.core.inbox.get_nowait()
            if isinstance(command, Request) and not command.done.done():
                waiting.append(command)
        return waiting

    def connect(self, *, user_id: int, username: str) -> Connection:
        conn = Connection(user_id=user_id, username=username)
        self.core.inbox.put_nowait(Connect(conn))
        return conn

    def disconnect(self, conn: Connection) -> None:
        conn.closed = True
        self.core.inbox.put_nowait(Disconnect(conn))

    async def submit(self, conn: Connection, message: ClientMessage) -> None:
        """Queue a request and wait until the table has answered it (ack or error frame)."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        await self.core.inbox.put(Request(conn, message, done))
        await done

    async def reconfigure(
        self, config: TableConfig, *, closed: bool, changed: Mapping[str, Any]
    ) -> None:
        """Apply an operator's change on the table's task (between two commands, never in the
        middle of one); return once applied. A table whose task is not running (stopped, or
        not started yet) takes it at once."""
        if not self.running:
            await self._apply_settings(config, closed=closed, changed=changed)
            return
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        await self.core.inbox.put(Reconfigure(config, closed, changed, done))
        await done

    # -- the task --------------------------------------------------------------------------

    async def run(self) -> None:
        await self.driver.start()
        inbox = self.core.inbox
        while True:
            batch = [await inbox.get()]
            while len(batch) < _BATCH and not inbox.empty():
                batch.append(inbox.get_nowait())
            if await self._process(batch):
                return

    async def _process(self, batch: list[Command]) -> bool:
        """Handle a batch of commands in order; ``True`` once the table has stopped.

        At a live table, consecutive bets (or decisions) are handled as one group."""
        i = 0
        while i < len(batch):
            command = batch[i]
            if isinstance(command, Stop):
                await self._shutdown(command.reason)
                for rest in batch[i + 1 :]:
                    if isinstance(rest, Request) and not rest.done.done():
                        rest.done.set_result(None)
                return True
            group = self._group(batch, i)
            i += len(group)
            try:
                await self._handle_group(group)
            except Exception:  # pragma: no cover - a bug; keep the table alive
                log.exception("table %s failed handling %r", self.config.name, group)
                for item in group:
                    if isinstance(item, Request) and not item.done.done():
                        item.conn.send(
                            error_frame(
                                code="internal", message="internal error", ref=item.message.id
                            )
                        )
                        item.done.set_result(None)
        self.out.tally()
        return False

    def _group(self, batch: list[Command], i: int) -> list[Command]:
        """The command at ``i``, with the requests of its kind that follow it when it is a
        bet or a decision at a live table."""
        command = batch[i]
        group = [command]
        kind = type(command.message) if isinstance(command, Request) else None
        if self.core.crowd and kind in (BetMessage, ActMessage, JoinMessage):
            while i + len(group) < len(batch):
                after = batch[i + len(group)]
                if not (isinstance(after, Request) and type(after.message) is kind):
                    break
                group.append(after)
        return group

    async def _handle_group(self, group: Sequence[Command]) -> None:
        """One command, or requests of one kind taken together (bets, or decisions)."""
        requests = [c for c in group if isinstance(c, Request)]
        kind = type(requests[0].message) if requests else None
        if kind is BetMessage:
            await self.driver.bets(requests)
        elif kind is ActMessage:
            await self.driver.acts(requests)
        elif kind is JoinMessage and len(requests) > 1:
            await self._joins(requests)
        else:
            await self._handle(group[0])

    async def _handle(self, command: Command) -> None:
        match command:
            case Connect(conn):
                self.out.connected(conn)
            case Disconnect(conn):
                self.out.disconnected(conn)
                await self.driver.release_ghosts(conn.user_id)
                conn.outbox.put_nowait(None)
            case Timer(generation):
                if generation == self.core.timer_generation:
                    await self.driver.on_timer()
            case Tick():
                self.out.tally_task = None
            case GatewayLost():
                await self.driver.gateway_lost()
            case LookForHolds():
                await self.driver.unclaimed_holds()
            case Reconfigure():
                try:
                    await self._apply_settings(
                        command.config, closed=command.closed, changed=command.changed
                    )
                finally:
                    if not command.done.done():
                        command.done.set_result(None)
            case Request(conn, message, done):
                try:
                    result = await self._request(conn, message)
                except CroupierError as exc:
                    self.out.refuse(command, exc)
                else:
                    self.out.answer(command, result)
                finally:
                    if not done.done():
                        done.set_result(None)

    async def _joins(self, requests: Sequence[Request]) -> None:
        """Players sitting down together at a live table (a thousand at its opening): their
        seats checked in one query, each joined and answered in order."""
        try:
            refused = await self.seats.may_sit_many([request.conn for request in requests])
        except CroupierError as exc:  # the table is closed
            for request in requests:
                self.out.refuse(request, exc)
            return
        for request in requests:
            message = request.message
            assert isinstance(message, JoinMessage)
            if request.conn in refused:
                self.out.refuse(request, refused[request.conn])
                continue
            try:
                result = self.seats.join(request.conn, message.seat)
            except CroupierError as exc:
                self.out.refuse(request, exc)
            else:
                self.out.answer(request, result)
        self.seats.arm_idle()

    async def _request(self, conn: Connection, message: ClientMessage) -> Result | None:
        match message:
            case PingMessage():
                conn.send(Pong(ref=message.id, seq=self.out.seq))
                return None
            case ResyncMessage(last_seq=last):
                self.out.resync(conn, last)
                return None
            case JoinMessage(seat=seat):
                await self.seats.may_sit(conn)
                frame = self.seats.join(conn, seat)
                self.seats.arm_idle()
                return frame
            case LeaveMessage():
                return await self.driver.leave(conn, message)
            case BuyInMessage() | SitOutMessage() | SitInMessage():
                return await self.driver.seat_request(conn, message)
        raise IllegalActionError(f"unhandled message {message.type!r}")  # pragma: no cover

    async def _apply_settings(
        self, config: TableConfig, *, closed: bool, changed: Mapping[str, Any]
    ) -> None:
        """New settings for the rounds opened from now on, or the table opened or closed;
        everyone at the table gets a ``table_changed`` event. Seed 003: management may change
        a table's limits "tudi med igro", even during play: the round in play takes the new
        limits for every bet placed after the change in its betting window (the bets placed
        stand; a game's round says how, ``adopt_limits``)."""
        core = self.core
        reconfigure = getattr(core.factory, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(config.rules)
            adopt = getattr(core.round, "adopt_limits", None)
            if adopt is not None:
                adopt(core.factory)
                self.out.drain_engine()
        core.config = config
        core.closed = closed
        self.out.emit(
            TableChanged(
                closed=closed,
                rules=dict(core.factory.describe()),
                changed=dict(changed),
                in_play=core.round_id,
            )
        )
        self.out.broadcast_state()
        await self.driver.reconfigured()

    async def _shutdown(self, reason: str) -> None:
        await self.driver.shutdown(reason)
        for task in (self.core.timer_task, self.out.tally_task, *self.core.retries):
            if task is not None:
                task.cancel()
        for conn in list(self.out.conns):
            conn.send(Closing(reason=reason))
            conn.outbox.put_nowait(None)
        self.out.conns.clear()
