"""The driver of a cash-game table (Hold'em): :class:`CashDriver`. Stacks are bought in from
the wallet and hands dealt continuously.

Money (issue 5, Wallet; :mod:`.cash_ledger`): each seated player's stack is a ledger account
of its own. Chips move between stacks only when a hand ends, in one ``settle`` transaction
written together with the hand's record. So a hand that never finishes -- voided by a
malfunction, or cut short by a crash -- has moved nothing: every stack is where it stood
before the hand (spec/uth.md "Faults", the malfunction rule, as issue 5 asks for Hold'em). At
the next start the open hand is voided (:func:`croupier.server.rounds.store.recover_open_rounds`,
the void recorded) and the table's first act is to return every stack account left by the
crash to its wallet.

A hand's life: when two or more seats have chips and are sitting in, the table shuffles a
shoe from the OS CSPRNG, publishes the commitment (``round_opened``), deals, and asks the
player to act (``turn``) with a timer; a seat that does not act in time checks, or folds.
The result is recorded (PHH text) and after ``pause_seconds`` the next hand starts with the
button moved one seat on. Before each hand the table's admission (issue 16) sits out the
players who may not play it and cashes out those who excluded themselves.

Fairness between players: the commitment published before the deal is to each card on its
own (:func:`croupier.server.tables.fairness.card_commitment`), because revealing the whole
deck afterwards would show everyone the cards of the players who folded. ``round_closed``
publishes the leaves with the openings of the cards everyone saw (the board and the burns
actually dealt, the hands shown at showdown); each player privately gets the openings of their
own hole cards (a ``seat_event`` ``cards_opened``). The cards left in the stub stay closed: 52
minus the opened cards minus your own would otherwise be the folded hands (issue 13). Nobody
learns a hand that was not shown; everybody can check every card they saw against the
commitment.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any, Literal

import msgspec
from msgspec import UNSET

from croupier.errors import CroupierError, IllegalActionError
from croupier.games.protocol import Action
from croupier.server.errors import RoundVoided
from croupier.server.rounds import store as rounds
from croupier.server.tables.cash_ledger import (
    WagersRefused,
    buy_in,
    cash_out,
    open_hand,
    recover_stacks,
    replayed_buy_in,
    settle_hand,
)
from croupier.server.tables.connection import Connection, Request
from croupier.server.tables.core import TableStatus
from croupier.server.tables.driver import Parts
from croupier.server.tables.fairness import (
    card_commitment,
    card_leaves,
    deck_text,
    new_salt,
    open_cards,
    positions_of,
)
from croupier.server.tables.games import CashFactory, CashRound
from croupier.server.tables.turns import Resent, Turns
from croupier.server.tables.voiding import SETTLEMENT_FAILED, void_or_retry
from croupier.server.tables.wire import (
    ActMessage,
    ActResult,
    BoughtIn,
    BuyInLimits,
    BuyInMessage,
    BuyInResult,
    CardsOpened,
    HandStarting,
    LeaveMessage,
    LeaveResult,
    LeavingResult,
    Left,
    NotDealtIn,
    RebuyOffered,
    Result,
    Reveal,
    RoundOpened,
    SatIn,
    SatOut,
    SeatEntry,
    SitInMessage,
    SitOutMessage,
    SitResult,
    TableIdle,
    TableState,
    TimedOut,
    Turn,
    round_closed,
)

__all__ = ["CashDriver"]

log = logging.getLogger(__name__)


class CashDriver:
    """Plays the hands of a cash table, with the stacks of its seats."""

    def __init__(self, parts: Parts) -> None:
        self.core, self.out, self.seats = parts.core, parts.out, parts.seats
        self.cash: CashFactory = parts.core.factory  # type: ignore[assignment]
        self.stacks: dict[int, int] = {}
        """seat -> chips at the table (equal to its stack account between hands)."""
        self._leaving: set[int] = set()
        """Seats that leave when the hand in play ends (``leave`` with ``after_hand``): kept
        here, so a player who closes the tab still leaves after the hand, and never before."""
        self._out: set[int] = set()
        """Seats sitting out."""
        self._button: int | None = None
        self._hand: CashRound | None = None
        self._closing = False
        self._sitting_keys: dict[int, set[str]] = {}
        """user id -> the buy-in keys of the chips at the table now (a resent key not among
        them funded a stack that has since gone back to the wallet)."""
        self._timed_out: set[int] = set()
        """Seats that timed out in the hand in play (a hand they let pass, issue 13)."""
        self.turns = Turns()
        """The decisions asked for, each turn's id, their first answers (:mod:`.turns`)."""
        self._bank: dict[int, float] = {}
        """seat -> seconds left in its time bank (``time_bank_seconds`` when it sat down)."""
        self._banking: tuple[int, float] | None = None
        """The seat drawing on its time bank in this turn, and the clock time it began."""
        self._busted: dict[int, float] = {}
        """seat -> clock time until which a seat a hand left without chips is kept for a
        rebuy (issue 29: offered a rebuy, not unseated)."""
        self.out.extras = self._table_extras

    async def start(self) -> None:
        """Return to the wallets the stacks a crash left at the table."""
        name = self.core.name
        try:
            returned = await self.core.in_session(recover_stacks, table=name)
        except Exception:  # pragma: no cover - the database is down at start
            log.exception("could not return the stacks left at %s", name)
        else:
            if returned:
                log.warning("returned stacks left at %s by a crash: %s", name, returned)

    def _in_hand(self, seat: int) -> bool:
        return self._hand is not None and seat in self.core.round_users

    # -- seat policy (.seats): a seat needs a buy-in's worth, and chips to play with -------

    def seat_minimum(self) -> int:
        return self.cash.min_buy_in

    def idle_candidates(self) -> list[int]:
        ready = set(self._ready())
        return sorted(s for s in self.core.seats if s not in ready)

    async def free_idle(self, seats: Sequence[int]) -> None:
        now = self.core.clock.now()
        for seat in seats:
            occupant = self.core.seats.get(seat)
            if occupant is None or self._in_hand(seat) or self._busted.get(seat, now) > now:
                continue  # a seat offered a rebuy is kept until the offer runs out
            reason = "busted" if seat in self._busted else "idle"
            try:
                await self._cash_out(seat, occupant.user_id, occupant.username, reason=reason)
            except Exception:
                log.exception("cash-out of idle seat %s at %s failed", seat, self.core.name)
                continue
            self.seats.idle.pop(seat, None)
            self.seats.wait_after_idle(occupant.user_id)

    # -- seats and money ---------------------------------------------------------------

    async def seat_request(
        self, conn: Connection, message: BuyInMessage | SitOutMessage | SitInMessage
    ) -> Result | None:
        try:
            seat = self.seats.seat(conn)
        except CroupierError as exc:
            if isinstance(message, BuyInMessage) and exc.reason == "not_seated":
                await self._buy_in_left(conn, message)  # a retry of one taken before: says so
            raise
        if isinstance(message, BuyInMessage):
            return await self._buy_in(conn, seat, message)
        out = isinstance(message, SitOutMessage)
        if (seat in self._out) == out:
            # Nothing changes: acknowledged, and nobody else hears of it (issue 13: a
            # repeated sit_out must not make every socket at the table busy).
            return SitResult(seat=seat, sitting_out=out)
        if out:
            self._out.add(seat)
            self.out.emit(SatOut(seat=seat))
            self.out.broadcast_state()
            self.seats.arm_idle()
            return SitResult(seat=seat, sitting_out=True)
        excluded = await self.core.db_call(
            self.core.admission.refused_seats, self.core.db, [conn.user_id]
        )
        if conn.user_id in excluded:
            # Excluded since sitting down: never back in (cashed out before the next hand).
            raise excluded[conn.user_id]
        self._out.discard(seat)
        self.out.emit(SatIn(seat=seat))
        self.out.broadcast_state()
        await self._maybe_start()
        return SitResult(seat=seat, sitting_out=False)

    def _check_buy_in(self, seat: int, amount: int) -> None:
        """Refuse a new buy-in the table does not take now.

        Raises:
            IllegalActionError: the table is closed, the seat is in the hand in play, or the
                stack would be outside the table's buy-in limits.
        """
        self.seats.check_open()
        if self._in_hand(seat):
            raise IllegalActionError(
                f"seat {seat} is in the hand in play: buy in after it",
                reason="buy_in_during_hand",
            )
        stack = self.stacks.get(seat, 0)
        total = stack + amount
        low, high = self.cash.min_buy_in, self.cash.max_buy_in
        if stack == 0 and amount < low:
            raise IllegalActionError(
                f"buy-in {amount} is below the table minimum {low}",
                reason="buy_in_below_min",
                params={"amount": amount, "min": low},
            )
        if total > high:
            raise IllegalActionError(
                f"buy-in {amount} would make the stack {total}, above the table maximum {high}",
                reason="buy_in_above_max",
                params={"amount": amount, "total": total, "max": high},
            )

    async def _buy_in(self, conn: Connection, seat: int, message: BuyInMessage) -> BuyInResult:
        core = self.core
        args = {"table": core.name, "user_id": conn.user_id, "amount": message.amount}
        replay = await core.in_session(replayed_buy_in, idempotency_key=message.key, **args)
        if replay is None:
            self._check_buy_in(seat, message.amount)
            move, stack = await core.in_session(
                buy_in, idempotency_key=message.key, check=core.admission.check_buy_in, **args
            )
            self._sitting_keys.setdefault(conn.user_id, set()).add(message.key)
            self.stacks[seat] = stack
            self._busted.pop(seat, None)
            self.out.emit(BoughtIn(seat=seat, amount=message.amount, stack=stack))
            self.out.broadcast_state()
            await self._maybe_start()
            balance = int(move.balance)
        else:
            move, _ = replay
            # A retry: answered with what is true now, not what was true then (issue 13).
            balance = await core.db_call(self.seats.wallet_balance, conn.user_id)
            if message.key not in self._sitting_keys.get(conn.user_id, ()):
                raise _gone_back(message.key, balance, self.stacks.get(seat, 0))
        return BuyInResult(
            seat=seat,
            amount=int(move.amount),
            stack=self.stacks.get(seat, 0),
            balance=balance,
            replayed=bool(move.replayed),
        )

    async def _buy_in_left(self, conn: Connection, message: BuyInMessage) -> None:
        """A buy-in from a player seated nowhere: if it is one taken before (a retry after
        a lost ack, the seat left since), its chips went back to the wallet -- said so.

        Raises:
            RoundVoided: it was taken before (``balance``, and ``stack`` 0).
        """
        core = self.core
        args = {"table": core.name, "user_id": conn.user_id, "amount": message.amount}
        replay = await core.in_session(replayed_buy_in, idempotency_key=message.key, **args)
        if replay is not None:
            balance = await core.db_call(self.seats.wallet_balance, conn.user_id)
            raise _gone_back(message.key, balance, 0)

    async def leave(self, conn: Connection, message: LeaveMessage) -> Result:
        seat = self.seats.seat(conn)
        if message.after_hand is not None and (self._in_hand(seat) or not message.after_hand):
            # Flagged on the server: it holds whatever the client does next.
            changed = (seat in self._leaving) != message.after_hand
            (self._leaving.add if message.after_hand else self._leaving.discard)(seat)
            if changed:
                self.out.broadcast_state()
            return LeavingResult(seat=seat, leaving=message.after_hand)
        if self._in_hand(seat):
            raise IllegalActionError(
                f"seat {seat} is in the hand in play: leave after it (sit_out skips the next)",
                reason="leave_during_hand",
            )
        amount, balance = await self._cash_out(seat, conn.user_id, conn.username)
        self.out.send_state_to(conn.user_id)
        return LeaveResult(seat=None, cashed_out=amount, balance=balance)

    async def _cash_out(
        self, seat: int, user_id: int, username: str, *, reason: str | None = None
    ) -> tuple[int, int]:
        amount, balance = await self.core.in_session(
            cash_out, table=self.core.name, user_id=user_id
        )
        self.seats.vacate(seat, user_id)
        self.stacks.pop(seat, None)
        self._out.discard(seat)
        self._leaving.discard(seat)
        self._sitting_keys.pop(user_id, None)
        self._busted.pop(seat, None)
        self._bank.pop(seat, None)
        left = Left(seat=seat, username=username, cashed_out=amount)
        if reason is not None:
            left.reason = reason
        self.out.emit(left)
        self.out.broadcast_state()
        return int(amount), int(balance)

    async def release_ghosts(self, user_id: int | None = None) -> None:
        """Seats with no hand in play whose player has no connection left or asked to leave
        after the hand: cash out, leave (every seat: ten at most, ``user_id``'s among them)."""
        for seat, occupant in list(self.core.seats.items()):
            staying = occupant.user_id in self.out.by_user and seat not in self._leaving
            if staying or self._in_hand(seat):
                continue
            try:
                await self._cash_out(seat, occupant.user_id, occupant.username)
            except Exception:
                # The chips stay in the stack account; the next start returns them.
                log.exception("cash-out of seat %s at %s failed", seat, self.core.name)

    async def bets(self, requests: list[Request]) -> None:
        for request in requests:
            self.out.refuse(
                request,
                IllegalActionError(
                    "a hold'em table takes no bets: buy_in, then act in turn",
                    reason="no_bets_cash_game",
                ),
            )

    async def reconfigured(self) -> None:
        if not self.core.closed:
            await self._maybe_start()

    async def gateway_lost(self) -> None:
        return None  # a cash table's buy-ins are its own (no gateway holds them)

    async def unclaimed_holds(self) -> None:
        return None

    # -- hands -------------------------------------------------------------------------

    def _ready(self) -> list[int]:
        return sorted(
            s for s in self.core.seats if self.stacks.get(s, 0) > 0 and s not in self._out
        )

    async def _maybe_start(self, *, wait: bool = True) -> None:
        """Deal the next hand if two or more seats are ready: after ``pause_seconds`` (so
        that others can sit down), or now when the pause is over (``wait=False``)."""
        core = self.core
        if (
            self._closing
            or core.closed
            or core.status is not TableStatus.IDLE
            or self._hand is not None
        ):
            return
        if len(self._ready()) < 2:
            return
        if wait and core.config.pause_seconds > 0:
            core.status = TableStatus.PAUSE
            core.arm(core.config.pause_seconds)
            self.out.emit(HandStarting(in_seconds=core.config.pause_seconds))
            self.out.broadcast_state()
            return
        if not await self._admitted(self._ready()):
            return
        ready = self._ready()
        prev = self._button
        # spec/holdem.md "Table": the button moves one seat clockwise after every hand.
        button = next((s for s in ready if prev is None or s > prev), ready[0])
        order = [s for s in ready if s > button] + [s for s in ready if s < button] + [button]
        await self._deal(order, button)

    async def _deal(self, order: list[int], button: int) -> None:
        """Open a hand over the seats in ``order`` (the button last) and ask the first
        player to act."""
        core = self.core
        shoe = core.shoe_factory()
        salt, deck = new_salt(), deck_text(shoe)
        commitment = card_commitment(salt=salt, deck=deck)
        names = [core.seats[s].username for s in order]
        try:
            hand = self.cash.new_hand(
                shoe,
                seats=order,
                stacks=[self.stacks[s] for s in order],
                names=names,
                button=button,
            )
        except CroupierError:
            log.exception("could not deal a hand at %s", core.name)
            return
        users = {s: core.seats[s].user_id for s in order}
        try:
            round_id, wager_left = await core.in_session(
                open_hand,
                table=core.name,
                game=self.cash.game,
                commitment=commitment,
                salt=salt,
                deck=deck,
                players={u: s for s, u in users.items()},
                forced={users[s]: hand.committed(s) for s in order if hand.committed(s)},
                check=core.admission.check_wagers,  # issue 27: the blinds are wagers
            )
        except WagersRefused as refused:
            await self._sit_out(refused.refusals)  # a limit used up at another table since
            await self._maybe_start(wait=False)
            return
        hand.wager_left = {s: wager_left[u] for s, u in users.items() if u in wager_left}
        self._hand = hand
        self._timed_out = set()
        self.turns.begin(round_id)
        core.begin_round(
            hand, round_id=round_id, commitment=commitment, salt=salt, deck=deck, users=users
        )
        self._button = button
        core.status = TableStatus.PLAYING
        self.out.emit(
            RoundOpened(
                round_id=round_id,
                commitment=commitment,
                button=button,
                seats=order,
                stacks={str(s): self.stacks[s] for s in order},
            )
        )
        self.out.drain_engine()
        await self._next_turn()

    async def _admitted(self, ready: list[int]) -> bool:
        """Before a hand: sit out the players who may not play it (a wager limit used up: they
        stay seated) and cash out those who excluded themselves (issue 16: self-exclusion
        stops a seated player at the next hand). Whether two players are still ready."""
        core = self.core
        dealt = {core.seats[s].user_id for s in ready}
        # Every player seated is asked about, not only those ready: one who sits out (or
        # has no chips yet) when excluding themselves is cashed out too (docs/protocol.md
        # "Responsible gaming"); a limit used up concerns only those to be dealt in.
        users = [o.user_id for o in core.seats.values()]
        need = self.cash.forced_bets
        blocked = await core.db_call(core.admission.blocked, core.db, users, need=need)
        refused = {
            user: why
            for user, why in blocked.items()
            if user in dealt or why.reason == "self_excluded"
        }
        await self._sit_out(refused)
        return len(self._ready()) >= 2

    async def _sit_out(self, refused: Mapping[int, CroupierError]) -> None:
        """The players refused the next hand sit out and are told why; those who excluded
        themselves are cashed out."""
        core = self.core
        users = {o.user_id: s for s, o in core.seats.items()}
        for user, why in sorted(refused.items()):
            seat = users[user]
            occupant = core.seats[seat]
            if why.reason == "self_excluded":
                await self._cash_out(seat, user, occupant.username, reason="self_excluded")
            else:
                self._out.add(seat)
                self.out.emit(SatOut(seat=seat, reason=why.reason or UNSET))
                self.out.to_user(
                    user,
                    NotDealtIn(
                        seat=seat,
                        reason=why.reason or "",
                        params=dict(why.params or {}),
                        message=str(why),
                    ),
                )
        if refused:
            self.out.broadcast_state()

    async def _next_turn(self) -> None:
        hand = self._hand
        assert hand is not None
        self._spend_bank()
        if hand.finished:
            await self._settle_hand()
            return
        seconds = self.core.config.decision_seconds
        self.core.arm(seconds)
        turn = Turn(seat=hand.actor, phase=hand.phase, decision_seconds=seconds)
        if hand.actor is not None:
            turn.decision = str(self.turns.open([hand.actor]))
        self.out.emit(turn)
        self.out.broadcast_state()

    async def acts(self, requests: list[Request]) -> None:
        """Decisions, one at a time in turn (a cash hand stakes nothing outside the hand)."""
        for request in requests:
            message = request.message
            assert isinstance(message, ActMessage)
            try:
                result = await self._act(request.conn, message)
            except CroupierError as exc:
                self.out.refuse(request, exc)
            else:
                self.out.answer(request, result)

    async def _act(self, conn: Connection, message: ActMessage) -> ActResult:
        core = self.core
        try:
            seat = self.seats.deciding(conn, message.seat)
        except CroupierError as exc:
            # Not seated: a decision resent after a lost ack, the seat left since, is
            # answered its first answer again.
            if exc.reason != "not_seated":
                raise
            before = self.turns.unseated(conn.user_id, message, exc)
            return msgspec.structs.replace(before.result, replayed=True)
        asked = self.turns.ask(seat, conn.user_id, message)
        if isinstance(asked, Resent):
            return msgspec.structs.replace(asked.result, replayed=True)
        hand = self._hand
        if core.status is not TableStatus.PLAYING or hand is None:
            raise IllegalActionError(
                f"no hand in play: the table is {core.status}", reason="no_hand_in_play"
            )
        if not core.in_round(seat, conn.user_id):
            raise IllegalActionError(
                f"seat {seat} is not dealt in this hand", reason="not_dealt_in"
            )
        action = hand.action(seat, message)
        hand.check(action)
        await self._within_wager(hand, seat, conn.user_id, action)
        decision = asked.decision or self.turns.open([seat])
        try:
            hand.apply(action)
        except CroupierError:
            raise
        except Exception as exc:
            log.exception("engine failed at %s", core.name)
            await self._void(f"engine malfunction: {exc}")
            return ActResult(seat=seat, action=message.action, voided=True)
        result = ActResult(seat=seat, action=message.action, decision=str(decision))
        self.turns.answered(seat, conn.user_id, decision, message, result)
        self.out.drain_engine()
        await self._next_turn()
        return result

    async def _within_wager(self, hand: CashRound, seat: int, user_id: int, action: Action) -> None:
        """Refuse a decision that would put the player past a wager limit (issue 27); one
        that fits is counted as wagered before it is applied.

        Raises:
            IllegalActionError: ``wager_limit``, with what is left; nothing changes.
        """
        adds = hand.chips_in(seat, action)
        if adds <= 0:
            return
        core = self.core
        found = await core.in_session(
            core.admission.check_wagers,
            round_id=core.round_id,
            totals={user_id: hand.committed(seat) + adds},
        )
        answer = found.get(user_id)
        if isinstance(answer, CroupierError):
            raise answer
        if answer is not None:
            hand.wager_left[seat] = answer
        else:
            hand.wager_left.pop(seat, None)

    async def on_timer(self) -> None:
        core = self.core
        hand = self._hand
        if core.status is TableStatus.PLAYING and hand is not None:
            actor = hand.actor
            if actor is None:  # pragma: no cover - a hand in play always has an actor
                return
            if self._draw_bank(actor, hand.phase):
                return
            try:
                hand.apply_timeout(actor)
            except Exception as exc:
                log.exception("timeout failed at %s", core.name)
                await self._void(f"engine malfunction: {exc}")
                return
            self._timed_out.add(actor)
            self.turns.close([actor])
            self.out.emit(TimedOut(seat=actor))
            self.out.drain_engine()
            await self._next_turn()
        elif core.status is TableStatus.PAUSE:
            core.status = TableStatus.IDLE
            await self._maybe_start(wait=False)
            self._idle_if_no_hand()
        elif core.status is TableStatus.IDLE:
            await self.seats.idle_window()

    # -- the time bank and the rebuy offer (issue 29) ------------------------------------

    def _bank_left(self, seat: int) -> float:
        return self._bank.setdefault(seat, self.core.config.time_bank_seconds)

    def _draw_bank(self, seat: int, phase: str) -> bool:
        """The turn's time ran out: go on with the seat's time bank, if it has any left and is
        not drawing on it already (``turn`` again, with ``time_bank``)."""
        left = self._bank_left(seat)
        if left <= 0 or self._banking is not None:
            return False
        self._banking = (seat, self.core.clock.now())
        self.core.arm(left)
        turn = Turn(seat=seat, phase=phase, decision_seconds=left, time_bank=True)
        decision = self.turns.current(seat)  # the same turn goes on: its id stays
        if decision is not None:
            turn.decision = str(decision)
        self.out.emit(turn)
        self.out.broadcast_state()
        return True

    def _spend_bank(self) -> None:
        """A turn ended: what the seat drew from its time bank is gone, the rest is kept."""
        if self._banking is None:
            return
        seat, began = self._banking
        self._banking = None
        used = self.core.clock.now() - began
        self._bank[seat] = max(0.0, self._bank_left(seat) - used)

    def _offer_rebuys(self, seats: Sequence[int]) -> None:
        """Seats a hand left without chips: each player is offered a rebuy (a ``seat_event``)
        and the seat kept for ``rebuy_seconds``, instead of being freed with the idle ones."""
        core = self.core
        seconds = core.config.rebuy_seconds
        for seat in seats:
            occupant = core.seats.get(seat)
            if occupant is None or self.stacks.get(seat, 0) > 0 or seat in self._busted:
                continue
            self._busted[seat] = core.clock.now() + seconds
            offer = RebuyOffered(
                seat=seat, seconds=seconds, min=self.cash.min_buy_in, max=self.cash.max_buy_in
            )
            self.out.to_user(occupant.user_id, offer)

    def _idle_if_no_hand(self) -> None:
        if self.core.status is TableStatus.IDLE:
            self.out.emit(TableIdle())
            self.out.broadcast_state()
            self.seats.arm_idle()

    # -- closing -----------------------------------------------------------------------

    async def _settle_hand(self) -> None:
        core = self.core
        hand, round_id = self._hand, core.round_id
        assert hand is not None and round_id is not None
        users = core.round_users
        start, final, won = hand.starting_stacks(), hand.final_stacks(), hand.winnings()
        record = hand.record(round_id)
        summary = hand.summary()
        try:
            await core.in_session(
                settle_hand,
                table=core.name,
                round_id=round_id,
                net={users[s]: final[s] - start[s] for s in final},
                staked={users[s]: start[s] - final[s] + won[s] for s in final},
                won={users[s]: won[s] for s in final},
                rake=hand.rake,
                record=record,
                summary=summary,
            )
        except Exception as exc:
            log.exception("settlement of hand %s failed: %s", round_id, exc)
            await self._void(SETTLEMENT_FAILED)
            return
        self.stacks.update(final)
        await self._close_hand("settled", summary)

    async def _void(self, reason: str) -> None:
        """Void the hand in play: nothing moved, every stack stays as before the hand."""
        core = self.core
        hand, round_id = self._hand, core.round_id
        assert hand is not None and round_id is not None
        hand.void(reason)
        self.out.drain_engine()
        record = hand.record(round_id)
        void = partial(core.in_session, rounds.void_round, round_id=round_id, reason=reason)
        await void_or_retry(core, f"hand {round_id}", partial(void, record=record))
        await self._close_hand("voided", {"void": reason, "stacks": hand.starting_stacks()})

    async def _close_hand(
        self, status: Literal["settled", "voided"], summary: Mapping[str, Any]
    ) -> None:
        core = self.core
        hand = self._hand
        assert hand is not None
        public = positions_of(core.deck, hand.public_cards())
        reveal = Reveal(
            commitment=core.commitment,
            leaves=card_leaves(salt=core.salt, deck=core.deck),
            openings=open_cards(salt=core.salt, deck=core.deck, positions=public),
        )
        self.out.emit(
            round_closed(
                round_id=core.round_id,
                status=status,
                summary=summary,
                reveal=reveal,
                stacks={s: self.stacks.get(s, 0) for s in hand.seats},
            )
        )
        self._open_own_cards(hand, public)
        core.rounds_played += 1
        played = list(core.round_users)
        self._hand = None
        self._banking = None
        self.turns.end()
        core.end_round()
        if self._closing:
            return
        self._offer_rebuys(hand.seats)
        core.status = TableStatus.IDLE
        await self.free_idle(self.seats.count_round(set(played) - self._timed_out))
        await self.release_ghosts()
        await self._maybe_start()
        self._idle_if_no_hand()

    def _open_own_cards(self, hand: CashRound, public: set[int]) -> None:
        """Each player's own hole cards opened to that player alone (a ``seat_event``)."""
        core = self.core
        holes = hand.hole_cards()
        for seat, user in core.round_users.items():
            own = positions_of(core.deck, holes.get(seat, ())) - public
            if own:
                openings = open_cards(salt=core.salt, deck=core.deck, positions=own)
                self.out.to_user(
                    user, CardsOpened(round_id=core.round_id, seat=seat, openings=openings)
                )

    async def shutdown(self, reason: str) -> None:
        self._closing = True
        if self._hand is not None:
            await self._void(reason)
        self.core.status = TableStatus.CLOSED
        for seat, occupant in list(self.core.seats.items()):
            try:
                await self._cash_out(seat, occupant.user_id, occupant.username)
            except Exception:
                log.exception("cash-out of seat %s at %s failed at shut-down", seat, self.core.name)

    # -- frames ------------------------------------------------------------------------

    def _table_extras(self, table: TableState) -> None:
        """What ``state`` shows of a cash table: each seat's stack, the button, the buy-in."""
        core = self.core
        table.seats = [
            SeatEntry(
                seat=s,
                username=o.username,
                stack=self.stacks.get(s, 0),
                sitting_out=s in self._out,
                in_hand=s in core.round_users,
                leaving=s in self._leaving,
                time_bank=self._bank_left(s) if core.config.time_bank_seconds else UNSET,
            )
            for s, o in sorted(core.seats.items())
        ]
        table.button = self._button
        table.buy_in = BuyInLimits(min=self.cash.min_buy_in, max=self.cash.max_buy_in)
        decision = self.turns.current(table.your_seat)
        if decision is not None:
            table.decision = str(decision)


def _gone_back(key: str, balance: int, stack: int) -> RoundVoided:
    """A buy-in resent whose chips went back to the wallet since it was taken."""
    return RoundVoided(
        f"buy-in {key!r} was taken before, and its chips have gone back to your wallet "
        f"since (a restart voided the hand in play, or the seat was left): the wallet holds "
        f"{balance}; buy in again with a new key",
        balance=balance,
        stack=stack,
        reason="round_voided",
        params={"balance": balance},
    )
