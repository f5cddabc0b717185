"""Bots behind a small strategy interface: a random-legal bot and a tight-aggressive bot.

Bots decide from a :class:`~croupier.games.holdem.views.HandView` (what their seat may see) and
draw any randomness from a :class:`~croupier.deck.RandomSource` handed in (engines import no
``random``).

>>> from croupier.deck import Shoe, seeded_source, shuffled
>>> from croupier.games.holdem.config import HoldemConfig
>>> config = HoldemConfig.cash(players=4, small_blind=1, big_blind=2)
>>> hand = CashHand(config, stacks=(200,) * 4, shoe=Shoe(shuffled(seeded_source(5))),
...                 auto_showdown=True)
>>> bots = [RandomBot(seeded_source(s)) for s in range(4)]
>>> play_hand(hand, bots)
>>> hand.is_over, sum(hand.stacks)
(True, 800)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Protocol

from croupier.evaluator import evaluate_ids
from croupier.games.holdem.state import CashHand
from croupier.games.holdem.views import HandView, Options, options_for, view_for

if TYPE_CHECKING:
    from croupier.deck import RandomSource

__all__ = [
    "Decision",
    "Move",
    "RandomBot",
    "Strategy",
    "TightAggressiveBot",
    "apply",
    "play_hand",
    "preflop_strength",
]


class Move(StrEnum):
    FOLD = "fold"
    CHECK_CALL = "check/call"
    RAISE = "bet/raise"


@dataclass(frozen=True, slots=True)
class Decision:
    """A bot's choice; ``to`` is the bet or raise total for :attr:`Move.RAISE`."""

    move: Move
    to: int = 0


class Strategy(Protocol):
    """Anything that picks a legal decision for the seat to act."""

    def decide(self, view: HandView, options: Options) -> Decision: ...


def apply(hand: CashHand, seat: int, decision: Decision) -> None:
    """Carry out ``decision`` for ``seat`` (raises IllegalActionError if it is not legal)."""
    if decision.move is Move.FOLD:
        hand.fold(seat)
    elif decision.move is Move.CHECK_CALL:
        hand.check_or_call(seat)
    else:
        hand.raise_to(seat, decision.to)


def play_hand(hand: CashHand, strategies: Sequence[Strategy]) -> None:
    """Let the strategies (one per position) play the betting until the hand stops for input.

    With ``auto_showdown`` and a shoe this plays the hand to the end; otherwise it returns at
    a showdown decision or when cards must be dealt.
    """
    while True:
        options = options_for(hand)
        if options is None:
            return
        seat = options.seat
        apply(hand, seat, strategies[seat].decide(view_for(hand, seat), options))


class RandomBot:
    """Chooses uniformly among fold (only when facing a bet), check/call and bet/raise, and a
    uniform bet or raise total between the minimum and the maximum."""

    __slots__ = ("_source",)

    def __init__(self, source: RandomSource) -> None:
        self._source = source

    def decide(self, view: HandView, options: Options) -> Decision:
        return random_decision(options, self._source)


def random_decision(options: Options, source: RandomSource) -> Decision:
    """The random-legal choice (also used directly by the self-play benchmark)."""
    moves = []
    if options.to_call:
        moves.append(Move.FOLD)
    moves.append(Move.CHECK_CALL)
    low, high = options.min_raise_to, options.max_raise_to
    if low is not None and high is not None:
        moves.append(Move.RAISE)
    move = moves[source.randbelow(len(moves))]
    if move is Move.RAISE:
        assert low is not None and high is not None
        step = options.step
        return Decision(move, low + step * source.randbelow((high - low) // step + 1))
    return Decision(move)


def preflop_strength(ranks: tuple[int, int], suited: bool) -> int:
    """Chen-like points for two hole cards (ranks 0..12 = 2..A), about -1..20.

    >>> preflop_strength((12, 12), False), preflop_strength((5, 0), False)
    (20, -1)
    """
    high, low = max(ranks), min(ranks)
    points = (10, 8, 7, 6)[12 - high] if high >= 9 else (high + 2) / 2
    if high == low:
        return int(max(5.0, 2 * points))
    gap = high - low - 1
    points -= (0, 1, 2, 4, 5)[min(gap, 4)]
    if suited:
        points += 2
    if gap <= 1 and high < 10:
        points += 1
    return int(points + 0.5)


class TightAggressiveBot:
    """Plays few hands and plays them hard.

    Pre-flop it raises strong hands (Chen points >= ``raise_points``), calls a small raise
    with medium ones and folds the rest. After the flop it bets or raises about
    three-quarters of the pot with two pair or better, calls with a pair when the price is
    below half the pot, and otherwise checks or folds.
    """

    __slots__ = ("_call_points", "_raise_points")

    def __init__(self, *, raise_points: int = 9, call_points: int = 7) -> None:
        self._raise_points = raise_points
        self._call_points = call_points

    def decide(self, view: HandView, options: Options) -> Decision:
        hole = None if view.seat is None else view.hole_cards[view.seat]
        if hole is None:
            return Decision(Move.CHECK_CALL if options.can_check else Move.FOLD)
        passive = Decision(Move.CHECK_CALL if options.can_check else Move.FOLD)
        if view.street == 0:
            points = preflop_strength((hole[0].rank, hole[1].rank), hole[0].suit == hole[1].suit)
            if points >= self._raise_points:
                return _sized(options, 3 * max(options.bet + options.to_call, 1))
            if points >= self._call_points and options.to_call <= options.stack // 10:
                return Decision(Move.CHECK_CALL)
            return passive
        value = evaluate_ids([card.id for card in (*hole, *view.board)])
        if value > _TWO_PAIR_MIN:
            return _sized(options, options.bet + options.to_call + (3 * options.pot) // 4)
        if value > _PAIR_MIN and 2 * options.to_call <= options.pot:
            return Decision(Move.CHECK_CALL)
        return passive


# lowest values of the categories (evaluator values rise with strength): 1277 high-card
# classes, then 2860 one-pair classes
_PAIR_MIN = 1277
_TWO_PAIR_MIN = 1277 + 2860


def _sized(options: Options, target: int) -> Decision:
    low, high = options.min_raise_to, options.max_raise_to
    if low is None or high is None:
        return Decision(Move.CHECK_CALL)
    target -= target % options.step
    return Decision(Move.RAISE, max(low, min(high, target)))
