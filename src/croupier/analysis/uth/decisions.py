"""What a box's decisions were worth: the part of its result that is not luck.

Write ``V_k`` for the value of optimal play at a box's ``k``-th decision (with what the box
sees then) and ``Q_k(a)`` for the value of choosing ``a`` there and playing optimally after.
Then ``Q_k(a_k)`` is the expectation of ``V_{k+1}`` (or, after the last decision, of the
result) over the cards dealt in between, so

    result - (Q_0(a_0) - sum over k >= 1 of (V_k - Q_k(a_k)))

is a sum of *luck*: each term the cards' surprise between two decisions, of mean zero
whatever the player does. :func:`decisions_value` is the bracket, the compensator: it
depends on the decisions and on the cards seen when they were made. A monitor that compares
results with it (:mod:`croupier.analysis.monitoring`) cannot mistake poor play for a table
paying too little, nor good luck after a bad decision for a table paying too much.

Every EV is the strategy advisor's (:mod:`.advisor`): the pre-flop table, the flop enumerated
over every turn, river and dealer hand, the river over every dealer hand. Trips is not a
decision: its expectation is the same however the box is played.

>>> decisions_value("AsAd", "2c7h9s4dJc", ["4x"]) == advise_ev("AsAd", "4x")
True
>>> decisions_value("7c2d", "AhKhQh3s4s", ["check", "check", "fold"]) < 0
True
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from croupier.analysis.uth.advisor import Advice, advise
from croupier.analysis.uth.exact import PreflopEntry
from croupier.analysis.uth.paytables import DEFAULT_BLIND, PayTable
from croupier.cards import Card, parse_cards
from croupier.errors import ConfigError

__all__ = ["advise_ev", "decisions_value", "streets"]

_STREETS = (("4x", "3x", "check"), ("2x", "check"), ("1x", "fold"))


def streets(actions: Sequence[str]) -> int:
    """How many decisions a sequence of a box's actions makes (1 to 3), checking it is a
    way to play the spec's Play multiples: 4x/3x; or check, 2x; or check, check, 1x/fold.

    Raises:
        ConfigError: any other sequence.
    """
    words = list(actions)
    if not 1 <= len(words) <= 3:
        raise ConfigError(f"a box decides 1 to 3 times, not {len(words)}: {words}")
    for index, word in enumerate(words):
        if word not in _STREETS[index]:
            raise ConfigError(f"decision {index + 1} {word!r} is not one of {_STREETS[index]}")
        last = index == len(words) - 1
        if (word == "check") == last:
            raise ConfigError(f"a box that checks decides again, one that bets does not: {words}")
    return len(words)


def _ev(advice: Advice, action: str) -> Fraction:
    return next(o.ev for o in advice.options if o.action == action)


def _best(advice: Advice) -> Fraction:
    return max(o.ev for o in advice.options)


def advise_ev(hole: str, action: str) -> Fraction:
    """The pre-flop EV of ``action`` for ``hole`` (default pay tables): a doctest helper."""
    return _ev(advise(hole), action)


def decisions_value(
    hole: str | Sequence[Card],
    board: str | Sequence[Card],
    actions: Sequence[str],
    *,
    blind: PayTable = DEFAULT_BLIND,
    preflop: Sequence[PreflopEntry] | None = None,
) -> Fraction:
    """The compensator (module docstring) of the Ante + Blind + Play result per unit Ante
    of a box dealt ``hole`` with the round's five ``board`` cards, played ``actions`` (in
    order), with optimal play valued under ``blind`` (the pre-flop table of that Blind table: ``preflop``, or the shipped one
    for the default table).

    Raises:
        ConfigError: not a way to play (:func:`streets`), or a pre-flop table missing.
        InvalidCardsError: malformed cards.
    """
    made = streets(actions)
    shown = parse_cards(board) if isinstance(board, str) else tuple(board)
    if len(shown) != 5:
        raise ConfigError(f"the board has 5 cards at the showdown, not {len(shown)}")
    boards = (None, shown[:3], shown)
    value = Fraction(0)
    for street in range(made):
        advice = advise(hole, board=boards[street], blind=blind, preflop=preflop)
        # V_0 at the first decision; then, at each, minus its regret V_k - Q_k(a_k).
        value += (_best(advice) if street == 0 else 0) - _best(advice)
        value += _ev(advice, actions[street])
    return value
