"""The showdown's commands of a hand of hold'em: show, muck, finish, and who may muck
(spec/holdem.md "Winning"; the rules themselves are in :mod:`.showdown`).

:class:`ShowdownCommands` is a base of :class:`~croupier.games.holdem.state.CashHand` (as
:class:`~croupier.games.holdem.engine.HandEngine` is): every method runs on the hand itself,
with the verify / can / do triplet of the hand's other commands.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from croupier.cards import Card
from croupier.errors import RecordError
from croupier.games.holdem.config import ShowdownRule
from croupier.games.holdem.dealing import verify_shown_cards
from croupier.games.holdem.engine import HandEngine
from croupier.games.holdem.events import HoldemEvent, Mucked, Shown
from croupier.games.holdem.phase import Phase
from croupier.games.holdem.showdown import can_win, muck_refusal, seed_muck_refusal
from croupier.games.protocol import refused, succeeds

__all__ = ["ShowdownCommands"]


class ShowdownCommands(HandEngine):
    """The showdown half of :class:`~croupier.games.holdem.state.CashHand`."""

    __slots__ = ()

    def can_win(self, seat: int) -> bool:
        """Whether ``seat``'s hand still wins or ties some pot it contests against the hands
        shown so far (spec/holdem.md "Winning": a player who cannot win may muck).

        Only a complete board decides that; before it, and for unknown cards, ``True``.
        """
        hand = _hand(self)
        return can_win(
            seat, put_in=hand._put_in, antes=hand._antes, live=hand._in, shown=hand._shown,
            holes=hand._holes, board=hand._board, ante_trimming=hand._cfg.ante_trimming,
        )  # fmt: skip

    def verify_show(self, seat: int, cards: Sequence[Card] | None = None) -> None:
        """Check that ``seat`` may table their cards (``cards`` names them in a replay).

        After the hand, a player dealt in who has not shown may still show (a winner who
        took the pot uncontested, a player who folded or mucked): show one, show all -- the
        cards are shown to every seat, never to one (docs/rules.md).
        """
        hand = _hand(self)
        if hand._phase is Phase.COMPLETE:
            hand._check_seat(seat)
            if hand._shown[seat]:
                raise refused(f"player {seat + 1} has shown already", "already_shown", seat=seat)
            if hand._holes[seat] is None and cards is None:
                raise refused(f"player {seat + 1}'s cards are unknown", "cards_unknown", seat=seat)
        else:
            hand._check_showdown(seat)
        if cards is not None:
            verify_shown_cards(seat, cards, board=hand._board, holes=hand._holes)

    def can_show(self, seat: int, cards: Sequence[Card] | None = None) -> bool:
        return succeeds(self.verify_show, seat, cards)

    def show(self, seat: int, cards: Sequence[Card] | None = None) -> Shown:
        """Table ``seat``'s hole cards (cards speak; a player may table out of turn)."""
        hand = _hand(self)
        hand.verify_show(seat, cards)
        if cards is not None and hand._holes[seat] is None:
            hand._holes[seat] = tuple(cards)
        complete = hand._phase is Phase.COMPLETE
        event: Shown = hand._reveal(seat)
        if not complete:
            hand._after_showdown_action()
        return event

    def verify_muck(self, seat: int) -> None:
        """Check that ``seat`` may give up their hand at showdown without showing it.

        A player who alone contests a side pot wins it without showing and may not muck it.
        Under the ``seed`` showdown rule (seed 002, the default) the first to show -- the last
        bettor or raiser -- may not muck, and another player only when a hand already shown
        beats theirs in every pot they contest (cards not known, as in a replayed record that
        hides them, cannot be checked and are let through).
        """
        hand = _hand(self)
        hand._check_showdown(seat)
        refusal = muck_refusal(
            seat,
            put_in=hand._put_in,
            antes=hand._antes,
            live=hand._in,
            ante_trimming=hand._cfg.ante_trimming,
        )
        if refusal is not None:
            raise refused(refusal, "muck_not_allowed", seat=seat)
        if hand._cfg.showdown is ShowdownRule.SEED:
            seed = seed_muck_refusal(seat, first=hand._first, known=hand._holes[seat] is not None,
                                     can_win=hand.can_win)  # fmt: skip
            if seed is not None:
                raise seed

    def can_muck(self, seat: int) -> bool:
        return succeeds(self.verify_muck, seat)

    def muck(self, seat: int) -> Mucked:
        hand = _hand(self)
        hand.verify_muck(seat)
        hand._in[seat] = False
        hand._live -= 1
        hand._pending[seat] = False
        event = Mucked(seat)
        hand._events.append(event)
        hand._after_showdown_action()
        return event

    def verify_finish(self) -> None:
        """Check that the showdown can be settled now: the board is complete and every
        player still in has known cards."""
        hand = _hand(self)
        if hand._phase is not Phase.SHOWDOWN:
            raise refused(f"no showdown now ({hand._phase})", "not_showdown", phase=hand._phase)
        if len(hand._board) < 5:
            raise refused("the board is not complete", "board_incomplete")
        if sum(hand._in) > 1:
            for seat in range(hand._n):
                if hand._in[seat] and hand._holes[seat] is None:
                    raise RecordError(f"hole cards of player {seat + 1} are unknown at showdown")

    def finish(self) -> tuple[HoldemEvent, ...]:
        """Show every player who has not yet shown or mucked, in order, and pay the pots."""
        hand = _hand(self)
        hand.verify_finish()
        start = len(hand._events)
        for seat in hand.showdown_order:
            hand._reveal(seat)
        hand._settle()
        return tuple(hand._built_events()[start:])

    def _check_showdown(self, seat: int) -> None:
        hand = _hand(self)
        if hand._phase in (Phase.COMPLETE, Phase.VOIDED):
            raise refused("the hand is over", "hand_over")
        hand._check_seat(seat)
        if hand._phase is not Phase.SHOWDOWN:
            raise refused("cards are shown once the betting is over", "not_showdown",
                          phase=hand._phase)  # fmt: skip
        if not hand._in[seat]:
            raise refused(f"player {seat + 1} is out of the hand", "not_in_hand", seat=seat)


def _hand(commands: ShowdownCommands) -> Any:
    """The hand a method runs on (``CashHand`` is the only subclass; typed ``Any`` so that
    this module, a base of ``CashHand``, does not import ``state`` back: no import cycle)."""
    return commands
