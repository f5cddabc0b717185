"""Hand values in English: the category alone, the whole hand with its kickers, and what
decides between two hands.

A value fixes every rank that counts (suits never do), so these need only the value.

>>> from croupier.evaluator import evaluate
>>> queens = evaluate("Qs Qd As Kd 9c").value
>>> describe(queens), describe(queens, kickers=True)
('Pair of Queens', 'Pair of Queens, Ace-King-Nine kicker')
>>> versus(queens, evaluate("Qh Qc Ah Kc 8d").value)
'the Nine kicker beats the Eight'
>>> versus(queens, evaluate("2s 2d 7h 5c 3d").value)
'Queens beat Twos'
>>> versus(queens, evaluate("As Kd 9c 7h 2d").value)
'Pair of Queens beats Ace-King high'
"""

from __future__ import annotations

from croupier.cards import Rank
from croupier.errors import InvalidCardsError
from croupier.evaluator._tables import classes
from croupier.evaluator.categories import HandCategory

__all__ = ["describe", "versus"]

_GROUPS = {
    HandCategory.PAIR: 1,
    HandCategory.TWO_PAIR: 2,
    HandCategory.THREE_OF_A_KIND: 1,
    HandCategory.FULL_HOUSE: 2,
    HandCategory.FOUR_OF_A_KIND: 1,
}
"""How many leading ranks of a class are groups (pairs, trips, quads), named in the plural;
the ranks after them are kickers."""

_RUNS = (HandCategory.STRAIGHT, HandCategory.STRAIGHT_FLUSH, HandCategory.ROYAL_FLUSH)


def _class(value: int) -> tuple[HandCategory, tuple[Rank, ...]]:
    table = classes()
    if not 1 <= value <= len(table.category):
        raise InvalidCardsError(f"hand value {value} is outside 1..{len(table.category)}")
    return table.category[value - 1], tuple(Rank(r) for r in table.ranks[value - 1])


def _nouns(ranks: tuple[Rank, ...]) -> str:
    return "-".join(rank.noun for rank in ranks)


def describe(value: int, *, kickers: bool = False) -> str:
    """Describe a hand value in English (``"Two pair, Kings and Sixes"``).

    With ``kickers`` every rank that counts is named, so two hands of the same category read
    differently whenever they are not equal (``"Two pair, Kings and Sixes, Ace kicker"``).

    Raises:
        InvalidCardsError: ``value`` is not a hand value.
    """
    category, ranks = _class(value)
    groups = _GROUPS.get(category, 0)
    tail = f", {_nouns(ranks[groups:])} kicker" if kickers and ranks[groups:] else ""
    match category:
        case HandCategory.HIGH_CARD:
            return f"{_nouns(ranks if kickers else ranks[:2])} high"
        case HandCategory.PAIR:
            return f"Pair of {ranks[0].plural}{tail}"
        case HandCategory.TWO_PAIR:
            return f"Two pair, {ranks[0].plural} and {ranks[1].plural}{tail}"
        case HandCategory.THREE_OF_A_KIND:
            return f"Three of a kind, {ranks[0].plural}{tail}"
        case HandCategory.STRAIGHT:
            return f"Straight, {ranks[0].noun} high"
        case HandCategory.FLUSH:
            return f"Flush, {_nouns(ranks)}" if kickers else f"Flush, {ranks[0].noun} high"
        case HandCategory.FULL_HOUSE:
            return f"Full house, {ranks[0].plural} full of {ranks[1].plural}"
        case HandCategory.FOUR_OF_A_KIND:
            return f"Four of a kind, {ranks[0].plural}{tail}"
        case HandCategory.STRAIGHT_FLUSH:
            return f"Straight flush, {ranks[0].noun} high"
        case _:
            return "Royal flush"


def versus(winner: int, loser: int) -> str:
    """What makes hand value ``winner`` beat ``loser``, in English; ``"equal hands"`` when
    they tie. Between categories the hands are named; within one, the first rank that
    differs is (``"Kings beat Queens"``, ``"the Nine kicker beats the Eight"``).

    Raises:
        InvalidCardsError: a value that is not a hand value, or ``winner`` below ``loser``.
    """
    if winner < loser:
        raise InvalidCardsError(f"hand value {winner} does not beat {loser}")
    if winner == loser:
        _class(winner)
        return "equal hands"
    category, high = _class(winner)
    other, low = _class(loser)
    if category != other:
        return f"{describe(winner)} beats {describe(loser)}"
    if category in _RUNS:
        return f"{high[0].noun} high beats {low[0].noun} high"
    index = next(i for i, (a, b) in enumerate(zip(high, low, strict=True)) if a != b)
    if index < _GROUPS.get(category, 0):
        return f"{high[index].plural} beat {low[index].plural}"
    if index == 0:  # high card and flush: the top card
        return f"{high[0].noun} high beats {low[0].noun} high"
    kicker = " kicker" if category is not HandCategory.FLUSH else ""
    return f"the {high[index].noun}{kicker} beats the {low[index].noun}"
