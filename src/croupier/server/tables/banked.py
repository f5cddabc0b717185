"""The driver of a table against the house (UTH, Russian Poker): :class:`BankedDriver`.

A round's life (issue 5; spec/uth.md):

1. *idle*: the first valid bet shuffles a shoe from the OS CSPRNG, commits to it (SHA-256
   with a fresh salt) and opens the round in the database together with that bet's hold, in
   one transaction. ``round_opened`` publishes the commitment before any card is dealt. (A
   cluster's table records its next round as soon as it is idle: :mod:`.nextround`.)
2. *betting*: bets are held in escrow as they are accepted; betting closes when the timer
   runs out or every seated player has bet.
3. *playing*: each decision phase has a timer; seats that have not acted by then get the
   game's default (UTH: check, or fold on the river). A Play bet holds more money first.
4. the result is recorded and escrow paid out in one transaction; ``round_closed`` reveals
   the salt and deck. A round the engine or the database cannot finish is voided: every
   stake back. One interrupted by a crash stays open in the database and is voided at the
   next start (:func:`croupier.server.rounds.store.recover_open_rounds`).

Money has one place: the table's escrow (:mod:`.escrow`; a cluster's table's is windowed,
its gateways holding stakes themselves) opens the round with its first stakes, holds the
bets (or the decisions) a table takes together -- a live table's inbox holds many -- in one
database transaction, each still with its own ledger transaction, idempotency record,
acknowledgement or error (a lone request is a batch of one), verifies a gateway's prepaid
holds, returns what the table refused, settles and voids. The driver keeps the round's life:
a typed action, its stake through the escrow, the engine, the broadcast. Its decisions are
its part :class:`.decisions.Decisions`.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any, Literal

from croupier.errors import CroupierError, IllegalActionError
from croupier.server.errors import IdempotencyConflict
from croupier.server.rounds import store as rounds
from croupier.server.tables import nextround, stakes
from croupier.server.tables.connection import Connection, Request
from croupier.server.tables.core import TableStatus
from croupier.server.tables.decisions import Decisions, let_answers_out
from croupier.server.tables.driver import Parts
from croupier.server.tables.games import BankedFactory, BankedRound
from croupier.server.tables.gateway_bets import GatewayBets
from croupier.server.tables.nextround import NextRound
from croupier.server.tables.staking import bet_ack, returned_hold, stake_order
from croupier.server.tables.turns import Turns
from croupier.server.tables.voiding import SETTLEMENT_FAILED, void_or_retry
from croupier.server.tables.wire import (
    BetMessage,
    BuyInMessage,
    DecisionsOpen,
    LeaveMessage,
    Result,
    Reveal,
    RoundOpened,
    SitInMessage,
    SitOutMessage,
    Spots,
    TableIdle,
    TableState,
    read_spots,
    round_closed,
)

__all__ = ["BankedDriver"]

log = logging.getLogger(__name__)

Bet = tuple[Request, int, Spots]
"""A bet from a seat: its request, the seat, its spots (decoded once, at the frame)."""
Held = tuple[Request, int, Spots, rounds.Stake]
"""A bet the game took, with its stake."""
Refused = tuple[Request, int, CroupierError]
"""A bet from a seat that this round cannot take, and why (unless it is a resend)."""


def _stake(request: Request, seat: int, amount: int) -> rounds.Stake:
    """The stake of ``request``'s bet from ``seat`` (:func:`.staking.stake_order`)."""
    bet = request.message
    assert isinstance(bet, BetMessage)
    return stake_order(request.conn.user_id, seat=seat, amount=amount, key=bet.key, bets=bet.bets)


class BankedDriver:
    """Plays the rounds of a table against the house."""

    def __init__(self, parts: Parts) -> None:
        self.core, self.out, self.seats = parts.core, parts.out, parts.seats
        self.escrow = parts.escrow
        """The round's money (:mod:`.escrow`)."""
        self.factory: BankedFactory = parts.core.factory  # type: ignore[assignment]
        self.round: BankedRound | None = None
        """The round in play (the core's, typed as a round against the house)."""
        self.next = nextround.NextRounds(parts.core, self.factory, parts.escrow.windowed)
        """A cluster's next round, recorded for the gateways' holds (:mod:`.nextround`)."""
        self.turns = Turns(self.factory.decision_word)
        self.decisions = Decisions(parts, self.turns, self)
        self.gateway_bets = GatewayBets(self)
        """Bets whose stakes a cluster's gateway held (:mod:`.gateway_bets`)."""
        self.out.extras = self._table_extras

    def _table_extras(self, table: TableState) -> None:
        """What ``state`` adds for a seat: the id of the decision it is asked for now."""
        decision = self.turns.current(table.your_seat)
        if decision is not None:
            table.decision = str(decision)

    async def start(self) -> None:
        await self.next.prepare(in_play=False)

    async def play_ready(self) -> None:
        """The next round recorded is in play: its first bet (a gateway's hold) is placed now.

        Raises:
            CroupierError: its deck could not be recorded; the round is voided.
        """
        ready, game_round, opening = await self.next.play()
        self.begin(game_round, ready.round_id, opening, ready)

    # -- seat policy (.seats) ----------------------------------------------------------

    def seat_minimum(self) -> int:
        """A new seat needs the table's least bet in the wallet."""
        return int(self.factory.min_stake())

    def idle_candidates(self) -> list[int]:
        return sorted(self.core.seats)

    async def free_idle(self, seats: Sequence[int]) -> None:
        for seat in seats:
            occupant = self.core.seats.get(seat)
            if occupant is not None:
                self.seats.unseat_idle(seat, occupant)

    async def seat_request(
        self, conn: Connection, message: BuyInMessage | SitOutMessage | SitInMessage
    ) -> Result | None:
        """Buy-in and sitting out or in: only cash-game tables (Hold'em) take them."""
        raise IllegalActionError(
            f"{message.type} is for cash-game tables; a {self.factory.game} table takes bets",
            reason="cash_game_only",
        )

    async def leave(self, conn: Connection, message: LeaveMessage) -> Result:
        return self.seats.leave(conn)

    async def release_ghosts(self, user_id: int) -> None:
        self.seats.free_ghost_seats([user_id])

    async def reconfigured(self) -> None:
        """New rules, or the table closed or opened. The next round a cluster's idle table
        recorded is the round the new rules apply from (docs/protocol.md "Operator"): it
        takes them, and the bets the gateways hold for it are checked against them as they
        come (found by red-teaming: voiding it refused, as "bets closed", a bet on its way
        that fit both). Closed, the table plays it not: voided, every stake back. An idle
        open table without one records one."""
        if self.core.closed:
            await self.next.drop("the table was closed")
        else:
            self.next.renew()
        await self.next.prepare(
            in_play=self.round is not None or self.core.status is not TableStatus.IDLE
        )

    async def gateway_lost(self) -> None:
        await self.next.gateway_lost(in_play=self.round is not None)

    async def unclaimed_holds(self) -> None:
        await self.next.unclaimed(in_play=self.round is not None)

    # -- decisions (:mod:`.decisions`) ---------------------------------------------------

    async def acts(self, requests: list[Request]) -> None:
        await self.decisions.acts(requests)

    # -- betting -----------------------------------------------------------------------

    async def bets(self, requests: list[Request]) -> None:
        """Bets, one path: a lone bet is a batch of one (a live table's inbox holds many).

        The stakes are held in one transaction (with the round they open), each with its own
        ledger transaction, idempotency record and answer. A resend from a seat that has bet
        is answered from its record; a new bet from it goes on only where the game lets a seat
        add to its bets (UTH: Trips, seed 001), else ``check_bets`` refuses it, nothing held.
        A second bet from one seat in the batch is handled after it, as a batch of its own."""
        core = self.core
        prepaid = [r for r in requests if r.prepaid is not None]
        if prepaid:
            await self.gateway_bets.place(prepaid)
            requests = [r for r in requests if r.prepaid is None]
        later: list[Request] = []
        seats: list[Bet] = []
        closed: list[Refused] = []
        betting: set[int] = set()  # the seats in ``seats`` (a thousand at a live table)
        for request in requests:
            message = request.message
            assert isinstance(message, BetMessage)
            try:
                seat = self.seats.seat(request.conn)
            except CroupierError as exc:
                # Not seated: unless a bet taken before, resent after a lost ack from a seat
                # freed since its connection dropped (the seat it had, found with it).
                closed.append((request, rounds.ANY_SEAT, exc))
                continue
            try:
                spots = read_spots(message.bets, self.factory.spots)
            except CroupierError as exc:
                self.out.refuse(request, exc)
                continue
            try:
                self.seats.check_open()
                if core.status not in ("idle", "betting"):
                    raise IllegalActionError(
                        f"bets are closed: the table is {core.status}", reason="bets_closed"
                    )
            except CroupierError as exc:
                closed.append((request, seat, exc))  # unless it is a bet taken, resent
                continue
            if seat in betting:
                later.append(request)
            else:
                betting.add(seat)
                seats.append((request, seat, spots))
        if seats:
            opening = self.round is None
            if self.round is not None:
                salt, game_round = core.salt, self.round
            elif (ready := self.next.ready) is not None:  # a cluster's round recorded before
                game_round, salt = ready.shuffled(core, self.factory), ready.salt
            else:
                salt, game_round = nextround.shuffle(core, self.factory)
            fresh = await self._not_resent(game_round, seats)
            held = self._checked_bets(game_round, fresh, closed)
            if held:
                lone = len(requests) == 1
                await self._hold_bets(game_round, held, salt=salt if opening else None, lone=lone)
        if closed:
            await self._earlier(closed)
        if later:
            await self.bets(later)

    async def _earlier(self, refused: list[Refused]) -> None:
        """Bets this round cannot take -- its betting closed, the table closed, the key taken
        before, or the player seated nowhere now -- each answered its first answer again
        (``replayed``, with the round it was taken in) where it is a bet taken before and
        resent (its ack lost in the deal's burst, a client retrying late from a seat freed
        since: docs/protocol.md "Idempotency"); refused ``idempotency_conflict`` where its key
        is another bet's, ``round_voided`` where its round was voided since; else refused why
        the round cannot take it."""
        found = await self.escrow.earlier([_stake(r, seat, 0) for r, seat, _ in refused])
        for (request, _, exc), answer in zip(refused, found, strict=True):
            if answer is None:
                self.out.refuse(request, exc)
            elif isinstance(answer, CroupierError):
                # the key is another bet's, wherever it is; or its round was voided since
                self.out.refuse(request, answer)
            else:
                round_id, seat, move = answer
                self.out.answer(request, bet_ack(move, round_id=round_id, seat=seat))

    async def _not_resent(self, game_round: BankedRound, seats: list[Bet]) -> list[Bet]:
        """The bets that are not resends: a resend (same key, same bet, from a seat that has
        bet) is answered from its idempotency record, a key conflict refused."""
        core = self.core
        fresh: list[Bet] = []
        resent: list[Bet] = []
        for bet in seats:
            request, seat, _ = bet
            has_bet = self.round is not None and core.in_round(seat, request.conn.user_id)
            (resent if has_bet else fresh).append(bet)
        if not resent:
            return fresh
        asked: list[Bet] = []
        looked: list[rounds.Stake] = []
        for request, seat, spots in resent:
            try:
                amount = game_round.bets_total(spots)
            except CroupierError as exc:
                self.out.refuse(request, exc)
                continue
            asked.append((request, seat, spots))
            looked.append(_stake(request, seat, amount))
        found = await self.escrow.replayed(looked)
        conflicts: list[Refused] = []
        for (request, seat, spots), answer in zip(asked, found, strict=True):
            if answer is None:
                fresh.append((request, seat, spots))
            elif isinstance(answer, IdempotencyConflict):
                conflicts.append((request, seat, answer))
            elif isinstance(answer, CroupierError):
                self.out.refuse(request, answer)
            else:
                self.out.answer(request, bet_ack(answer, round_id=core.round_id, seat=seat))
        if conflicts:
            await self._earlier(conflicts)
        return fresh

    def _checked_bets(
        self, game_round: BankedRound, fresh: list[Bet], refused: list[Refused]
    ) -> list[Held]:
        """The bets the game takes, each with its stake; the others added to ``refused``
        (unless taken before: an add-on such as UTH's Trips resent after its round closed,
        which the round now refuses for want of an Ante)."""
        held = []
        for request, seat, spots in fresh:
            try:
                total = game_round.check_bets(seat, spots)
            except CroupierError as exc:
                refused.append((request, seat, exc))
                continue
            held.append((request, seat, spots, _stake(request, seat, total)))
        return held

    async def _hold_bets(
        self, game_round: BankedRound, held: list[Held], *, salt: str | None, lone: bool
    ) -> None:
        """Hold the stakes (opening the round with them when ``salt`` is given), place the
        bets taken, answer each, and close betting once every seat has bet. A lone bet is
        answered after what it set off (the deal); bets taken together first, each after its
        seat's new state, so that no answer waits for the whole table's deal."""
        batch = [stake for _, _, _, stake in held]
        if salt is not None:
            answers = await self._open_round(game_round, salt, batch)
        else:
            answers = await self.escrow.hold(batch)
        acks = await self._place_bets(game_round, held, answers)
        if acks is None or self.round is None:
            return  # voided, or every bet refused: no round was opened
        await self.answer_bets(acks, lone=lone)

    async def _place_bets(
        self, game_round: BankedRound, held: list[Held], answers: list[Any]
    ) -> list[tuple[Request, Result]] | None:
        """Place each bet whose stake was held; the answers to give (``None``: the round was
        voided, and every request answered so)."""
        core, escrow = self.core, self.escrow
        acks: list[tuple[Request, Result]] = []
        conflicts: list[Refused] = []
        for (request, seat, spots, _), answer in zip(held, answers, strict=True):
            if isinstance(answer, IdempotencyConflict):
                conflicts.append((request, seat, answer))  # a bet of a round before, resent?
                continue
            if isinstance(answer, CroupierError):
                self.out.refuse(request, answer)
                continue
            if answer.replayed and escrow.returned(answer.transaction_id):
                # Its key's hold was a gateway's, refused and returned (issue 18): no bet.
                self.out.refuse(request, returned_hold(answer.transaction_id))
                continue
            if answer.replayed and escrow.kept(answer.transaction_id):
                self.out.answer(request, bet_ack(answer, round_id=core.round_id, seat=seat))
                continue
            # A fresh stake, or one held before under this key for this round but never
            # placed (a gateway's hold whose message never came, issue 18): placed now.
            escrow.keep(answer.transaction_id)
            try:
                game_round.place_bets(seat, spots)
            except Exception as exc:
                await self.bets_malfunction(exc, [other for other, _, _, _ in held])
                return None
            core.round_users[seat] = request.conn.user_id
            acks.append((request, bet_ack(answer, round_id=core.round_id, seat=seat)))
        if conflicts:
            await self._earlier(conflicts)
        return acks

    async def _open_round(
        self, game_round: BankedRound, salt: str, batch: list[rounds.Stake]
    ) -> list[Any]:
        """Open the round with its first stakes; each stake's answer (every one a refusal,
        and no round opened, when none was taken). A cluster's round prepared is in play
        from its first stake taken."""
        core = self.core
        ready = self.next.ready
        ready = ready if ready is not None and ready.game_round is game_round else None
        opening = nextround.opening(core, self.factory, game_round, salt)
        recorded = ready.round_id if ready else None
        round_id, answers = await self.escrow.open(opening, batch, recorded=recorded)
        if round_id is not None:
            self.begin(game_round, round_id, opening, ready)
        return answers

    def begin(
        self,
        game_round: BankedRound,
        round_id: int,
        opening: stakes.Opening,
        ready: NextRound | None = None,
    ) -> None:
        """Round ``round_id`` (``ready``, a cluster's, recorded before), its deck recorded,
        is in play: betting is open."""
        core = self.core
        self.round = game_round
        self.turns.begin(round_id)
        core.begin_round(game_round, round_id=round_id, users={}, **opening.recorded())
        self.escrow.begin(returned=ready.released if ready is not None else ())
        if ready is not None:
            self.next.ready = None
        core.status = TableStatus.BETTING
        core.arm(core.config.betting_seconds)
        self.out.emit(
            RoundOpened(
                round_id=round_id,
                commitment=opening.commitment,
                betting_seconds=core.config.betting_seconds,
            )
        )

    def _everyone_bet(self) -> bool:
        core = self.core
        return len(core.round_users) >= len(core.seats) and all(
            seat in core.round_users for seat in core.seats
        )

    async def answer_bets(self, acks: list[tuple[Request, Result]], *, lone: bool) -> None:
        """Answer the bets placed, closing betting once every seat has bet (as
        :meth:`_hold_bets` does)."""
        self.out.drain_engine()
        closing = self._everyone_bet()
        if closing and lone:
            await self._close_betting()
        for request, ack in acks:
            if not (closing and lone):
                self.out.acted(request.conn.user_id)
            self.out.answer(request, ack)
        if closing and not lone:
            await let_answers_out()
            await self._close_betting()

    async def _close_betting(self) -> None:
        game_round = self.round
        assert game_round is not None
        if not game_round.can_close_betting():  # pragma: no cover - a round opens with a bet
            await self.void("betting closed without bets")
            return
        # A live table's close is the move to its first decision phase (below).
        if not self.core.crowd and not await self.move_window(None):
            return
        try:
            game_round.close_betting()
        except Exception as exc:
            log.exception("close_betting failed at %s", self.core.name)
            await self.void(f"dealing failed: {exc}")
            return
        self.core.status = TableStatus.PLAYING
        # The window moves before the deal is told: whoever sees betting closed sees the
        # stakes of bets never placed returned.
        first = None if game_round.finished else game_round.phase
        if self.core.crowd and not await self.move_window(first):
            return
        self.out.drain_engine()
        await self.after_engine(phase_before="betting")

    async def bets_malfunction(self, exc: Exception, requests: list[Request]) -> None:
        """A bet checked, its stake held, that the engine then refused to place: the engine
        is broken. Void the round (every stake back) and say so to the bets not answered."""
        log.exception("place_bets failed at %s", self.core.name, exc_info=exc)
        await self.void(f"engine malfunction: {exc}")
        voided = IllegalActionError("the round was voided: every bet returned")
        for other in requests:
            if not other.done.done():
                self.out.refuse(other, voided)

    async def on_timer(self) -> None:
        core = self.core
        if core.status is TableStatus.BETTING:
            await self._close_betting()
        elif core.status is TableStatus.PLAYING and self.round is not None:
            game_round = self.round
            before = game_round.phase
            pending = game_round.pending_seats
            try:
                for seat in pending:
                    if seat in game_round.pending_seats:
                        game_round.apply_timeout(seat)
            except Exception as exc:
                log.exception("timeout failed at %s", core.name)
                await self.void(f"engine malfunction: {exc}")
                return
            self.turns.close(pending)  # their turns have passed
            self.out.drain_engine()
            # The timer is spent: a seat still to decide (a Russian seat's next open box)
            # gets a window of its own, as a seat newly to decide does.
            await self.after_engine(phase_before=before, pending_before=())
        elif core.status is TableStatus.PAUSE:
            await self._to_idle()
        elif core.status is TableStatus.IDLE:
            await self.seats.idle_window()

    async def after_engine(
        self,
        *,
        phase_before: str,
        pending_before: tuple[int, ...] = (),
        actors: Sequence[int] = (),
    ) -> None:
        core = self.core
        game_round = self.round
        assert game_round is not None
        if game_round.finished:
            await self._settle()
            return
        # A new phase, or turns that now have to be taken (seats; boxes where they decide
        # one after another, as in Russian Poker): a fresh timer for them.
        if game_round.phase != phase_before or not set(game_round.pending_turns) <= set(
            pending_before
        ):
            to_move = core.crowd and game_round.phase != self.escrow.decision_window
            if to_move and not await self.move_window(game_round.phase):
                return
            core.arm(core.config.decision_seconds)
            decision = str(self.turns.open(game_round.pending_seats))
            opened = DecisionsOpen(
                phase=game_round.phase,
                decision_seconds=core.config.decision_seconds,
                decision=decision,
            )
            if core.crowd:
                opened.pending = len(game_round.pending_seats)
                self.out.emit(opened)
                # Each seat to decide is told its actions; everyone else's view follows the
                # events (docs/protocol.md "Live tables").
                self.out.turns(
                    game_round.phase,
                    game_round.pending_seats,
                    game_round.legal,
                    game_round.turn_stakes,
                    decision=decision,
                )
            else:
                opened.pending_seats = list(game_round.pending_seats)
                self.out.emit(opened)
                self.out.broadcast_state()
        else:
            for actor in actors:
                self.out.acted(actor)

    # -- closing -----------------------------------------------------------------------

    async def _settle(self) -> None:
        core = self.core
        game_round, round_id = self.round, core.round_id
        assert game_round is not None and round_id is not None
        returns_by_seat = game_round.returns()
        returns = {core.round_users[s]: amount for s, amount in returns_by_seat.items()}
        record = game_round.record(round_id)
        summary = game_round.summary()
        try:
            await self.escrow.settle(returns=returns, record=record, summary=summary)
        except Exception as exc:
            log.exception("settlement of round %s failed: %s", round_id, exc)
            await self.void(SETTLEMENT_FAILED)
            return
        await self._close_round("settled", summary=summary, returns=returns_by_seat)

    async def void(self, reason: str) -> None:
        core = self.core
        game_round, round_id = self.round, core.round_id
        assert game_round is not None and round_id is not None
        with contextlib.suppress(CroupierError):
            game_round.void(reason)
        self.out.drain_engine()
        record = game_round.record(round_id)
        await void_or_retry(
            core,
            f"round {round_id}",
            partial(self.escrow.void, round_id=round_id, reason=reason, record=record),
        )
        await self._close_round("voided", summary={"void": reason}, returns={})

    async def _close_round(
        self,
        status: Literal["settled", "voided"],
        *,
        summary: Mapping[str, Any],
        returns: dict[int, int],
    ) -> None:
        core = self.core
        self.turns.end()
        reveal = Reveal(commitment=core.commitment, salt=core.salt, deck=core.deck)
        closed = round_closed(
            round_id=core.round_id,
            status=status,
            summary=summary,
            reveal=reveal,
            returns=returns,
            crowd=core.crowd,
            names={seat: occupant.username for seat, occupant in core.seats.items()},
        )
        self.out.emit(closed)
        core.rounds_played += 1
        self.seats.to_free = self.seats.count_round(set(core.round_users))
        if core.config.pause_seconds > 0:
            core.status = TableStatus.PAUSE
            core.arm(core.config.pause_seconds)
            if not core.crowd:
                # A live table's clients pause on ``round_closed`` (docs/protocol.md "Live
                # tables"): no view built and encoded for each of a thousand connections.
                self.out.broadcast_state()
        else:
            await self._to_idle()

    async def _to_idle(self) -> None:
        core = self.core
        self.round = None
        self.turns.end()
        self.escrow.end()
        core.end_round()
        core.status = TableStatus.IDLE
        await self.next.prepare(in_play=False)  # before ``table_idle``, for the first bets
        self.out.emit(TableIdle())
        self.seats.free_ghost_seats()
        self.seats.free_counted()
        if not core.crowd:
            self.out.broadcast_state()
        self.seats.arm_idle()

    async def move_window(self, phase: str | None) -> bool:
        """Betting, or a decision phase, closed in the escrow and decision phase ``phase``
        open (``None``: none; a cluster's gateways then hold its stakes: :mod:`.escrow`).
        ``False``: that failed, and the round was voided (every stake back)."""
        try:
            await self.escrow.move_window(phase)
        except Exception as exc:
            log.exception("moving the window to %s at %s failed", phase, self.core.name)
            await self.void(f"closing the window of bets or decisions failed: {exc}")
            return False
        return True

    async def shutdown(self, reason: str) -> None:
        self.next.stopping = True
        if self.round is not None and self.core.status in (
            TableStatus.BETTING,
            TableStatus.PLAYING,
        ):
            await self.void(reason)
        await self.next.drop(reason)
