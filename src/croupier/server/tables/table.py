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

A live table (no seat limit: hundreds of players on one dealer hand, spec/uth.md "Table") is
built to stay interactive with a thousand players:

- the commands waiting in the inbox are taken together, and the bets (or the decisions) among
  them are staked in one database transaction (:func:`rounds.stake_many`), each still with its
  own ledger transaction, idempotency record, acknowledgement or error;
- what concerns one seat alone (its bets, its decisions, its result, its sitting down) goes to
  that seat only, as a ``seat_event`` frame outside the table's ``seq``; everyone gets the
  table-wide events, with lists of every seat replaced by counts, and a ``tally`` event (seats
  taken, boxes in play, decisions pending) at most every :data:`TALLY_SECONDS`. So each
  player receives a few dozen frames a round, not a few thousand.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Literal

from croupier.deck import Shoe
from croupier.errors import CroupierError, IllegalActionError
from croupier.server.db import Database
from croupier.server.errors import PermissionDeniedError
from croupier.server.tables import rounds, stakes
from croupier.server.tables.clock import Clock
from croupier.server.tables.config import TableConfig
from croupier.server.tables.connection import (
    Command,
    Connect,
    Connection,
    Disconnect,
    Request,
    Stop,
    Tick,
    Timer,
)
from croupier.server.tables.fairness import commit, deck_text, new_salt
from croupier.server.tables.frames import TALLY_SECONDS
from croupier.server.tables.games import GameFactory, GameRound, game_round_shoe
from croupier.server.tables.protocol import (
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
from croupier.server.tables.seats import SeatRules
from croupier.server.tables.staking import bet_ack, bet_message, bet_stake, decision_stake
from croupier.server.tables.wire import (
    Ack,
    Closing,
    DecisionsOpen,
    Left,
    Pong,
    Result,
    Reveal,
    RoundOpened,
    TableIdle,
    error_frame,
    round_closed,
)

__all__ = ["TALLY_SECONDS", "Connection", "Table"]

log = logging.getLogger(__name__)

_BATCH = 4096
"""The most inbox commands taken together."""


class Table(SeatRules):
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
        super().__init__(config, factory, clock=clock, history=history)
        self._db = db
        self._shoe_factory = shoe_factory
        self._next_live_seat = 0
        self._salt = ""
        self._deck = ""
        self._task: asyncio.Task[None] | None = None
        self.rounds_played = 0

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
        await self._inbox.put(Stop(reason))
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        self._task = None

    def connect(self, *, user_id: int, username: str) -> Connection:
        conn = Connection(user_id=user_id, username=username)
        self._inbox.put_nowait(Connect(conn))
        return conn

    def disconnect(self, conn: Connection) -> None:
        conn.closed = True
        self._inbox.put_nowait(Disconnect(conn))

    async def submit(self, conn: Connection, message: ClientMessage) -> None:
        """Queue a request and wait until the table has answered it (ack or error frame)."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        await self._inbox.put(Request(conn, message, done))
        await done

    # -- the task --------------------------------------------------------------------------

    async def run(self) -> None:
        while True:
            batch = [await self._inbox.get()]
            while len(batch) < _BATCH and not self._inbox.empty():
                batch.append(self._inbox.get_nowait())
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
            group = [command]
            kind = type(command.message) if isinstance(command, Request) else None
            if self._crowd and kind in (BetMessage, ActMessage):
                while i + len(group) < len(batch):
                    after = batch[i + len(group)]
                    if not (isinstance(after, Request) and type(after.message) is kind):
                        break
                    group.append(after)
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
        self._tally()
        return False

    def _answer(self, request: Request, result: Result | None) -> None:
        if result is not None:
            request.conn.send(Ack(ref=request.message.id, result=result))
            self.metrics.answered(table=self.config.name, kind=request.message.type, ok=True)
        if not request.done.done():
            request.done.set_result(None)

    def _refuse(self, request: Request, exc: CroupierError) -> None:
        request.conn.send(error_frame(exc, ref=request.message.id))
        self.metrics.answered(table=self.config.name, kind=request.message.type, ok=False)
        if not request.done.done():
            request.done.set_result(None)

    async def _handle_group(self, group: Sequence[Command]) -> None:
        """One command, or requests of one kind taken together (bets, or decisions)."""
        requests = [c for c in group if isinstance(c, Request)]
        kind = type(requests[0].message) if requests else None
        if kind is BetMessage or kind is ActMessage:
            await (self._bets if kind is BetMessage else self._acts)(requests)
        else:
            await self._handle(group[0])

    async def _handle(self, command: Command) -> None:
        match command:
            case Connect(conn):
                self._conns.add(conn)
                self._by_user.setdefault(conn.user_id, set()).add(conn)
                conn.send(self._welcome(conn))
                conn.send(self._state(conn))
            case Disconnect(conn):
                self._conns.discard(conn)
                mine = self._by_user.get(conn.user_id)
                if mine is not None:
                    mine.discard(conn)
                    if not mine:
                        del self._by_user[conn.user_id]
                await self._release_ghosts()
                conn.outbox.put_nowait(None)
            case Timer(generation):
                if generation == self._timer_generation:
                    await self._on_timer()
            case Tick():
                self._tally_task = None
            case Request(conn, message, done):
                try:
                    result = await self._request(conn, message)
                except CroupierError as exc:
                    self._refuse(command, exc)
                else:
                    self._answer(command, result)
                finally:
                    if not done.done():
                        done.set_result(None)

    async def _request(self, conn: Connection, message: ClientMessage) -> Result | None:
        match message:
            case PingMessage():
                conn.send(Pong(ref=message.id, seq=self.seq))
                return None
            case ResyncMessage(last_seq=last):
                self._resync(conn, last)
                return None
            case JoinMessage(seat=seat):
                await self._may_sit(conn)
                frame = self._join(conn, seat)
                self._arm_idle()
                return frame
            case LeaveMessage():
                return await self._leave_seat(conn, message)
            case BuyInMessage() | SitOutMessage() | SitInMessage():
                return await self._seat_request(conn, message)
        raise IllegalActionError(f"unhandled message {message.type!r}")  # pragma: no cover

    # -- seats -------------------------------------------------------------------------------

    async def _leave_seat(self, conn: Connection, message: LeaveMessage) -> Result:
        """Give a seat up (a cash-game table also cashes the stack out)."""
        return self._leave(conn)

    async def _seat_request(
        self, conn: Connection, message: BuyInMessage | SitOutMessage | SitInMessage
    ) -> Result | None:
        """Buy-in and sitting out or in: only cash-game tables (Hold'em) take them."""
        raise IllegalActionError(
            f"{message.type} is for cash-game tables; a {self.factory.game} table takes bets",
            reason="cash_game_only",
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
            self._announce(occupant.user_id, Left(seat=seat, username=occupant.username))

    def _seat(self, conn: Connection) -> int:
        seat = self._seat_of.get(conn.user_id)
        if seat is None:
            raise IllegalActionError("take a seat first (join)", reason="not_seated")
        return seat

    # -- betting -----------------------------------------------------------------------------

    async def _bets(self, requests: list[Request]) -> None:
        """Bets, one path: a lone bet is a batch of one (a live table's inbox holds many).

        The stakes are held in one transaction (with the round they open), each with its own
        ledger transaction, idempotency record and answer. A resend from a seat that has bet
        is answered from its record; a new bet from it goes on only where the game lets a seat
        add to its bets (UTH: Trips, seed 001), else ``check_bets`` refuses it, nothing held.
        A second bet from one seat in the batch is handled after it, as a batch of its own."""
        later: list[Request] = []
        seats: list[tuple[Request, int]] = []
        for request in requests:
            try:
                seat = self._seat(request.conn)
                if self.status not in ("idle", "betting"):
                    raise IllegalActionError(
                        f"bets are closed: the table is {self.status}", reason="bets_closed"
                    )
            except CroupierError as exc:
                self._refuse(request, exc)
                continue
            if any(seat == taken for _, taken in seats):
                later.append(request)
            else:
                seats.append((request, seat))
        if seats:
            opening = self._round is None
            salt = new_salt() if opening else self._salt
            game_round = (
                self.factory.new_round(self._shoe_factory(), salt=salt) if opening else self._round
            )
            assert game_round is not None
            fresh = await self._not_resent(game_round, seats)
            held = self._checked_bets(game_round, fresh)
            if held:
                lone = len(requests) == 1
                await self._hold_bets(game_round, held, salt=salt if opening else None, lone=lone)
        if later:
            await self._bets(later)

    async def _not_resent(
        self, game_round: GameRound, seats: list[tuple[Request, int]]
    ) -> list[tuple[Request, int]]:
        """The bets that are not resends: a resend (same key, same bet, from a seat that has
        bet) is answered from its idempotency record, a key conflict refused."""
        fresh: list[tuple[Request, int]] = []
        resent: list[tuple[Request, int]] = []
        for request, seat in seats:
            has_bet = (
                self._round is not None and self._round_users.get(seat) == request.conn.user_id
            )
            (resent if has_bet else fresh).append((request, seat))
        if not resent:
            return fresh
        asked: list[tuple[Request, int]] = []
        looked: list[rounds.Stake] = []
        for request, seat in resent:
            bets = dict(bet_message(request).bets)
            try:
                amount = game_round.bets_total(bets)
            except CroupierError as exc:
                self._refuse(request, exc)
                continue
            asked.append((request, seat))
            looked.append(bet_stake(request, seat, amount, bets))
        found = await self._db_call(
            stakes.replayed_stakes, self._db, round_id=self._round_id, stakes=looked
        )
        for (request, seat), answer in zip(asked, found, strict=True):
            if answer is None:
                fresh.append((request, seat))
            elif isinstance(answer, CroupierError):
                self._refuse(request, answer)
            else:
                self._answer(request, bet_ack(answer, round_id=self._round_id, seat=seat))
        return fresh

    def _checked_bets(
        self, game_round: GameRound, fresh: list[tuple[Request, int]]
    ) -> list[tuple[Request, int, dict[str, int], rounds.Stake]]:
        """The bets the game takes, each with its stake; the others refused."""
        held = []
        for request, seat in fresh:
            bets = dict(bet_message(request).bets)
            try:
                total = game_round.check_bets(seat, bets)
            except CroupierError as exc:
                self._refuse(request, exc)
                continue
            held.append((request, seat, bets, bet_stake(request, seat, total, bets)))
        return held

    async def _hold_bets(
        self,
        game_round: GameRound,
        held: list[tuple[Request, int, dict[str, int], rounds.Stake]],
        *,
        salt: str | None,
        lone: bool,
    ) -> None:
        """Hold the stakes (opening the round with them when ``salt`` is given), place the
        bets taken, answer each, and close betting once every seat has bet. A lone bet is
        answered after what it set off (the deal); bets taken together first, each after its
        seat's new state, so that no answer waits for the whole table's deal."""
        batch = [stake for _, _, _, stake in held]
        if salt is not None:
            answers = await self._open_round(game_round, salt, batch)
        else:
            answers = await self._stake_many(batch)
        acks: list[tuple[Request, Result]] = []
        for (request, seat, bets, _), answer in zip(held, answers, strict=True):
            if isinstance(answer, CroupierError):
                self._refuse(request, answer)
                continue
            if answer.replayed:
                self._answer(request, bet_ack(answer, round_id=self._round_id, seat=seat))
                continue
            try:
                game_round.place_bets(seat, bets)
            except Exception as exc:
                # Checked above, so the engine is broken: money is held for a bet it
                # refused. Void the round (every stake back) and say so.
                log.exception("place_bets failed at %s", self.config.name)
                await self._void(f"engine malfunction: {exc}")
                voided = IllegalActionError("the round was voided: every bet returned")
                for other, _, _, _ in held:
                    if not other.done.done():
                        self._refuse(other, voided)
                return
            self._round_users[seat] = request.conn.user_id
            acks.append((request, bet_ack(answer, round_id=self._round_id, seat=seat)))
        if self._round is None:
            return  # every bet refused: no round was opened
        self._drain_engine()
        closing = self._everyone_bet()
        if closing and lone:
            await self._close_betting()
        for request, ack in acks:
            if not (closing and lone):
                self._send_state_to(request.conn.user_id)
            self._answer(request, ack)
        if closing and not lone:
            await self._close_betting()

    async def _open_round(
        self, game_round: GameRound, salt: str, batch: list[rounds.Stake]
    ) -> list[Any]:
        """Open the round with its first stakes; each stake's answer (every one a refusal,
        and no round opened, when none was taken)."""
        deck = deck_text(game_round_shoe(game_round))
        commitment = commit(salt=salt, deck=deck)
        table, game = self.config.name, self.factory.game
        opening = stakes.Opening(
            table=table, game=game, commitment=commitment, salt=salt, deck=deck
        )
        round_id, answers = await self._db_call(
            stakes.open_and_stake, self._db, opening=opening, stakes=batch
        )
        if round_id is None:
            return list(answers)
        self._round, self._round_id = game_round, round_id
        self._commitment, self._salt, self._deck = commitment, salt, deck
        self._cursor = 0
        self._round_users = {}
        self.status = "betting"
        self._arm(self.config.betting_seconds)
        self._emit(
            RoundOpened(
                round_id=round_id,
                commitment=commitment,
                betting_seconds=self.config.betting_seconds,
            )
        )
        return list(answers)

    def _everyone_bet(self) -> bool:
        return len(self._round_users) >= len(self._seats) and all(
            seat in self._round_users for seat in self._seats
        )

    async def _stake_many(self, batch: list[rounds.Stake]) -> list[Any]:
        if not batch:
            return []
        return list(
            await self._db_call(stakes.stake_many, self._db, round_id=self._round_id, stakes=batch)
        )

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

    def _check_act(self, conn: Connection, message: ActMessage) -> tuple[int, GameRound, int]:
        """The seat deciding, its round and the extra stake the decision needs; or refused."""
        seat = self._seat(conn)
        if message.seat is not None and message.seat != seat:
            raise PermissionDeniedError(
                f"seat {message.seat} is not yours (you sit in {seat})", reason="not_your_seat"
            )
        game_round = self._round
        if self.status != "playing" or game_round is None:
            raise IllegalActionError(
                f"no decisions now: the table is {self.status}", reason="no_decisions_now"
            )
        if self._round_users.get(seat) != conn.user_id:
            raise IllegalActionError(
                f"seat {seat} has no bets in this round", reason="no_bets_this_round"
            )
        return seat, game_round, game_round.check_act(seat, message)

    async def _acts(self, requests: list[Request]) -> None:
        """Decisions, one path: a lone decision is a batch of one (at a live table seats
        decide together). The Play bets among them are staked in one transaction, then each
        decision applied in order and answered. A second decision from one seat is handled
        after it, as a batch of its own."""
        later: list[Request] = []
        valid: list[tuple[Request, ActMessage, int, int]] = []
        plays: list[rounds.Stake] = []
        game_round = self._round
        for request in requests:
            message = request.message
            assert isinstance(message, ActMessage)
            try:
                seat, game_round, extra = self._check_act(request.conn, message)
            except CroupierError as exc:
                self._refuse(request, exc)
                continue
            if any(seat == s for _, _, s, _ in valid):
                later.append(request)
                continue
            valid.append((request, message, seat, extra))
            if extra:
                phase, round_id = game_round.phase, self._round_id
                plays.append(
                    decision_stake(request, round_id=round_id, phase=phase, seat=seat, extra=extra)
                )
        if valid:
            assert game_round is not None
            answers = iter(await self._stake_many(plays))
            await self._apply_acts(game_round, valid, answers, lone=len(requests) == 1)
        if later:
            await self._acts(later)

    async def _apply_acts(
        self,
        game_round: GameRound,
        valid: list[tuple[Request, ActMessage, int, int]],
        answers: Iterator[Any],
        *,
        lone: bool,
    ) -> None:
        """Apply the checked decisions whose Play bets were held, answer them, and go on. A
        lone decision is answered after what it set off (the next phase, the settlement);
        decisions taken together first, each after its seat's new state."""
        before, pending = game_round.phase, game_round.pending_seats
        done: list[tuple[Request, Result]] = []
        for request, message, seat, extra in valid:
            result = Result(seat=seat, action=message.action, staked=extra)
            if extra:
                answer = next(answers)
                if isinstance(answer, CroupierError):
                    self._refuse(request, answer)
                    continue
                result.balance = int(answer.balance)
            try:
                game_round.act(seat, message)
            except Exception as exc:
                if isinstance(exc, CroupierError) and not extra:
                    self._refuse(request, exc)  # the engine refused it: nothing changed
                    continue
                # Checked above, so the engine is broken (or holds a Play bet for a decision
                # it refused): void the round, every stake back.
                log.exception("engine failed at %s", self.config.name)
                await self._void(f"engine malfunction: {exc}")
                for other, message_, seat_, _ in valid:
                    if not other.done.done():
                        self._answer(other, Result(seat=seat_, action=message_.action, voided=True))
                return
            done.append((request, result))
        self._drain_engine()
        if lone:
            actors = tuple(request.conn.user_id for request, _ in done)
            await self._after_engine(phase_before=before, pending_before=pending, actors=actors)
        for request, result in done:
            if not lone:
                self._send_state_to(request.conn.user_id)
            self._answer(request, result)
        if not lone:
            await self._after_engine(phase_before=before, pending_before=pending)

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
        elif self.status == "idle":
            await self._idle_window()

    async def _after_engine(
        self,
        *,
        phase_before: str,
        pending_before: tuple[int, ...] = (),
        actors: Sequence[int] = (),
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
            opened = DecisionsOpen(
                phase=game_round.phase, decision_seconds=self.config.decision_seconds
            )
            if self._crowd:
                opened.pending = len(game_round.pending_seats)
            else:
                opened.pending_seats = list(game_round.pending_seats)
            self._emit(opened)
            self._broadcast_state()
        else:
            for actor in actors:
                self._send_state_to(actor)

    # -- closing -----------------------------------------------------------------------------

    async def _settle(self) -> None:
        game_round, round_id = self._round, self._round_id
        assert game_round is not None and round_id is not None
        returns_by_seat = game_round.returns()
        returns = {self._round_users[s]: amount for s, amount in returns_by_seat.items()}
        record = game_round.record(round_id)
        summary = game_round.summary()

        try:
            await self._db_call(
                stakes.settle,
                self._db,
                round_id=round_id,
                returns=returns,
                record=record,
                summary=summary,
            )
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

        try:
            await self._db_call(
                stakes.void, self._db, round_id=round_id, reason=reason, record=record
            )
        except Exception:
            # The round stays open in the database: the next start voids it.
            log.exception("void of round %s failed; it will be voided at restart", round_id)
        self._close_round("voided", summary={"void": reason}, returns={})

    def _close_round(
        self,
        status: Literal["settled", "voided"],
        *,
        summary: Mapping[str, Any],
        returns: dict[int, int],
    ) -> None:
        reveal = Reveal(commitment=self._commitment, salt=self._salt, deck=self._deck)
        closed = round_closed(
            round_id=self._round_id,
            status=status,
            summary=summary,
            reveal=reveal,
            returns=returns,
            crowd=self._crowd,
            names={seat: occupant.username for seat, occupant in self._seats.items()},
        )
        self._emit(closed)
        self.rounds_played += 1
        self._to_free = self._count_round(set(self._round_users))
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
        self._emit(TableIdle())
        self._free_ghost_seats()
        self._free_counted()
        self._broadcast_state()
        self._arm_idle()

    async def _shutdown(self, reason: str) -> None:
        if self._round is not None and self.status in ("betting", "playing"):
            await self._void(reason)
        for task in (self._timer_task, self._tally_task):
            if task is not None:
                task.cancel()
        for conn in list(self._conns):
            conn.send(Closing(reason=reason))
            conn.outbox.put_nowait(None)
        self._conns.clear()
