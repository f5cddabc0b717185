"""One live table: a single asyncio task owns its seats, its connections and its round.

Everything that changes a table goes through its inbox and is handled one command at a time
by :meth:`Table.run`: requests from WebSocket connections, timers, connects and disconnects.
So the round, the seats and the sequence counter have one writer and need no locks.

A round's life (issue 5; spec/uth.md):

1. *idle*: the first valid bet shuffles a shoe from the OS CSPRNG, commits to it (SHA-256
   with a fresh salt) and opens the round in the database together with that bet's hold, in
   one transaction. ``round_opened`` publishes the commitment before any card is dealt.
2. *betting*: bets are held in escrow as they are accepted; betting closes when the timer
   runs out or every seated player has bet.
3. *playing*: each decision phase has a timer; seats that have not acted by then get the
   game's default (UTH: check, or fold on the river). A Play bet holds more money first.
4. the result is recorded and escrow paid out in one transaction; ``round_closed`` reveals
   the salt and deck. A round the engine or the database cannot finish is voided: every
   stake back. One interrupted by a crash stays open in the database and is voided at the
   next start (:func:`croupier.server.tables.rounds.recover_open_rounds`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from croupier.deck import Shoe
from croupier.errors import CroupierError, IllegalActionError
from croupier.server.db import Database
from croupier.server.errors import ConflictError, PermissionDeniedError, error_frame
from croupier.server.tables import rounds
from croupier.server.tables.clock import Clock
from croupier.server.tables.config import TableConfig
from croupier.server.tables.fairness import commit, deck_text, new_salt
from croupier.server.tables.games import GameFactory, GameRound, game_round_shoe
from croupier.server.tables.protocol import (
    PROTOCOL_VERSION,
    ActMessage,
    BetMessage,
    BuyInMessage,
    ClientMessage,
    JoinMessage,
    LeaveMessage,
    PingMessage,
    ResyncMessage,
    SitInMessage,
    SitOutMessage,
)

__all__ = ["Connection", "Table"]

log = logging.getLogger(__name__)

Frame = dict[str, Any]
_OUTBOX_LIMIT = 2048


@dataclass(eq=False, slots=True)
class Connection:
    """One WebSocket of one user at one table; frames for it wait in ``outbox``."""

    user_id: int
    username: str
    outbox: asyncio.Queue[Frame | None] = field(default_factory=asyncio.Queue)
    closed: bool = False

    def send(self, frame: Frame) -> None:
        if self.closed:
            return
        if self.outbox.qsize() >= _OUTBOX_LIMIT:
            # A client this far behind cannot catch up frame by frame: drop it; it can
            # reconnect and resync.
            self.closed = True
            self.outbox.put_nowait(None)
            return
        self.outbox.put_nowait(frame)


@dataclass(frozen=True, slots=True)
class _Request:
    conn: Connection
    message: ClientMessage
    done: asyncio.Future[None]


@dataclass(frozen=True, slots=True)
class _Connect:
    conn: Connection


@dataclass(frozen=True, slots=True)
class _Disconnect:
    conn: Connection


@dataclass(frozen=True, slots=True)
class _Timer:
    generation: int


@dataclass(frozen=True, slots=True)
class _Stop:
    reason: str


@dataclass(frozen=True, slots=True)
class _Logged:
    seq: int
    round_id: int | None
    data: Frame
    """The public form of the event (what a spectator sees)."""
    engine_event: Any = None


@dataclass(slots=True)
class _Occupant:
    user_id: int
    username: str


class Table:
    """A table: seats, connections and at most one round in play."""

    def __init__(
        self,
        config: TableConfig,
        factory: GameFactory,
        *,
        db: Database,
        clock: Clock,
        shoe_factory: Callable[[], Shoe],
        history: int = 1024,
    ) -> None:
        self.config = config
        self.factory = factory
        self._db = db
        self._clock = clock
        self._shoe_factory = shoe_factory
        self._inbox: asyncio.Queue[_Request | _Connect | _Disconnect | _Timer | _Stop] = (
            asyncio.Queue()
        )
        self._conns: set[Connection] = set()
        self._by_user: dict[int, set[Connection]] = {}
        self._seats: dict[int, _Occupant] = {}
        self._seat_of: dict[int, int] = {}
        self._next_live_seat = 0
        self.status = "idle"
        self._round: GameRound | None = None
        self._round_id: int | None = None
        self._commitment: str | None = None
        self._salt = ""
        self._deck = ""
        self._round_users: dict[int, int] = {}
        """seat -> user id of everyone with a stake in the current round."""
        self._cursor = 0
        self._deadline: float | None = None
        self._timer_generation = 0
        self._timer_task: asyncio.Task[None] | None = None
        self._task: asyncio.Task[None] | None = None
        self.seq = 0
        self._log: deque[_Logged] = deque(maxlen=history)
        self.rounds_played = 0

    # -- outside API (called from WebSocket handlers on the same loop) -------------------------

    def start(self) -> None:
        self._task = asyncio.create_task(self.run(), name=f"table:{self.config.name}")

    async def stop(self, reason: str = "server shut down") -> None:
        if self._task is None:
            return
        await self._inbox.put(_Stop(reason))
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        self._task = None

    def connect(self, *, user_id: int, username: str) -> Connection:
        conn = Connection(user_id=user_id, username=username)
        self._inbox.put_nowait(_Connect(conn))
        return conn

    def disconnect(self, conn: Connection) -> None:
        conn.closed = True
        self._inbox.put_nowait(_Disconnect(conn))

    async def submit(self, conn: Connection, message: ClientMessage) -> None:
        """Queue a request and wait until the table has answered it (ack or error frame)."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        await self._inbox.put(_Request(conn, message, done))
        await done

    def describe(self) -> dict[str, Any]:
        """The lobby entry of this table."""
        return {
            "name": self.config.name,
            "title": self.config.title,
            "game": self.factory.game,
            "status": self.status,
            "max_seats": self.factory.max_seats(),
            "seats_taken": len(self._seats),
            "rules": self.factory.describe(),
            "timers": {
                "betting_seconds": self.config.betting_seconds,
                "decision_seconds": self.config.decision_seconds,
                "pause_seconds": self.config.pause_seconds,
            },
            "round_id": self._round_id,
        }

    # -- the task --------------------------------------------------------------------------

    async def run(self) -> None:
        while True:
            command = await self._inbox.get()
            try:
                if isinstance(command, _Stop):
                    await self._shutdown(command.reason)
                    return
                await self._handle(command)
            except Exception:  # pragma: no cover - a bug; keep the table alive
                log.exception("table %s failed handling %r", self.config.name, command)
                if isinstance(command, _Request) and not command.done.done():
                    command.conn.send(error_frame(code="internal", message="internal error"))
                    command.done.set_result(None)

    async def _handle(self, command: _Request | _Connect | _Disconnect | _Timer) -> None:
        match command:
            case _Connect(conn):
                self._conns.add(conn)
                self._by_user.setdefault(conn.user_id, set()).add(conn)
                conn.send(self._welcome(conn))
                conn.send(self._state(conn))
            case _Disconnect(conn):
                self._conns.discard(conn)
                mine = self._by_user.get(conn.user_id)
                if mine is not None:
                    mine.discard(conn)
                    if not mine:
                        del self._by_user[conn.user_id]
                await self._release_ghosts()
                conn.outbox.put_nowait(None)
            case _Timer(generation):
                if generation == self._timer_generation:
                    await self._on_timer()
            case _Request(conn, message, done):
                ref = message.id
                try:
                    result = await self._request(conn, message)
                except CroupierError as exc:
                    conn.send(error_frame(exc, ref=ref))
                else:
                    if result is not None:
                        conn.send({"type": "ack", "ref": ref, "result": result})
                finally:
                    if not done.done():
                        done.set_result(None)

    async def _request(self, conn: Connection, message: ClientMessage) -> Frame | None:
        match message:
            case PingMessage():
                conn.send({"type": "pong", "ref": message.id, "seq": self.seq})
                return None
            case ResyncMessage(last_seq=last):
                self._resync(conn, last)
                return None
            case JoinMessage(seat=seat):
                return self._join(conn, seat)
            case LeaveMessage():
                return await self._leave_seat(conn)
            case BetMessage():
                return await self._bet(conn, message)
            case ActMessage():
                return await self._act(conn, message)
            case BuyInMessage() | SitOutMessage() | SitInMessage():
                return await self._seat_request(conn, message)
        raise IllegalActionError(f"unhandled message {message.type!r}")  # pragma: no cover

    # -- seats -------------------------------------------------------------------------------

    def _join(self, conn: Connection, wanted: int | None) -> Frame:
        if conn.user_id in self._seat_of:
            seat = self._seat_of[conn.user_id]
            if wanted is not None and wanted != seat:
                raise ConflictError(f"you already sit in seat {seat}; leave it first")
            return {"seat": seat}
        limit = self.factory.max_seats()
        if wanted is None:
            if limit is None:
                while self._next_live_seat in self._seats:
                    self._next_live_seat += 1
                wanted = self._next_live_seat
            else:
                free = [s for s in range(limit) if s not in self._seats]
                if not free:
                    raise ConflictError(f"the table is full ({limit} seats)")
                wanted = free[0]
        elif limit is not None and wanted >= limit:
            raise IllegalActionError(f"seat {wanted} does not exist: seats are 0..{limit - 1}")
        if wanted in self._seats:
            raise ConflictError(f"seat {wanted} is taken")
        self._seats[wanted] = _Occupant(conn.user_id, conn.username)
        self._seat_of[conn.user_id] = wanted
        self._emit({"kind": "seated", "seat": wanted, "username": conn.username})
        self._send_state_to(conn.user_id)
        return {"seat": wanted}

    def _leave(self, conn: Connection) -> Frame:
        seat = self._seat_of.get(conn.user_id)
        if seat is None:
            raise IllegalActionError("you are not seated at this table")
        if self.status in ("betting", "playing") and seat in self._round_users:
            raise IllegalActionError(
                f"seat {seat} has bets in round {self._round_id}: leave after it ends"
            )
        del self._seats[seat]
        del self._seat_of[conn.user_id]
        self._emit({"kind": "left", "seat": seat, "username": conn.username})
        self._send_state_to(conn.user_id)
        return {"seat": None}

    async def _leave_seat(self, conn: Connection) -> Frame:
        """Give a seat up (a cash-game table also cashes the stack out)."""
        return self._leave(conn)

    async def _seat_request(
        self, conn: Connection, message: BuyInMessage | SitOutMessage | SitInMessage
    ) -> Frame | None:
        """Buy-in and sitting out or in: only cash-game tables (Hold'em) take them."""
        raise IllegalActionError(
            f"{message.type} is for cash-game tables; a {self.factory.game} table takes bets"
        )

    async def _release_ghosts(self) -> None:
        """After a disconnect: free the seats nobody is connected to any more (a cash-game
        table also returns their chips to the wallet)."""
        self._free_ghost_seats()

    def _free_ghost_seats(self) -> None:
        """Free the seats of users with no connection left, unless they have bets in play
        (those keep their seat until the round ends: a reconnect resumes it)."""
        playing = self.status in ("betting", "playing")
        for seat, occupant in list(self._seats.items()):
            if occupant.user_id in self._by_user:
                continue
            if playing and self._round_users.get(seat) == occupant.user_id:
                continue
            del self._seats[seat]
            del self._seat_of[occupant.user_id]
            self._emit({"kind": "left", "seat": seat, "username": occupant.username})

    def _seat(self, conn: Connection) -> int:
        seat = self._seat_of.get(conn.user_id)
        if seat is None:
            raise IllegalActionError("take a seat first (join)")
        return seat

    # -- betting -----------------------------------------------------------------------------

    async def _bet(self, conn: Connection, message: BetMessage) -> Frame:
        seat = self._seat(conn)
        if self.status not in ("idle", "betting"):
            raise IllegalActionError(f"bets are closed: the table is {self.status}")
        bets = dict(message.bets)
        opening = self._round is None
        game_round = self.factory.new_round(self._shoe_factory()) if opening else self._round
        assert game_round is not None
        details = {"bets": bets, "seat": seat}
        if not opening and self._round_users.get(seat) == conn.user_id:
            # A resend of the bet already taken is answered from its idempotency record;
            # any other second bet in the same round is refused, and nothing is held.
            move = await self._db_call(
                self._replay_fn(conn, message.key, game_round.bets_total(bets), details)
            )
            if move is None:
                raise IllegalActionError(f"seat {seat} has already bet in this round")
            return self._bet_ack(move, seat)
        total = game_round.check_bets(seat, bets)
        if opening:
            salt = new_salt()
            deck = deck_text(game_round_shoe(game_round))
            commitment = commit(salt=salt, deck=deck)
            round_id, move = await self._db_call(
                self._open_and_stake_fn(
                    conn, seat, message.key, total, details, salt, deck, commitment
                )
            )
            self._round, self._round_id = game_round, round_id
            self._commitment, self._salt, self._deck = commitment, salt, deck
            self._cursor = 0
            self._round_users = {}
            self.status = "betting"
            self._arm(self.config.betting_seconds)
            self._emit(
                {
                    "kind": "round_opened",
                    "round_id": round_id,
                    "commitment": commitment,
                    "betting_seconds": self.config.betting_seconds,
                }
            )
        else:
            move = await self._db_call(self._stake_fn(conn, seat, message.key, total, details))
            if move.replayed:
                return self._bet_ack(move, seat)
        game_round.place_bets(seat, bets)
        self._round_users[seat] = conn.user_id
        self._drain_engine()
        if set(self._seats) <= set(game_round.seats):
            await self._close_betting()
        else:
            self._send_state_to(conn.user_id)
        return self._bet_ack(move, seat)

    def _bet_ack(self, move: Any, seat: int) -> Frame:
        return {
            "round_id": self._round_id,
            "seat": seat,
            "staked": int(move.amount),
            "balance": int(move.balance),
            "replayed": bool(move.replayed),
        }

    def _stake_fn(
        self, conn: Connection, seat: int, key: str, total: int, details: Frame
    ) -> Callable[[], Any]:
        round_id = self._round_id
        assert round_id is not None

        def run() -> Any:
            with self._db.session() as session:
                return rounds.stake(
                    session,
                    round_id=round_id,
                    user_id=conn.user_id,
                    seat=seat,
                    amount=total,
                    idempotency_key=key,
                    details=details,
                )

        return run

    def _replay_fn(
        self, conn: Connection, key: str, total: int, details: Frame
    ) -> Callable[[], Any]:
        round_id = self._round_id
        assert round_id is not None

        def run() -> Any:
            with self._db.session() as session:
                return rounds.replayed_stake(
                    session,
                    round_id=round_id,
                    user_id=conn.user_id,
                    amount=total,
                    idempotency_key=key,
                    details=details,
                )

        return run

    def _open_and_stake_fn(
        self,
        conn: Connection,
        seat: int,
        key: str,
        total: int,
        details: Frame,
        salt: str,
        deck: str,
        commitment: str,
    ) -> Callable[[], tuple[int, Any]]:
        def run() -> tuple[int, Any]:
            with self._db.session() as session:
                row = rounds.open_round(
                    session,
                    table=self.config.name,
                    game=self.factory.game,
                    commitment=commitment,
                    salt=salt,
                    deck=deck,
                )
                move = rounds.stake(
                    session,
                    round_id=row.id,
                    user_id=conn.user_id,
                    seat=seat,
                    amount=total,
                    idempotency_key=key,
                    details=details,
                )
                return row.id, move

        return run

    async def _close_betting(self) -> None:
        game_round = self._round
        assert game_round is not None
        if not game_round.can_close_betting():  # pragma: no cover - a round opens with a bet
            await self._void("betting closed without bets")
            return
        try:
            game_round.close_betting()
        except Exception as exc:
            log.exception("close_betting failed at %s", self.config.name)
            await self._void(f"dealing failed: {exc}")
            return
        self.status = "playing"
        self._drain_engine()
        await self._after_engine(phase_before="betting")

    # -- decisions ---------------------------------------------------------------------------

    async def _act(self, conn: Connection, message: ActMessage) -> Frame:
        seat = self._seat(conn)
        if message.seat is not None and message.seat != seat:
            raise PermissionDeniedError(f"seat {message.seat} is not yours (you sit in {seat})")
        game_round = self._round
        if self.status != "playing" or game_round is None:
            raise IllegalActionError(f"no decisions now: the table is {self.status}")
        if self._round_users.get(seat) != conn.user_id:
            raise IllegalActionError(f"seat {seat} has no bets in this round")
        extra = game_round.check_act(seat, message)
        balance = None
        if extra:
            key = f"round:{self._round_id}:seat:{seat}:{game_round.phase}:{message.action}"
            details = {"play": extra, "seat": seat, "phase": game_round.phase}
            move = await self._db_call(self._stake_fn(conn, seat, key, extra, details))
            balance = int(move.balance)
        before, pending = game_round.phase, game_round.pending_seats
        try:
            game_round.act(seat, message)
        except CroupierError:
            raise
        except Exception as exc:
            log.exception("engine failed at %s", self.config.name)
            await self._void(f"engine malfunction: {exc}")
            return {"seat": seat, "action": message.action, "voided": True}
        self._drain_engine()
        await self._after_engine(phase_before=before, pending_before=pending, actor=conn.user_id)
        result: Frame = {"seat": seat, "action": message.action, "staked": extra}
        if balance is not None:
            result["balance"] = balance
        return result

    async def _on_timer(self) -> None:
        if self.status == "betting":
            await self._close_betting()
        elif self.status == "playing" and self._round is not None:
            game_round = self._round
            before = game_round.phase
            pending = game_round.pending_seats
            try:
                for seat in pending:
                    if seat in game_round.pending_seats:
                        game_round.apply_timeout(seat)
            except Exception as exc:
                log.exception("timeout failed at %s", self.config.name)
                await self._void(f"engine malfunction: {exc}")
                return
            self._drain_engine()
            await self._after_engine(phase_before=before, pending_before=pending)
        elif self.status == "pause":
            self._to_idle()

    async def _after_engine(
        self,
        *,
        phase_before: str,
        pending_before: tuple[int, ...] = (),
        actor: int | None = None,
    ) -> None:
        game_round = self._round
        assert game_round is not None
        if game_round.finished:
            await self._settle()
            return
        # A new phase, or seats that now have to decide (games where boxes decide one after
        # another, as in Russian Poker): a fresh timer for them.
        if game_round.phase != phase_before or not set(game_round.pending_seats) <= set(
            pending_before
        ):
            self._arm(self.config.decision_seconds)
            self._emit(
                {
                    "kind": "decisions_open",
                    "phase": game_round.phase,
                    "pending_seats": list(game_round.pending_seats),
                    "decision_seconds": self.config.decision_seconds,
                }
            )
            self._broadcast_state()
        elif actor is not None:
            self._send_state_to(actor)

    # -- closing -----------------------------------------------------------------------------

    async def _settle(self) -> None:
        game_round, round_id = self._round, self._round_id
        assert game_round is not None and round_id is not None
        returns_by_seat = game_round.returns()
        returns = {self._round_users[s]: amount for s, amount in returns_by_seat.items()}
        record = game_round.record(round_id)
        summary = game_round.summary()

        def run() -> None:
            with self._db.session() as session:
                rounds.settle_round(
                    session, round_id=round_id, returns=returns, record=record, summary=summary
                )

        try:
            await self._db_call(run)
        except Exception as exc:
            log.exception("settlement of round %s failed", round_id)
            await self._void(f"settlement failed: {exc}")
            return
        self._close_round("settled", summary=summary, returns=returns_by_seat)

    async def _void(self, reason: str) -> None:
        game_round, round_id = self._round, self._round_id
        assert game_round is not None and round_id is not None
        with contextlib.suppress(CroupierError):
            game_round.void(reason)
        self._drain_engine()
        record = game_round.record(round_id)

        def run() -> None:
            with self._db.session() as session:
                rounds.void_round(session, round_id=round_id, reason=reason, record=record)

        try:
            await self._db_call(run)
        except Exception:
            # The round stays open in the database: the next start voids it.
            log.exception("void of round %s failed; it will be voided at restart", round_id)
        self._close_round("voided", summary={"void": reason}, returns={})

    def _close_round(self, status: str, *, summary: Frame, returns: dict[int, int]) -> None:
        self._emit(
            {
                "kind": "round_closed",
                "round_id": self._round_id,
                "status": status,
                "summary": summary,
                "returns": {str(seat): amount for seat, amount in sorted(returns.items())},
                "reveal": {"commitment": self._commitment, "salt": self._salt, "deck": self._deck},
            }
        )
        self.rounds_played += 1
        if self.config.pause_seconds > 0:
            self.status = "pause"
            self._arm(self.config.pause_seconds)
            self._broadcast_state()
        else:
            self._to_idle()

    def _to_idle(self) -> None:
        self._round = None
        self._round_id = None
        self._commitment = None
        self._salt = self._deck = ""
        self._round_users = {}
        self._deadline = None
        self._timer_generation += 1
        self.status = "idle"
        self._emit({"kind": "table_idle"})
        self._free_ghost_seats()
        self._broadcast_state()

    async def _shutdown(self, reason: str) -> None:
        if self._round is not None and self.status in ("betting", "playing"):
            await self._void(reason)
        if self._timer_task is not None:
            self._timer_task.cancel()
        for conn in list(self._conns):
            conn.send({"type": "closing", "reason": reason})
            conn.outbox.put_nowait(None)
        self._conns.clear()

    # -- timers ------------------------------------------------------------------------------

    def _arm(self, seconds: float) -> None:
        self._timer_generation += 1
        generation = self._timer_generation
        deadline = self._deadline = self._clock.now() + seconds
        if self._timer_task is not None:
            self._timer_task.cancel()

        async def fire() -> None:
            # Measured from the deadline fixed now, not from when this task first runs.
            await self._clock.sleep(deadline - self._clock.now())
            await self._inbox.put(_Timer(generation))

        self._timer_task = asyncio.create_task(fire())

    # -- frames ------------------------------------------------------------------------------

    def _drain_engine(self) -> None:
        game_round = self._round
        if game_round is None:
            return
        events = game_round.events_since(self._cursor)
        self._cursor += len(events)
        for event in events:
            self.seq += 1
            public = game_round.project_event(event, None)
            self._log.append(_Logged(self.seq, self._round_id, public, event))
            public_frame = self._event_frame(self.seq, public)
            everyone = game_round.visible_to_all(event)
            for conn in self._conns:
                seat = self._seat_of.get(conn.user_id)
                if everyone or seat is None:
                    conn.send(public_frame)
                else:
                    conn.send(self._event_frame(self.seq, game_round.project_event(event, seat)))

    def _emit(self, data: Frame) -> None:
        self.seq += 1
        self._log.append(_Logged(self.seq, self._round_id, data))
        frame = self._event_frame(self.seq, data)
        for conn in self._conns:
            conn.send(frame)

    def _event_frame(self, seq: int, data: Frame) -> Frame:
        return {"type": "event", "seq": seq, "table": self.config.name, "event": data}

    def _welcome(self, conn: Connection) -> Frame:
        return {
            "type": "welcome",
            "v": PROTOCOL_VERSION,
            "table": self.describe(),
            "user": {"id": conn.user_id, "username": conn.username},
            "seat": self._seat_of.get(conn.user_id),
            "seq": self.seq,
        }

    def _state(self, conn: Connection) -> Frame:
        seat = self._seat_of.get(conn.user_id)
        game_round = self._round
        remaining = None
        if self._deadline is not None and self.status != "idle":
            remaining = max(0.0, round(self._deadline - self._clock.now(), 3))
        limit = self.factory.max_seats()
        table: Frame = {
            "name": self.config.name,
            "status": self.status,
            "round_id": self._round_id,
            "commitment": self._commitment,
            "deadline_in": remaining,
            "seats_taken": len(self._seats),
            "your_seat": seat,
        }
        if limit is not None:
            table["seats"] = [
                {"seat": s, "username": o.username} for s, o in sorted(self._seats.items())
            ]
        view = None
        if game_round is not None:
            in_round = seat is not None and self._round_users.get(seat) == conn.user_id
            view = game_round.view(seat if in_round else None)
        return {"type": "state", "seq": self.seq, "table": table, "view": view}

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
        if complete:
            for entry in missed:
                data = entry.data
                if (
                    entry.engine_event is not None
                    and game_round is not None
                    and entry.round_id == self._round_id
                    and seat is not None
                    and self._round_users.get(seat) == conn.user_id
                ):
                    data = game_round.project_event(entry.engine_event, seat)
                conn.send(self._event_frame(entry.seq, data))
        conn.send({**self._state(conn), "resynced": True, "complete": complete})

    async def _db_call(self, fn: Callable[[], Any]) -> Any:
        return await asyncio.to_thread(fn)
