"""Theoretical returns and the interval an observed return should fall in.

A table's *return* here is the players' return per unit of base stake: 1 + (net result) /
(sum of base stakes), where the base stake is what a box puts up before any decision (UTH:
Ante and Trips; Russian Poker: Ante and Bonus). The theoretical return is the same ratio
with each box's expected net; the 95 % interval adds +-1.96 standard deviations of the
day's total net (and, for a figure known only from simulation, its own 95 % range).

Within a round the boxes share the dealer's cards (and at a live UTH table the player's
too), so their results are positively correlated; their covariance is not known in general.
A round's standard deviation is taken as the sum of its boxes' (the largest it can be),
which is exact for one box a round or a shared hand played alike, and wider than needed
otherwise: the interval errs towards fewer false alarms. Rounds are independent.

The figures assume optimal play (UTH and Russian Poker: their exact analyses); players who
play worse return less, so a return below the interval may be poor play, not a fault. Payout
caps are ignored.

>>> tally = ReturnTally()
>>> tally.add_round([Box(base=100, net=-100, mean=-2.0, variance=2400.0)])
>>> figures = tally.figures()
>>> figures.actual, figures.theoretical, round(figures.low, 3), round(figures.high, 3)
(0.0, 0.98, 0.02, 1.94)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "Z95",
    "Box",
    "ReturnFigures",
    "ReturnTally",
]

Z95 = 1.959963984540054
"""The two-sided 95 % quantile of the standard normal."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Box:
    """One box's base stake and net result (minor units), and its theoretical mean and
    variance; ``mean_low``/``mean_high`` bound a mean known only within a range."""

    base: int
    net: int
    mean: float
    variance: float
    mean_low: float | None = None
    mean_high: float | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ReturnFigures:
    """Actual and theoretical return per unit of base stake, with the 95 % interval."""

    base: int
    actual: float | None
    theoretical: float | None
    low: float | None
    high: float | None
    sd: float
    """Standard deviation of the total net (minor units)."""


class ReturnTally:
    """Accumulates rounds (a mutable tally; pure arithmetic)."""

    __slots__ = ("_base", "_high", "_low", "_mean", "_net", "_var")

    def __init__(self) -> None:
        self._base = 0
        self._net = 0
        self._mean = self._low = self._high = self._var = 0.0

    def add_round(self, boxes: Sequence[Box]) -> None:
        """One round's boxes (see the module docstring for the correlation within a round)."""
        sd = 0.0
        for box in boxes:
            self._base += box.base
            self._net += box.net
            self._mean += box.mean
            self._low += box.mean if box.mean_low is None else box.mean_low
            self._high += box.mean if box.mean_high is None else box.mean_high
            sd += math.sqrt(max(box.variance, 0.0))
        self._var += sd * sd

    def figures(self, *, z: float = Z95) -> ReturnFigures:
        """The figures so far (``None`` where nothing was staked)."""
        if self._base == 0:
            return ReturnFigures(base=0, actual=None, theoretical=None, low=None, high=None, sd=0.0)
        sd = math.sqrt(self._var)
        base = self._base
        return ReturnFigures(
            base=base,
            actual=1 + self._net / base,
            theoretical=1 + self._mean / base,
            low=1 + (self._low - z * sd) / base,
            high=1 + (self._high + z * sd) / base,
            sd=sd,
        )
