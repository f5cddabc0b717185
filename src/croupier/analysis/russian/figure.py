"""Russian Poker's theoretical return as the operator's figures use it (the table's theory,
:mod:`croupier.server.tables.russian`; the reports and the return monitor): the exact EV per
Ante of one open box played optimally under the spec's default rules, with the standard
deviation per round the 95 % interval of :mod:`croupier.analysis.returns` needs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from croupier.analysis.returns import Z95

__all__ = ["RUSSIAN_ANALYSIS", "RUSSIAN_EV_PER_ANTE", "RussianFigure"]


@dataclass(frozen=True, slots=True, kw_only=True)
class RussianFigure:
    """Russian Poker's result per Ante for one open box played optimally under the spec's
    default rules, no cap: the exact return (issue 32, every first hand, option, draw and
    dealer hand enumerated with card removal; ``croupier russian analyze --exact``, shipped
    in ``analysis/russian/data/exact.json``): house edge
    153303270522442352843/6273927694914031152000 = 2.44350 % of the Ante, known exactly, so
    its range is the point. The standard deviation per round is that of the exact strategy
    played over 100 M simulated rounds (README: 95 % interval 2.4325 %-2.5604 %, its half
    width over z times the square root of the rounds: 3.263 Antes)."""

    ev_per_ante: float
    ev_low: float
    ev_high: float
    sd_per_ante: float
    rounds: int
    """The simulated rounds the standard deviation comes from."""
    exact: bool = False
    """Whether ``ev_per_ante`` is exact (else a simulated figure with its 95 % range)."""


RUSSIAN_EV_PER_ANTE = Fraction(-153303270522442352843, 6273927694914031152000)
"""The player's exact EV per Ante at Russian Poker (spec rules, optimal play, no cap)."""
_RUSSIAN_EV = float(RUSSIAN_EV_PER_ANTE)

RUSSIAN_ANALYSIS = RussianFigure(
    ev_per_ante=_RUSSIAN_EV,
    ev_low=_RUSSIAN_EV,
    ev_high=_RUSSIAN_EV,
    sd_per_ante=(0.025604 - 0.024325) / 2 / Z95 * math.sqrt(100_000_000),
    rounds=100_000_000,
    exact=True,
)
