"""A banked table's decisions (UTH's check, Play, fold; Russian Poker's options), as
:class:`croupier.server.tables.banked.BankedDriver` takes them: :class:`DecisionSteps`.

Decisions have one path, as bets do: those a table takes together -- a live table's inbox
holds many -- have their extra stakes (a UTH Play bet) held in one database transaction
(:func:`.stakes.stake_many`), then each is applied in order and answered; a lone decision is
a batch of one.

At a cluster's live table the gateways hold those stakes themselves (issue 18, as they hold
bets: :mod:`.window`). Each seat's ``your_turn`` names the stake of each of its decisions;
the round's decision window in the database is the phase whose stakes may be held, moved on
by the owner as phases open (:meth:`DecisionSteps._move_window`) and closed by the
settlement. A decision whose stake a gateway held (:class:`.connection.Prepaid`) is applied
as it came, the hold kept, if the table takes it as it is -- this round, this phase, this
seat, this stake -- and refused otherwise, its hold returned (at once, or by the window's
move if the phase it was held in has closed meanwhile).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from croupier.errors import CroupierError, IllegalActionError
from croupier.games.protocol import Action
from croupier.server.tables import rounds, stakes
from croupier.server.tables.broadcast import Broadcaster
from croupier.server.tables.connection import Connection, Prepaid, Request
from croupier.server.tables.core import TableCore
from croupier.server.tables.games import BankedRound
from croupier.server.tables.seats import Seats
from croupier.server.tables.staking import decision_stake, returned_hold
from croupier.server.tables.wire import ActMessage, Result

__all__ = ["Decision", "DecisionSteps", "let_answers_out"]

log = logging.getLogger(__name__)

Decision = tuple[Request, ActMessage, int, Action, int]
"""A decision checked: its request, message, seat, the engine's typed action (translated once
from the message) and the extra stake it needs."""


class DecisionSteps:
    """The decisions of a banked table's driver (mixed into it)."""

    core: TableCore
    out: Broadcaster
    seats: Seats
    round: BankedRound | None
    decision_window: str | None = None
    """The decision phase whose stakes the gateways may hold now (the database's
    ``decision_phase`` as this table last wrote it); ``None``: none was opened this round."""

    async def _after_engine(
        self,
        *,
        phase_before: str,
        pending_before: tuple[int, ...] = (),
        actors: tuple[int, ...] = (),
    ) -> None:
        raise NotImplementedError

    async def _void(self, reason: str) -> None:
        raise NotImplementedError

    async def _stake_many(self, batch: list[rounds.Stake]) -> list[Any]:
        raise NotImplementedError

    def _check_act(
        self, conn: Connection, message: ActMessage
    ) -> tuple[int, BankedRound, Action, int]:
        """The seat deciding, its round, the decision as the engine's typed action and the
        extra stake it needs; or refused."""
        core = self.core
        seat = self.seats.deciding(conn, message.seat)
        game_round = self.round
        if core.status != "playing" or game_round is None:
            raise IllegalActionError(
                f"no decisions now: the table is {core.status}", reason="no_decisions_now"
            )
        if not core.in_round(seat, conn.user_id):
            raise IllegalActionError(
                f"seat {seat} has no bets in this round", reason="no_bets_this_round"
            )
        action = game_round.action(seat, message)
        return seat, game_round, action, game_round.check(action)

    def _check_paid(self, paid: Prepaid, seat: int, game_round: BankedRound, extra: int) -> None:
        """Refuse a decision whose stake a gateway held unless it was held for this round's
        phase, this seat and this stake."""
        if paid.transaction_id in self.core.released_holds:
            raise returned_hold(paid.transaction_id, what="decision")
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
        if paid.amount != extra:  # pragma: no cover - the gateway prices from your_turn
            raise IllegalActionError(
                f"the decision stakes {extra}, not the {paid.amount} held: its stake is "
                "returned; decide again"
            )

    async def acts(self, requests: list[Request]) -> None:
        """Decisions, one path: a lone decision is a batch of one (at a live table seats
        decide together). The Play bets among them not held by a gateway already are staked
        in one transaction, then each decision applied in order and answered. A second
        decision from one seat is handled after it, as a batch of its own."""
        later: list[Request] = []
        valid: list[Decision] = []
        deciding: set[int] = set()  # the seats in ``valid`` (a thousand at a live table)
        plays: list[rounds.Stake] = []
        refused: list[tuple[Request, CroupierError]] = []
        game_round = self.round
        for request in requests:
            message = request.message
            assert isinstance(message, ActMessage)
            paid = request.prepaid
            try:
                seat, game_round, action, extra = self._check_act(request.conn, message)
                if paid is not None:
                    self._check_paid(paid, seat, game_round, extra)
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
            valid.append((request, message, seat, action, extra))
            if extra and paid is None:
                plays.append(
                    decision_stake(
                        request.conn.user_id,
                        message.action,
                        round_id=self.core.round_id,
                        phase=game_round.phase,
                        seat=seat,
                        extra=extra,
                    )
                )
        if refused:
            await self._release_decisions(refused)
        if valid:
            assert game_round is not None
            held = iter(await self._stake_many(plays))
            answers = [
                (r.prepaid if r.prepaid is not None else next(held)) if extra else None
                for r, _, _, _, extra in valid
            ]
            await self._apply_acts(game_round, valid, answers, lone=len(requests) == 1)
        if later:
            await self.acts(later)

    async def _release_decisions(self, refused: list[tuple[Request, CroupierError]]) -> None:
        """Return the holds of the decisions refused whose stakes a gateway held, then say
        why to each. A hold the table kept (a decision resent after it was applied) stays;
        one of a phase closed was returned by the window's move
        (:meth:`_move_window`)."""
        core = self.core
        holds = []
        for request, _ in refused:
            paid = request.prepaid
            assert paid is not None
            if (
                paid.round_id == core.round_id
                and paid.phase == self.decision_window
                and paid.transaction_id not in core.kept_holds
                and paid.transaction_id not in core.released_holds
            ):
                holds.append(paid.transaction_id)
        if holds and core.round_id is not None:
            core.released_holds.update(holds)
            try:
                await core.db_call(stakes.release, core.db, round_id=core.round_id, holds=holds)
            except Exception:
                # Not kept: the window's move or the settlement returns them.
                log.exception("releasing %d decision holds at %s failed", len(holds), core.name)
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
        core = self.core
        before, pending = game_round.phase, game_round.pending_turns
        done: list[tuple[Request, Result]] = []
        for (request, message, seat, action, extra), answer in zip(valid, answers, strict=True):
            result = Result(seat=seat, action=message.action, staked=extra)
            if extra:
                if isinstance(answer, CroupierError):
                    self.out.refuse(request, answer)
                    continue
                if answer.transaction_id in core.released_holds:
                    # Its key's hold was a gateway's, refused and returned: no decision.
                    self.out.refuse(request, returned_hold(answer.transaction_id, what="decision"))
                    continue
                core.kept_holds.add(answer.transaction_id)
                result.balance = int(answer.balance)
            try:
                game_round.apply(action)
            except Exception as exc:
                if isinstance(exc, CroupierError) and not extra:
                    self.out.refuse(request, exc)  # the engine refused it: nothing changed
                    continue
                await self._malfunction(exc, valid)
                return
            done.append((request, result))
        self.out.drain_engine()
        if lone:
            actors = tuple(request.conn.user_id for request, _ in done)
            await self._after_engine(phase_before=before, pending_before=pending, actors=actors)
        for request, result in done:
            if not lone:
                self.out.acted(request.conn.user_id)
            self.out.answer(request, result)
        if not lone:
            await let_answers_out()
            await self._after_engine(phase_before=before, pending_before=pending)

    async def _malfunction(self, exc: Exception, valid: list[Decision]) -> None:
        """A decision checked the engine then failed on (or one it refused with a Play bet
        held): the engine is broken. Void the round, every stake back, and say so."""
        log.exception("engine failed at %s", self.core.name, exc_info=exc)
        await self._void(f"engine malfunction: {exc}")
        for other, message, seat, _, _ in valid:
            if not other.done.done():
                self.out.answer(other, Result(seat=seat, action=message.action, voided=True))

    async def _move_window(self, phase: str | None) -> bool:
        """A cluster's table: close the round's betting, or its decision phase, in the
        database, and open decision phase ``phase`` (``None``: none; a live table's, whose
        gateways then hold its stakes), returning every hold of the round the table did not
        take (:func:`.window.close_window`). ``False``: that failed, and the round was voided
        (every stake back)."""
        core = self.core
        if not core.windowed or core.round_id is None:
            return True
        try:
            released = await core.db_call(
                stakes.close_window,
                core.db,
                round_id=core.round_id,
                kept=set(core.kept_holds),
                decisions=phase,
            )
        except Exception as exc:
            log.exception("moving the window to %s at %s failed", phase, core.name)
            await self._void(f"closing the window of bets or decisions failed: {exc}")
            return False
        self.decision_window = phase
        core.released_holds.update(one.hold_id for one in released)
        if released:
            log.warning(
                "%s: %d stakes held for bets or decisions the table never took returned",
                core.name, len(released),
            )  # fmt: skip
        return True


async def let_answers_out() -> None:
    """Let the answers given leave before the work they set off (a phase's last decisions:
    the settlement of thousands of boxes held their acks back 0.8-0.9 s at 3,000 bots)."""
    await asyncio.sleep(0)
