"""What a table's connections see: the state a table keeps (seats, the round in play, the
event log) and every frame built from it -- events in sequence, each seat's own projection,
state snapshots, resync, and at a live table the per-seat events and the ``tally``.

:class:`TableFrames` is the base of :class:`croupier.server.tables.table.Table`, whose task
changes that state; nothing here writes to the database.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from croupier.server.metrics import NO_METRICS, TableObserver
from croupier.server.tables.clock import Clock
from croupier.server.tables.config import TableConfig
from croupier.server.tables.connection import Command, Connection, Tick
from croupier.server.tables.games import GameFactory, GameRound, event_seat
from croupier.server.tables.wire import (
    EventFrame,
    LobbyEntry,
    RoundClosed,
    SeatEntry,
    SeatEventFrame,
    Shared,
    State,
    TableEvent,
    TableState,
    Tally,
    Timers,
    UserRef,
    Welcome,
    as_json,
)

__all__ = ["TALLY_SECONDS", "Event", "Logged", "Occupant", "TableFrames"]

Event = TableEvent | Mapping[str, Any]
"""An event in a frame: a table event, or a game adapter's projection of a game event."""

TALLY_SECONDS = 0.5
"""A live table's ``tally`` event is sent at most this often."""


@dataclass(frozen=True, slots=True)
class Logged:
    """An event in the table's log, kept for resync."""

    seq: int
    round_id: int | None
    data: Event
    """The public form of the event (what a spectator sees)."""
    engine_event: Any = None
    frame: Shared | None = None
    """The event frame as sent, encoded once: a resync sends it again as it is."""


@dataclass(slots=True)
class Occupant:
    """Who sits in a seat."""

    user_id: int
    username: str


class TableFrames:
    """A table's state and the frames its connections receive from it."""

    metrics: TableObserver = NO_METRICS
    """Told of every round closed and request answered (the app sets its own)."""

    def __init__(
        self, config: TableConfig, factory: GameFactory, *, clock: Clock, history: int
    ) -> None:
        self.config = config
        self.factory = factory
        self._clock = clock
        self._inbox: asyncio.Queue[Command] = asyncio.Queue()
        self._conns: set[Connection] = set()
        self._by_user: dict[int, set[Connection]] = {}
        self._seats: dict[int, Occupant] = {}
        self._seat_of: dict[int, int] = {}
        self.status = "idle"
        self._round: GameRound | None = None
        self._round_id: int | None = None
        self._commitment: str | None = None
        self._round_users: dict[int, int] = {}
        """seat -> user id of everyone with a stake in the current round."""
        self._cursor = 0
        self._deadline: float | None = None
        self.seq = 0
        self._log: deque[Logged] = deque(maxlen=history)
        self._crowd = factory.max_seats() is None
        """A live table: per-seat events go to their seat only (see the module docstring)."""
        self._tally_sent: tuple[int, int, int] | None = None
        self._tally_at = float("-inf")
        self._tally_task: asyncio.Task[None] | None = None

    def lobby_entry(self) -> LobbyEntry:
        """The lobby entry of this table."""
        return LobbyEntry(
            name=self.config.name,
            title=self.config.title,
            game=self.factory.game,
            status=self.status,
            max_seats=self.factory.max_seats(),
            seats_taken=len(self._seats),
            rules=dict(self.factory.describe()),
            timers=Timers(
                betting_seconds=self.config.betting_seconds,
                decision_seconds=self.config.decision_seconds,
                pause_seconds=self.config.pause_seconds,
            ),
            round_id=self._round_id,
        )

    def describe(self) -> dict[str, Any]:
        """The lobby entry of this table, as JSON."""
        return as_json(self.lobby_entry())

    def _drain_engine(self) -> None:
        game_round = self._round
        if game_round is None:
            return
        events = game_round.events_since(self._cursor)
        self._cursor += len(events)
        for event in events:
            if self._crowd:
                seat = event_seat(event)
                if seat is not None:
                    self._to_seat(seat, game_round.project_event(event, seat))
                    continue
            self.seq += 1
            public = game_round.project_event(event, None)
            public_frame = self._event_frame(self.seq, public)
            self._log.append(Logged(self.seq, self._round_id, public, event, public_frame))
            everyone = game_round.visible_to_all(event)
            for conn in self._conns:
                seat = self._seat_of.get(conn.user_id)
                if everyone or seat is None:
                    conn.send(public_frame)
                else:
                    conn.send(self._event_frame(self.seq, game_round.project_event(event, seat)))

    def _emit(self, data: Event) -> None:
        self.seq += 1
        frame = self._event_frame(self.seq, data)
        self._log.append(Logged(self.seq, self._round_id, data, frame=frame))
        for conn in self._conns:
            conn.send(frame)
        if isinstance(data, RoundClosed):
            self.metrics.round_closed(
                table=self.config.name, game=self.config.game, status=data.status
            )

    def _to_seat(self, seat: int, data: Event) -> None:
        """A live table's event about one seat, to that seat's connections only."""
        user = self._round_users.get(seat)
        if user is None:
            occupant = self._seats.get(seat)
            if occupant is None:
                return
            user = occupant.user_id
        self._to_user(user, data)

    def _to_user(self, user_id: int, data: Event) -> None:
        """An event for one user's connections only (a ``seat_event``: no ``seq``, not in the
        log): a live table's per-seat events, a Hold'em player's own card openings."""
        frame = Shared(SeatEventFrame(table=self.config.name, event=data))
        for conn in self._by_user.get(user_id, ()):
            conn.send(frame)

    def _announce(self, user_id: int, data: Event) -> None:
        """A seat taken or given up: an event for everyone, or at a live table (where the
        ``tally`` counts the seats) for that user only."""
        if self._crowd:
            self._to_user(user_id, data)
        else:
            self._emit(data)

    def _tally(self) -> None:
        """A live table's counts for everyone, when they changed, at most every
        :data:`TALLY_SECONDS` (a later change waits for a :class:`Tick`)."""
        if not self._crowd:
            return
        game_round = self._round
        counts = (
            len(self._seats),
            len(game_round.seats) if game_round is not None else 0,
            len(game_round.pending_seats) if game_round is not None else 0,
        )
        if counts == self._tally_sent:
            return
        wait = self._tally_at + TALLY_SECONDS - self._clock.now()
        if wait > 0:
            if self._tally_task is None:

                async def tick() -> None:
                    await self._clock.sleep(wait)
                    await self._inbox.put(Tick())

                self._tally_task = asyncio.create_task(tick())
            return
        self._tally_sent, self._tally_at = counts, self._clock.now()
        seats_taken, in_play, pending = counts
        self._emit(Tally(seats_taken=seats_taken, boxes_in_play=in_play, pending=pending))

    def _event_frame(self, seq: int, data: Event) -> Shared:
        return Shared(EventFrame(seq=seq, table=self.config.name, event=data))

    def _welcome(self, conn: Connection) -> Welcome:
        return Welcome(
            table=self.lobby_entry(),
            user=UserRef(id=conn.user_id, username=conn.username),
            seat=self._seat_of.get(conn.user_id),
            seq=self.seq,
        )

    def _table_state(self, conn: Connection) -> TableState:
        """The table as ``state`` shows it to ``conn`` (a cash table adds stacks)."""
        remaining = None
        if self._deadline is not None and self.status != "idle":
            remaining = max(0.0, round(self._deadline - self._clock.now(), 3))
        table = TableState(
            name=self.config.name,
            status=self.status,
            round_id=self._round_id,
            commitment=self._commitment,
            deadline_in=remaining,
            seats_taken=len(self._seats),
            your_seat=self._seat_of.get(conn.user_id),
        )
        if self.factory.max_seats() is not None:
            table.seats = [
                SeatEntry(seat=s, username=o.username) for s, o in sorted(self._seats.items())
            ]
        return table

    def _state(self, conn: Connection) -> State:
        seat = self._seat_of.get(conn.user_id)
        game_round = self._round
        view = None
        if game_round is not None:
            in_round = seat is not None and self._round_users.get(seat) == conn.user_id
            view = game_round.view(seat if in_round else None)
        return State(seq=self.seq, table=self._table_state(conn), view=view)

    def _send_state_to(self, user_id: int) -> None:
        for conn in self._by_user.get(user_id, ()):
            conn.send(self._state(conn))

    def _broadcast_state(self) -> None:
        for conn in self._conns:
            conn.send(self._state(conn))

    def _resync(self, conn: Connection, last_seq: int) -> None:
        missed = [entry for entry in self._log if entry.seq > last_seq]
        complete = not missed or missed[0].seq == last_seq + 1 or last_seq >= self.seq
        seat = self._seat_of.get(conn.user_id)
        game_round = self._round
        mine = seat is not None and self._round_users.get(seat) == conn.user_id
        if complete:
            # The log's frames go out as they were encoded the first time (issue 13: a resync
            # costs a queue put per event, not a JSON encoding); only the events of the round
            # in play that the seat sees its own way are projected again.
            for entry in missed:
                if (
                    mine
                    and entry.engine_event is not None
                    and game_round is not None
                    and entry.round_id == self._round_id
                    and not game_round.visible_to_all(entry.engine_event)
                ):
                    data = game_round.project_event(entry.engine_event, seat)
                    conn.send(self._event_frame(entry.seq, data))
                else:
                    conn.send(entry.frame or self._event_frame(entry.seq, entry.data))
        state = self._state(conn)
        state.resynced, state.complete = True, complete
        conn.send(state)
