"""The exact analysis of Caribbean Stud Poker: every player hand against every dealer hand.

For every player hand (2,598,960) and every dealer up card (47 left) the Raise's EV is counted
over the dealer's other four cards (C(46, 4) = 163,185 from the cards left): 19,933,230,517,200
combinations with a full deck, in integer arithmetic. The optimal decision raises when that
EV beats the fold's (minus one Ante; an exact tie folds, risking less). Method
(:mod:`croupier.analysis.caribbean._kernels`): up-card-major with card removal by
inclusion-exclusion; the up cards of one rank give the same totals under a change of suits,
so one of each rank is counted, four times.

The figures to reproduce (Wizard of Odds, "Caribbean Stud Poker", the U.S. pay table):
19,933,230,517,200 combinations, a total loss of 1,041,372,912,372 Antes under the perfect
strategy, house edge 5.224 %, element of risk 2.555 %.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb, lcm
from typing import Any, Literal

import numba
import numpy as np
import numpy.typing as npt

from croupier.analysis.caribbean import _kernels as kernels
from croupier.errors import ConfigError
from croupier.evaluator import HandCategory, categories, evaluate_batch
from croupier.games.caribbean.config import DEFAULT_RAISE
from croupier.games.caribbean.rules import qualify_min
from croupier.games.paytables import PayTable

__all__ = [
    "FULL_DECK",
    "STRATEGIES",
    "ExactResult",
    "ProgressCallback",
    "Strategy",
    "analyze_exact",
    "pay_units",
]

ProgressCallback = Callable[[int, int], None]
"""Called with (up-card ranks done, ranks in all)."""

Strategy = Literal["optimal", "pair_or_better", "ace_king_or_better", "always"]
STRATEGIES: dict[Strategy, int] = {
    "optimal": kernels.OPTIMAL,
    "pair_or_better": kernels.PAIR_OR_BETTER,
    "ace_king_or_better": kernels.ACE_KING_OR_BETTER,
    "always": kernels.ALWAYS,
}
"""The strategies the count can play: the optimal one, and three fixed rules Wizard of Odds
publishes the totals of (raise on any pair or better, on any Ace-King or better, always)."""

FULL_DECK: tuple[int, ...] = tuple(range(52))


@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class ExactResult:
    """Everything the count finds, as exact fractions per unit Ante."""

    strategy: Strategy
    multiple: int
    """The Raise, in Antes."""
    paytable: PayTable
    deck: tuple[int, ...]
    combinations: int
    """Player hands x up cards x the dealer's other four cards."""
    ev_per_ante: Fraction
    raise_probability: Fraction
    """The share of (player hand, up card) situations that raise."""
    wins: tuple[int, ...]
    """Combinations the player wins against a qualifying dealer, by the player's category."""
    not_qualified: int
    """Combinations raised against a dealer who does not qualify."""
    ties: int
    losses: int
    """Combinations raised and lost to a qualifying dealer."""
    folds: int
    """Combinations folded."""
    decisions: npt.NDArray[np.uint8] = field(repr=False)
    """Shape (ranks in the deck, C(n - 1, 5)): for the up card of each rank in the suit of the
    lowest card id (clubs), 1 where the player hand of that colex rank over the other cards
    raises (:func:`croupier.analysis.caribbean.strategy.hand_index`)."""
    by_upcard: tuple[Fraction, ...] = ()
    """The EV per Ante given the up card's rank, lowest rank first."""
    raises_by_upcard: tuple[Fraction, ...] = ()
    """The share of player hands that raise given the up card's rank, lowest rank first."""

    @property
    def house_edge(self) -> Fraction:
        """The house edge per Ante (-EV)."""
        return -self.ev_per_ante

    @property
    def average_total_bet(self) -> Fraction:
        """Ante + Raise, in Antes, averaged over the combinations."""
        return 1 + self.multiple * self.raise_probability

    @property
    def element_of_risk(self) -> Fraction:
        """House edge per unit of total money bet."""
        return self.house_edge / self.average_total_bet

    @property
    def total_loss(self) -> Fraction:
        """The player's loss summed over every combination, in Antes (Wizard of Odds' "total
        loss")."""
        return self.house_edge * self.combinations

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: floats for reading, ``"p/q"`` strings for the exact values."""
        exact = {
            "ev_per_ante": self.ev_per_ante,
            "house_edge": self.house_edge,
            "element_of_risk": self.element_of_risk,
            "average_total_bet": self.average_total_bet,
            "raise_probability": self.raise_probability,
            "total_loss": self.total_loss,
        }
        return {
            "strategy": self.strategy,
            "raise_multiple": self.multiple,
            "raise_paytable": self.paytable.to_mapping(),
            "cards": len(self.deck),
            "combinations": self.combinations,
            **{name: float(value) for name, value in exact.items()},
            "exact": {name: str(value) for name, value in exact.items()},
            "outcomes": {
                **{f"win_{c.name.lower()}": self.wins[c] for c in HandCategory},
                "dealer_not_qualified": self.not_qualified,
                "tie": self.ties,
                "fold": self.folds,
                "dealer_wins": self.losses,
            },
            "by_upcard": [str(v) for v in self.by_upcard],
            "raises_by_upcard": [str(v) for v in self.raises_by_upcard],
        }


def pay_units(paytable: PayTable) -> tuple[int, tuple[int, ...]]:
    """The scale (the Ante in units: the least common multiple of the denominators) and each
    category's odds in those units, so that every payout is a whole number of units.

    >>> pay_units(DEFAULT_RAISE)
    (1, (1, 1, 2, 3, 4, 5, 7, 20, 50, 100))

    Raises:
        ConfigError: a category without a line (every winning hand must be paid).
    """
    lines = [paytable.line_for(c) for c in HandCategory]
    missing = [c.name.lower() for c, line in zip(HandCategory, lines, strict=True) if line is None]
    if missing:
        raise ConfigError(f"the Raise's pay table must pay every category; missing {missing}")
    scale = lcm(*(line.denominator for line in lines if line is not None))
    return scale, tuple(
        line.numerator * scale // line.denominator for line in lines if line is not None
    )


def _check_deck(deck: Sequence[int]) -> tuple[int, ...]:
    cards = tuple(sorted(int(c) for c in deck))
    if len(set(cards)) != len(cards) or any(not 0 <= c < 52 for c in cards):
        raise ConfigError("the deck must be distinct card ids 0..51")
    ranks = {c >> 2 for c in cards}
    if len(cards) != 4 * len(ranks):
        raise ConfigError("the deck must hold whole ranks (all four suits of each rank)")
    if len(cards) < 12:
        raise ConfigError(f"a deck of {len(cards)} cards is too small: at least three ranks")
    return cards


@dataclass(slots=True)
class _Work:
    """Arrays of one run, reused from up card to up card."""

    n: int
    val5: npt.NDArray[np.int16]
    binom: npt.NDArray[np.int64]
    cum0: npt.NDArray[np.int64]
    cum1: npt.NDArray[np.int32]
    cum2: npt.NDArray[np.int32]
    rows3: npt.NDArray[np.int16]


def _work(deck: tuple[int, ...]) -> _Work:
    n = len(deck)
    rows = np.empty((comb(n, 5), 5), dtype=np.int64)
    kernels.colex_rows(n, rows)
    values = evaluate_batch(np.asarray(deck, dtype=np.int64)[rows], parallel=True)
    return _Work(
        n=n,
        val5=values.astype(np.int16),
        binom=kernels.binomials(n),
        cum0=np.zeros(7464, dtype=np.int64),
        cum1=np.zeros((n, 7464), dtype=np.int32),
        cum2=np.zeros((comb(n, 2), 7464), dtype=np.int32),
        rows3=np.zeros((comb(n, 3), n - 4), dtype=np.int16),
    )


def count_upcard(
    work: _Work,
    up: int,
    *,
    units: tuple[int, tuple[int, ...]],
    multiple: int,
    strategy: int,
    margin: npt.NDArray[np.int64] | None = None,
    counts: npt.NDArray[np.int64] | None = None,
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
    """Every player hand against the up card at deck position ``up``: the decisions and the
    summed statistics (slots ``S_*`` of the kernels); ``margin`` and ``counts``, when given
    (one row per player hand), receive each hand's Raise-minus-fold EV and dealer counts."""
    scale, odds = units
    chunks = 16 * numba.get_num_threads()
    decision = np.zeros(comb(work.n - 1, 5), dtype=np.uint8)
    stats = np.zeros((chunks, kernels.S_SIZE), dtype=np.int64)
    category = categories(np.arange(0, 7463).clip(1)).astype(np.int64)
    kernels.build_tables(
        up, work.n, work.val5, work.binom, work.cum0, work.cum1, work.cum2, work.rows3
    )
    kernels.player_pass(
        up,
        work.n,
        work.val5,
        work.binom,
        work.cum0,
        work.cum1,
        work.cum2,
        work.rows3,
        category,
        qualify_min(),
        np.array(odds, dtype=np.int64),
        scale,
        multiple,
        strategy,
        decision,
        np.zeros(0, dtype=np.int64) if margin is None else margin,
        np.zeros((0, 4), dtype=np.int64) if counts is None else counts,
        stats,
    )
    return decision, stats.sum(axis=0)


def analyze_exact(
    *,
    paytable: PayTable = DEFAULT_RAISE,
    multiple: int = 2,
    strategy: Strategy = "optimal",
    deck: Sequence[int] = FULL_DECK,
    on_progress: ProgressCallback | None = None,
) -> ExactResult:
    """Count every combination under ``strategy`` (the optimal one by default).

    Args:
        paytable: the Raise's pay table (every category listed, as a table's).
        multiple: the Raise in Antes (the rules: 2).
        strategy: ``"optimal"`` or one of the fixed rules of :data:`STRATEGIES`.
        deck: the card ids in play (whole ranks; reduced decks are for tests).
        on_progress: called with (up-card ranks done, ranks) after each rank.

    Raises:
        ConfigError: a pay table without every category, a bad multiple, deck or strategy.
    """
    if strategy not in STRATEGIES:
        raise ConfigError(f"strategy {strategy!r} is not one of {sorted(STRATEGIES)}")
    if isinstance(multiple, bool) or not isinstance(multiple, int) or not 1 <= multiple <= 10:
        raise ConfigError(f"the Raise multiple {multiple!r} is not a whole number 1..10")
    cards = _check_deck(deck)
    units = pay_units(paytable)
    work = _work(cards)
    n = work.n
    dealer = comb(n - 6, 4)
    total = np.zeros(kernels.S_SIZE, dtype=np.int64)
    decisions = np.zeros((n // 4, comb(n - 1, 5)), dtype=np.uint8)
    by_upcard: list[Fraction] = []
    raises: list[Fraction] = []
    for rank in range(n // 4):
        decisions[rank], stats = count_upcard(
            work, 4 * rank, units=units, multiple=multiple, strategy=STRATEGIES[strategy]
        )
        total += 4 * stats
        by_upcard.append(_ev(stats, dealer, units, multiple))
        raises.append(Fraction(int(stats[kernels.S_RAISED]), int(stats[kernels.S_HANDS])))
        if on_progress is not None:
            on_progress(rank + 1, n // 4)
    hands = comb(n, 5) * (n - 5)
    assert int(total[kernels.S_HANDS]) == hands, "every player hand meets every up card"
    return ExactResult(
        strategy=strategy,
        multiple=multiple,
        paytable=paytable,
        deck=cards,
        combinations=hands * dealer,
        ev_per_ante=_ev(total, dealer, units, multiple),
        raise_probability=Fraction(int(total[kernels.S_RAISED]), hands),
        wins=tuple(int(total[kernels.S_WIN + c]) for c in HandCategory),
        not_qualified=int(total[kernels.S_NQ]),
        ties=int(total[kernels.S_TIE]),
        losses=int(total[kernels.S_LOSE]),
        folds=int(total[kernels.S_FOLDED]) * dealer,
        decisions=decisions,
        by_upcard=tuple(by_upcard),
        raises_by_upcard=tuple(raises),
    )


def _ev(
    stats: npt.NDArray[np.int64], dealer: int, units: tuple[int, tuple[int, ...]], multiple: int
) -> Fraction:
    """The EV per Ante of the situations summed in ``stats``."""
    scale, odds = units
    s = [int(x) for x in stats]
    total = s[kernels.S_NQ] * scale - s[kernels.S_FOLDED] * dealer * scale
    total -= s[kernels.S_LOSE] * (1 + multiple) * scale
    for c, pay in zip(HandCategory, odds, strict=True):
        total += s[kernels.S_WIN + c] * (scale + multiple * pay)
    return Fraction(total, s[kernels.S_HANDS] * dealer * scale)
