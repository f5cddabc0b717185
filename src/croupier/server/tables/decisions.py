"""A banked table's decisions (UTH's check, Play, fold; Russian Poker's options), as
:class:`croupier.server.tables.banked.BankedDriver` takes them: :class:`Decisions`, a part
of the driver that checks a decision, has its stake held by the table's escrow
(:mod:`.escrow`) under the decision's id, applies it to the engine and answers; the round's
life (the next phase, the settlement, a void) stays the driver's (:class:`RoundLife`).

Decisions have one path, as bets do: those a table takes together -- a live table's inbox
holds many -- have their extra stakes (a UTH Play bet) held in one database transaction
(:func:`.stakes.hold`), then each is applied in order and answered; a lone decision is
a batch of one.

At a cluster's live table the gateways hold those stakes themselves (issue 18, as they hold
bets: :mod:`.window`). Each seat's ``your_turn`` names the stake of each of its decisions;
the round's decision window in the database is the phase whose stakes may be held, moved on
by the owner as phases open (:meth:`.escrow.Escrow.move_window`) and closed by the
settlement. A decision whose stake a gateway held (:class:`.connection.Prepaid`) is first
verified in the database -- the hold exists, is that user's, for that round, that decision and
that amount (:func:`.window.verified_holds`; refused ``hold_unverified`` otherwise, nothing
applied or returned) -- then applied as it came, the hold kept, if the table takes it as it
is -- this round, this phase, this seat, this decision, this stake -- and refused otherwise,
its hold returned (at once, or by the window's move if the phase it was held in has closed
meanwhile).

Every decision has an id issued with its turn (:mod:`.turns`): a decision resent under it is
answered its first answer and changes nothing; one naming a turn that has passed is refused
``stale_decision``; its stake is held under a key naming it (issue 26).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any, Protocol

import msgspec

from croupier.errors import CroupierError, IllegalActionError
from croupier.games.protocol import Action
from croupier.server.rounds import store as rounds
from croupier.server.tables import window
from croupier.server.tables.connection import Connection, Prepaid, Request
from croupier.server.tables.core import TableStatus
from croupier.server.tables.driver import Parts
from croupier.server.tables.games import BankedRound
from croupier.server.tables.staking import returned_hold, stake_order, unverified_hold
from croupier.server.tables.turns import DecisionId, Resent, Turns, stale
from croupier.server.tables.wire import ActMessage, ActResult

__all__ = ["Decision", "Decisions", "RoundLife", "let_answers_out"]

log = logging.getLogger(__name__)

Decision = tuple[Request, ActMessage, int, Action, int, DecisionId]
"""A decision checked: its request, message, seat, the engine's typed action (translated once
from the message), the extra stake it needs and its id (:mod:`.turns`)."""


class RoundLife(Protocol):
    """What :class:`Decisions` asks of its driver: the round in play and its life."""

    @property
    def round(self) -> BankedRound | None: ...

    async def after_engine(
        self,
        *,
        phase_before: str,
        pending_before: tuple[int, ...] = (),
        actors: Sequence[int] = (),
    ) -> None:
        """The engine moved: the next phase, the settlement, or nothing yet."""
        ...

    async def void(self, reason: str) -> None:
        """Void the round in play: every stake back."""
        ...


class Decisions:
    """The decisions of a banked table's round in play."""

    def __init__(self, parts: Parts, turns: Turns, life: RoundLife) -> None:
        self.core, self.out, self.seats, self.escrow = (
            parts.core, parts.out, parts.seats, parts.escrow
        )  # fmt: skip
        self.turns = turns
        """The decisions asked for, with their ids and first answers (:mod:`.turns`)."""
        self.life = life

    def _check_act(
        self, conn: Connection, seat: int, message: ActMessage, decision: DecisionId | None
    ) -> tuple[BankedRound, Action, int, DecisionId]:
        """The seat's round, the decision as the engine's typed action, the extra stake it
        needs and its id; or refused."""
        core = self.core
        game_round = self.life.round
        if core.status is not TableStatus.PLAYING or game_round is None:
            raise IllegalActionError(
                f"no decisions now: the table is {core.status}", reason="no_decisions_now"
            )
        if not core.in_round(seat, conn.user_id):
            raise IllegalActionError(
                f"seat {seat} has no bets in this round", reason="no_bets_this_round"
            )
        action = game_round.action(seat, message)
        extra = game_round.check(action)
        if decision is None:  # pragma: no cover - every seat the engine waits for has a turn
            decision = self.turns.open([seat])
        return game_round, action, extra, decision

    def _check_paid(
        self, paid: Prepaid, seat: int, game_round: BankedRound, extra: int, decision: DecisionId
    ) -> None:
        """Refuse a decision whose stake a gateway held unless it was held for this round's
        phase, this seat, this decision and this stake."""
        if self.escrow.returned(paid.transaction_id):
            raise returned_hold(paid.transaction_id, what="decision")
        if paid.decision != str(decision):
            raise stale(str(paid.decision), "is not your turn now (it has passed)")
        if paid.round_id != self.core.round_id or paid.phase != game_round.phase:
            raise IllegalActionError(
                f"the decision was made for the {paid.phase} phase, which has closed: its "
                "stake is returned",
                reason="no_decisions_now",
            )
        if paid.seat != seat:
            raise IllegalActionError(
                f"the decision was made for seat {paid.seat}, but you sit at seat {seat}: "
                "its stake is returned",
                reason="not_your_seat",
            )
        if paid.amount != extra:  # the gateway priced it from a your_turn of other rules
            raise IllegalActionError(
                f"the decision stakes {extra}, not the {paid.amount} held: its stake is "
                "returned; decide again",
                reason="price_changed",
            )

    async def acts(self, requests: list[Request]) -> None:
        """Decisions, one path: a lone decision is a batch of one (at a live table seats
        decide together). A decision resent under its id is answered its first answer; the
        stakes of the others not held by a gateway already are held in one transaction, then
        each decision applied in order and answered. A second decision from one seat is
        handled after it, as a batch of its own."""
        requests = await self._verified(requests)
        later: list[Request] = []
        valid: list[Decision] = []
        deciding: set[int] = set()  # the seats in ``valid`` (a thousand at a live table)
        plays: list[rounds.Stake] = []
        refused: list[tuple[Request, CroupierError]] = []
        resent: list[tuple[Request, ActResult]] = []
        game_round = self.life.round
        for request in requests:
            message = request.message
            assert isinstance(message, ActMessage)
            paid = request.prepaid
            try:
                try:
                    seat = self.seats.deciding(request.conn, message.seat)
                except CroupierError as exc:
                    # Not seated: a decision resent after a lost ack, the seat freed since
                    # its connection dropped, is answered its first answer again.
                    if exc.reason != "not_seated" or paid is not None:
                        raise
                    before = self.turns.unseated(request.conn.user_id, message, exc)
                    resent.append((request, msgspec.structs.replace(before.result, replayed=True)))
                    continue
                asked = self.turns.ask(seat, request.conn.user_id, message)
                if isinstance(asked, Resent):
                    resent.append((request, msgspec.structs.replace(asked.result, replayed=True)))
                    continue
                game_round, action, extra, decision = self._check_act(
                    request.conn, seat, message, asked.decision
                )
                if paid is not None:
                    self._check_paid(paid, seat, game_round, extra, decision)
            except CroupierError as exc:
                if paid is None:
                    self.out.refuse(request, exc)
                else:
                    refused.append((request, exc))
                continue
            if seat in deciding:
                later.append(request)
                continue
            deciding.add(seat)
            valid.append((request, message, seat, action, extra, decision))
            if extra and paid is None:
                word = self.turns.word(message)
                plays.append(
                    stake_order(
                        request.conn.user_id,
                        seat=seat,
                        amount=extra,
                        decision=str(decision),
                        word=word,
                    )
                )
        if refused:
            await self._release_decisions(refused)
        for request, first in resent:
            self.out.answer(request, first)
        if valid:
            assert game_round is not None
            held = iter(await self.escrow.hold(plays))
            answers = [
                (r.prepaid if r.prepaid is not None else next(held)) if extra else None
                for r, _, _, _, extra, _ in valid
            ]
            await self._apply_acts(game_round, valid, answers, lone=len(requests) == 1)
        if later:
            await self.acts(later)

    async def _verified(self, requests: list[Request]) -> list[Request]:
        """The requests but the decisions whose stake a gateway says it held and the
        database does not (issue 26): those are refused, nothing applied or returned."""
        paid = [r for r in requests if r.prepaid is not None]
        if not paid:
            return requests
        claims = []
        for request in paid:
            prepaid = request.prepaid
            assert prepaid is not None and isinstance(request.message, ActMessage)
            # The game's name of the decision, also once its round is over (found by
            # red-teaming: ``play`` 4 arriving after the settlement was checked as ``play``
            # against the ``4x`` held, and told its stake was not held).
            stake = stake_order(
                request.conn.user_id,
                seat=prepaid.seat,
                amount=prepaid.amount,
                decision=str(prepaid.decision),
                word=self.turns.word(request.message),
            )
            claims.append((prepaid, stake))
        verdicts = await self.escrow.verify(claims)
        refused: set[int] = set()
        for request, verdict in zip(paid, verdicts, strict=True):
            prepaid = request.prepaid
            assert prepaid is not None
            if verdict is window.Verdict.UNKNOWN:
                self.out.refuse(request, unverified_hold())
            elif verdict is window.Verdict.RETURNED and self._passed(prepaid):
                # Returned as its turn closed before it arrived (found by red-teaming: a
                # decision sent as the timer ran out was told it was refused before).
                decision = str(prepaid.decision)
                self.out.refuse(request, stale(decision, "is not your turn now (it has passed)"))
            elif verdict is window.Verdict.RETURNED:
                self.out.refuse(request, returned_hold(prepaid.transaction_id, what="decision"))
            else:
                continue
            refused.add(id(request))
        return [r for r in requests if id(r) not in refused]

    def _passed(self, paid: Prepaid) -> bool:
        """Whether the turn ``paid`` was held for is over."""
        return str(self.turns.current(paid.seat)) != paid.decision

    async def _release_decisions(self, refused: list[tuple[Request, CroupierError]]) -> None:
        """Return the holds of the decisions refused whose stakes a gateway held, then say
        why to each. A hold the table kept (a decision resent after it was applied) stays;
        one of a phase closed was returned by the window's move
        (:meth:`.escrow.Escrow.move_window`)."""
        core, escrow = self.core, self.escrow
        holds = []
        for request, _ in refused:
            paid = request.prepaid
            assert paid is not None
            if (
                paid.round_id == core.round_id
                and paid.phase == escrow.decision_window
                and not escrow.kept(paid.transaction_id)
                and not escrow.returned(paid.transaction_id)
            ):
                holds.append(paid.transaction_id)
        if core.round_id is not None:
            # Not returned (the database failed): the window's move or the settlement does.
            await escrow.release(holds, round_id=core.round_id)
        for request, exc in refused:
            self.out.refuse(request, exc)

    async def _apply_acts(
        self,
        game_round: BankedRound,
        valid: list[Decision],
        answers: list[Any],
        *,
        lone: bool,
    ) -> None:
        """Apply the checked decisions whose Play bets were held, answer them, and go on. A
        lone decision is answered after what it set off (the next phase, the settlement);
        decisions taken together first, each after its seat's new state."""
        escrow = self.escrow
        before, pending = game_round.phase, game_round.pending_turns
        done: list[tuple[Request, ActResult]] = []
        decided: set[int] = set()
        for (request, message, seat, action, extra, decision), answer in zip(
            valid, answers, strict=True
        ):
            result = ActResult(
                seat=seat, action=message.action, decision=str(decision), staked=extra
            )
            if extra:
                if isinstance(answer, CroupierError):
                    self.out.refuse(request, answer)
                    continue
                if escrow.returned(answer.transaction_id):
                    # Its key's hold was a gateway's, refused and returned: no decision.
                    self.out.refuse(request, returned_hold(answer.transaction_id, what="decision"))
                    continue
                if escrow.kept(answer.transaction_id):  # pragma: no cover - answered
                    self.out.refuse(request, stale(str(decision), "was taken already"))
                    continue
                escrow.keep(answer.transaction_id)
                result.balance = int(answer.balance)
            try:
                game_round.apply(action)
            except Exception as exc:
                if isinstance(exc, CroupierError) and not extra:
                    self.out.refuse(request, exc)  # the engine refused it: nothing changed
                    continue
                await self._malfunction(exc, valid)
                return
            self.turns.answered(seat, request.conn.user_id, decision, message, result)
            decided.add(seat)
            done.append((request, result))
        # A box that decided and decides again (its Bet after an exchange): a turn of its
        # own, with its own time, as a box newly to decide has. Where the phase is the turn
        # (no finer turns: UTH, Caribbean) a seat that decided is not asked again in it: no
        # pending seats to list (a live table's thousands, sorted at each decision: 2 % of a
        # loaded cluster owner's loop).
        if (
            decided
            and (game_round.pending_turns or game_round.phase != before)
            and self.turns.again(decided, set(game_round.pending_seats))
        ):
            pending = ()
        self.out.drain_engine()
        if lone:
            actors = tuple(request.conn.user_id for request, _ in done)
            await self.life.after_engine(phase_before=before, pending_before=pending, actors=actors)
        for request, result in done:
            if not lone:
                self.out.acted(request.conn.user_id)
            self.out.answer(request, result)
        if not lone:
            await let_answers_out()
            await self.life.after_engine(phase_before=before, pending_before=pending)

    async def _malfunction(self, exc: Exception, valid: list[Decision]) -> None:
        """A decision checked the engine then failed on (or one it refused with a Play bet
        held): the engine is broken. Void the round, every stake back, and say so."""
        log.exception("engine failed at %s", self.core.name, exc_info=exc)
        await self.life.void(f"engine malfunction: {exc}")
        for other, message, seat, _, _, _ in valid:
            if not other.done.done():
                self.out.answer(other, ActResult(seat=seat, action=message.action, voided=True))


async def let_answers_out() -> None:
    """Let the answers given leave before the work they set off (a phase's last decisions:
    the settlement of thousands of boxes held their acks back 0.8-0.9 s at 3,000 bots)."""
    await asyncio.sleep(0)
