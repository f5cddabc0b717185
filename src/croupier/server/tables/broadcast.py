"""What a table's connections receive: the :class:`Broadcaster` of one table.

It owns the table's connections and its event log: events in sequence (each seat's own
projection of an engine event where it sees it its own way), state snapshots, resync, the
answers to requests, and at a live table the per-seat events and the ``tally``.

A live table (no seat limit: hundreds of players on one dealer hand, spec/uth.md "Table")
stays interactive with a thousand players because what concerns one seat alone (its bets,
its decisions, its result, its sitting down) goes to that seat only, as a ``seat_event`` frame
outside the table's ``seq``; everyone gets the table-wide events, with lists of every seat
replaced by counts, and a ``tally`` event (seats taken, boxes in play, decisions pending) at
most every :data:`TALLY_SECONDS`. So each player receives a few dozen frames a round, not a
few thousand. Nothing here writes to the database.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from croupier.errors import CroupierError
from croupier.server.tables.connection import Connection, Request, Tick
from croupier.server.tables.core import TableCore, TableStatus
from croupier.server.tables.games import event_seat
from croupier.server.tables.wire import (
    Ack,
    EventFrame,
    LobbyEntry,
    Result,
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
    YourTurn,
    as_json,
    error_frame,
)

__all__ = ["TALLY_SECONDS", "Broadcaster", "Event", "Logged"]

Event = TableEvent | Mapping[str, Any]
"""An event in a frame: a table event, or a game adapter's projection of a game event."""

TALLY_SECONDS = 1.0
"""A live table's ``tally`` event is sent at most this often: counts a person reads, to every
socket at the table (3,000 frames a tally at 3,000 players), so once a second and not more."""


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


class Broadcaster:
    """One table's connections, its event log and every frame they receive."""

    def __init__(self, core: TableCore, *, history: int) -> None:
        self.core = core
        self.conns: set[Connection] = set()
        self.by_user: dict[int, set[Connection]] = {}
        self.seq = 0
        self._log: deque[Logged] = deque(maxlen=history)
        self._tally_sent: tuple[int, int, int] | None = None
        self._tally_at = float("-inf")
        self.tally_task: asyncio.Task[None] | None = None
        self.extras: Callable[[TableState], None] | None = None
        """What the driver adds to the table in ``state`` (a cash table: stacks, button)."""

    # -- connections -------------------------------------------------------------------

    def connected(self, conn: Connection) -> None:
        self.conns.add(conn)
        self.by_user.setdefault(conn.user_id, set()).add(conn)
        conn.send(self.welcome(conn))
        conn.send(self.state(conn))

    def disconnected(self, conn: Connection) -> None:
        self.conns.discard(conn)
        mine = self.by_user.get(conn.user_id)
        if mine is not None:
            mine.discard(conn)
            if not mine:
                del self.by_user[conn.user_id]

    def answer(self, request: Request, result: Result | None) -> None:
        """Acknowledge a request with what it did (``None``: it was answered already)."""
        if result is not None:
            request.conn.send(Ack(ref=request.message.id, result=result))
            self.core.metrics.answered(table=self.core.name, kind=request.message.type, ok=True)
        if not request.done.done():
            request.done.set_result(None)

    def refuse(self, request: Request, exc: CroupierError) -> None:
        """Refuse a request with the error that says why."""
        request.conn.send(error_frame(exc, ref=request.message.id))
        self.core.metrics.answered(table=self.core.name, kind=request.message.type, ok=False)
        if not request.done.done():
            request.done.set_result(None)

    # -- the lobby ---------------------------------------------------------------------

    def lobby_entry(self) -> LobbyEntry:
        """The lobby entry of this table."""
        core = self.core
        return LobbyEntry(
            name=core.config.name,
            title=core.config.title,
            game=core.factory.game,
            status=core.status,
            closed=core.closed,
            max_seats=core.factory.max_seats(),
            seats_taken=len(core.seats),
            rules=dict(core.factory.describe()),
            timers=Timers(
                betting_seconds=core.config.betting_seconds,
                decision_seconds=core.config.decision_seconds,
                pause_seconds=core.config.pause_seconds,
            ),
            round_id=core.round_id,
            prices=core.factory.bet_prices(),
        )

    def describe(self) -> dict[str, Any]:
        """The lobby entry of this table, as JSON."""
        return as_json(self.lobby_entry())

    # -- events ------------------------------------------------------------------------

    def drain_engine(self) -> None:
        """Send the round's engine events not sent yet, each as each seat may see it."""
        core = self.core
        game_round = core.round
        if game_round is None:
            return
        events = game_round.events_since(core.cursor)
        core.cursor += len(events)
        for event in events:
            if core.crowd:
                seat = event_seat(event)
                if seat is not None:
                    self.to_seat(seat, game_round.project_event(event, seat))
                    continue
            self.seq += 1
            public = game_round.project_event(event, None)
            public_frame = self.event_frame(self.seq, public)
            self._log.append(Logged(self.seq, core.round_id, public, event, public_frame))
            everyone = game_round.visible_to_all(event)
            for conn in self.conns:
                seat = core.seat_of.get(conn.user_id)
                if everyone or seat is None:
                    conn.send(public_frame)
                else:
                    conn.send(self.event_frame(self.seq, game_round.project_event(event, seat)))

    def emit(self, data: Event) -> None:
        """A table event for everyone, in sequence."""
        self.seq += 1
        frame = self.event_frame(self.seq, data)
        self._log.append(Logged(self.seq, self.core.round_id, data, frame=frame))
        for conn in self.conns:
            conn.send(frame)
        if isinstance(data, RoundClosed):
            core = self.core
            core.metrics.round_closed(table=core.name, game=core.config.game, status=data.status)

    def to_seat(self, seat: int, data: Event) -> None:
        """A live table's event about one seat, to that seat's connections only."""
        user = self.core.round_users.get(seat)
        if user is None:
            occupant = self.core.seats.get(seat)
            if occupant is None:
                return
            user = occupant.user_id
        self.to_user(user, data)

    def to_user(self, user_id: int, data: Event) -> None:
        """An event for one user's connections only (a ``seat_event``: no ``seq``, not in the
        log): a live table's per-seat events, a Hold'em player's own card openings."""
        frame = Shared(SeatEventFrame(table=self.core.name, event=data))
        for conn in self.by_user.get(user_id, ()):
            conn.send(frame)

    def turns(
        self,
        phase: str,
        pending: Iterable[int],
        legal: Callable[[int], list[str]],
        stakes: Callable[[int], dict[str, int]],
        *,
        decision: str,
    ) -> None:
        """A live table's decision phase opened: each seat to decide gets its ``your_turn``
        (a ``seat_event`` with its ``legal`` actions, their ``stakes`` and the
        ``decision``'s id), one frame encoded per distinct list, where a casino table sends
        every connection its ``state`` (issue 18: a view built and encoded per seat, a
        thousand times a phase)."""
        frames: dict[tuple[tuple[str, ...], tuple[tuple[str, int], ...]], Shared] = {}
        round_id = self.core.round_id
        for seat in pending:
            user = self.core.round_users.get(seat)
            if user is None:
                continue
            words = tuple(legal(seat))
            costs = stakes(seat)
            key = (words, tuple(costs.items()))
            frame = frames.get(key)
            if frame is None:
                event = YourTurn(phase=phase, legal=list(words), decision=decision)
                if round_id is not None:
                    event.round_id = round_id
                if costs:
                    event.stakes = costs
                frame = frames[key] = Shared(SeatEventFrame(table=self.core.name, event=event))
            for conn in self.by_user.get(user, ()):
                conn.send(frame)

    def announce(self, user_id: int, data: Event) -> None:
        """A seat taken or given up: an event for everyone, or at a live table (where the
        ``tally`` counts the seats) for that user only."""
        if self.core.crowd:
            self.to_user(user_id, data)
        else:
            self.emit(data)

    def tally(self) -> None:
        """A live table's counts for everyone, when they changed, at most every
        :data:`TALLY_SECONDS` (a later change waits for a :class:`Tick`)."""
        core = self.core
        if not core.crowd:
            return
        game_round = core.round
        counts = (
            len(core.seats),
            game_round.seat_count if game_round is not None else 0,
            game_round.pending_count if game_round is not None else 0,
        )
        if counts == self._tally_sent:
            return
        wait = self._tally_at + TALLY_SECONDS - core.clock.now()
        if wait > 0:
            if self.tally_task is None:

                async def tick() -> None:
                    await core.clock.sleep(wait)
                    await core.inbox.put(Tick())

                self.tally_task = asyncio.create_task(tick())
            return
        self._tally_sent, self._tally_at = counts, core.clock.now()
        seats_taken, in_play, pending = counts
        self.emit(Tally(seats_taken=seats_taken, boxes_in_play=in_play, pending=pending))

    def event_frame(self, seq: int, data: Event) -> Shared:
        return Shared(EventFrame(seq=seq, table=self.core.name, event=data))

    # -- snapshots ---------------------------------------------------------------------

    def welcome(self, conn: Connection) -> Welcome:
        return Welcome(
            table=self.lobby_entry(),
            user=UserRef(id=conn.user_id, username=conn.username),
            seat=self.core.seat_of.get(conn.user_id),
            seq=self.seq,
        )

    def table_state(self, conn: Connection) -> TableState:
        """The table as ``state`` shows it to ``conn`` (a cash table adds stacks)."""
        core = self.core
        remaining = None
        if core.deadline is not None and core.status is not TableStatus.IDLE:
            remaining = max(0.0, round(core.deadline - core.clock.now(), 3))
        table = TableState(
            name=core.config.name,
            status=core.status,
            closed=core.closed,
            round_id=core.round_id,
            commitment=core.commitment,
            deadline_in=remaining,
            seats_taken=len(core.seats),
            your_seat=core.seat_of.get(conn.user_id),
        )
        if core.factory.max_seats() is not None:
            table.seats = [
                SeatEntry(seat=s, username=o.username) for s, o in sorted(core.seats.items())
            ]
        if self.extras is not None:
            self.extras(table)
        return table

    def state(self, conn: Connection) -> State:
        core = self.core
        seat = core.seat_of.get(conn.user_id)
        game_round = core.round
        view = None
        if game_round is not None:
            view = game_round.view(seat if core.in_round(seat, conn.user_id) else None)
        return State(seq=self.seq, table=self.table_state(conn), view=view)

    def send_state_to(self, user_id: int) -> None:
        for conn in self.by_user.get(user_id, ()):
            conn.send(self.state(conn))

    def acted(self, user_id: int) -> None:
        """After a seat's own bet or decision: its new state. At a live table none is sent
        (issue 18): the seat's own ``seat_event`` (its bets placed, its decision) and the
        request's ``ack`` say what changed, and the next phase's ``your_turn`` follows
        ``decisions_open``; a ``state`` per actor was a view built and encoded per seat."""
        if not self.core.crowd:
            self.send_state_to(user_id)

    def broadcast_state(self) -> None:
        for conn in self.conns:
            conn.send(self.state(conn))

    def resync(self, conn: Connection, last_seq: int) -> None:
        core = self.core
        missed = [entry for entry in self._log if entry.seq > last_seq]
        # A ``last_seq`` above the table's count is one from before the server restarted (it
        # counts from 0 again): nothing of it can be replayed (found by red-teaming: it was
        # answered complete).
        complete = last_seq <= self.seq and (not missed or missed[0].seq == last_seq + 1)
        seat = core.seat_of.get(conn.user_id)
        game_round = core.round
        mine = core.in_round(seat, conn.user_id)
        if complete:
            # The log's frames go out as they were encoded the first time (issue 13: a resync
            # costs a queue put per event, not a JSON encoding); only the events of the round
            # in play that the seat sees its own way are projected again.
            for entry in missed:
                if (
                    mine
                    and entry.engine_event is not None
                    and game_round is not None
                    and entry.round_id == core.round_id
                    and not game_round.visible_to_all(entry.engine_event)
                ):
                    data = game_round.project_event(entry.engine_event, seat)
                    conn.send(self.event_frame(entry.seq, data))
                else:
                    conn.send(entry.frame or self.event_frame(entry.seq, entry.data))
        state = self.state(conn)
        state.resynced, state.complete = True, complete
        conn.send(state)
