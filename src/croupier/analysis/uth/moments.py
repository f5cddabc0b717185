"""Mean, variance and covariance of a UTH round's result, from the exact analysis.

:func:`~croupier.analysis.uth.exact.analyze_exact` counts every deal by the path played, the
result and the player's final hand; each such outcome has one net result for the main game
(Ante + Blind + Play, per unit Ante). That is the whole distribution of the main game's
result under optimal play, jointly with the player's final hand, which alone settles Trips
(spec/uth.md "Showdown": Trips pays on the player's own hand, even folded). So the mean and
variance of the main game, of Trips under any Trips pay table, and their covariance are
exact fractions.

The outcomes for the spec's Blind table ship as ``data/outcomes.json`` (written from a full
run by :func:`write_default_outcomes`; a slow test checks them against a fresh run); other
Blind tables take a full exact run (15-60 s on two cores), which the server does in a worker
process.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from croupier.analysis.uth.exact import FULL_DECK, ExactResult, PreflopEntry, analyze_exact
from croupier.analysis.uth.paytables import (
    DEFAULT_BLIND,
    PayTable,
    check_exact_blind,
    check_paytable,
    ratio,
)
from croupier.evaluator import HandCategory

__all__ = [
    "UthMoments",
    "UthOutcomes",
    "blind_key",
    "exact_outcomes",
    "load_default_outcomes",
    "moments",
    "write_default_outcomes",
]

BlindKey = tuple[tuple[int, int, int], ...]
"""A Blind pay table as sorted (category, numerator, denominator): hashable, picklable."""


def blind_key(table: PayTable) -> BlindKey:
    """The key of a Blind pay table (for caches).

    Raises:
        ConfigError: a malformed pay table, or one the exact analysis cannot count.
    """
    check_exact_blind(table)
    return tuple(sorted((int(c), n, d) for c, (n, d) in table.items()))


@dataclass(frozen=True, slots=True, kw_only=True)
class UthOutcomes:
    """The main game's result distribution jointly with the player's final hand."""

    blind: BlindKey
    outcomes: tuple[tuple[HandCategory, Fraction, Fraction], ...]
    """(final hand, probability, net per unit Ante) of each way a deal can end."""
    average_total_bet: Fraction | None = None
    """The main game's mean stake per unit Ante under optimal play (Ante + Blind + Play),
    for the return per total bet (the element of risk); ``None`` where it was not kept."""
    preflop: tuple[PreflopEntry, ...] = field(default=(), compare=False)
    """The run's 169 pre-flop EVs (the strategy advisor's table for this Blind table; not
    kept in the JSON: the shipped table's are the strategy data's)."""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "blind": [list(entry) for entry in self.blind],
            "outcomes": [[int(h), str(p), str(n)] for h, p, n in self.outcomes],
        }
        if self.average_total_bet is not None:
            data["average_total_bet"] = str(self.average_total_bet)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> UthOutcomes:
        mean_bet = data.get("average_total_bet")
        return cls(
            blind=tuple((int(c), int(n), int(d)) for c, n, d in data["blind"]),
            outcomes=tuple(
                (HandCategory(int(h)), Fraction(p), Fraction(n)) for h, p, n in data["outcomes"]
            ),
            average_total_bet=None if mean_bet is None else Fraction(mean_bet),
        )


def from_exact(result: ExactResult) -> UthOutcomes:
    """The outcomes of an exact run."""
    return UthOutcomes(
        blind=blind_key(result.blind_table),
        outcomes=tuple((o.hand, o.probability, o.net) for o in result.outcomes),
        average_total_bet=result.average_total_bet,
        preflop=result.preflop,
    )


def exact_outcomes(blind: BlindKey, *, deck: tuple[int, ...] = FULL_DECK) -> UthOutcomes:
    """Run the exact analysis for a Blind table (a picklable entry point for a worker
    process); ``deck`` reduced only in tests."""
    table = {HandCategory(c): (n, d) for c, n, d in blind}
    return from_exact(analyze_exact(blind=table, deck=deck))


@dataclass(frozen=True, slots=True, kw_only=True)
class UthMoments:
    """Per unit Ante (main game) and per unit Trips, the player's view."""

    ev_main: Fraction
    var_main: Fraction
    ev_trips: Fraction
    var_trips: Fraction
    cov: Fraction
    """Covariance of the main game's and Trips' results (both per unit)."""

    @property
    def return_per_ante(self) -> Fraction:
        return 1 + self.ev_main

    @property
    def trips_return(self) -> Fraction:
        return 1 + self.ev_trips

    def box(self, ante: int, trips: int) -> tuple[float, float]:
        """Mean and variance of one box's net with these stakes (minor units)."""
        mean = ante * self.ev_main + trips * self.ev_trips
        var = ante * ante * self.var_main + trips * trips * self.var_trips
        var += 2 * ante * trips * self.cov
        return float(mean), float(var)


def moments(outcomes: UthOutcomes, trips: PayTable) -> UthMoments:
    """Exact moments under optimal play for the outcomes' Blind table and ``trips``.

    Raises:
        ConfigError: a malformed Trips pay table.
    """
    check_paytable(trips, name="trips")
    trips_net = {c: ratio(trips, c) if c in trips else Fraction(-1) for c in HandCategory}
    ev_m = sum((p * n for _, p, n in outcomes.outcomes), Fraction(0))
    ev_t = sum((p * trips_net[h] for h, p, _ in outcomes.outcomes), Fraction(0))
    e_mm = sum((p * n * n for _, p, n in outcomes.outcomes), Fraction(0))
    e_tt = sum((p * trips_net[h] ** 2 for h, p, _ in outcomes.outcomes), Fraction(0))
    e_mt = sum((p * n * trips_net[h] for h, p, n in outcomes.outcomes), Fraction(0))
    return UthMoments(
        ev_main=ev_m,
        var_main=e_mm - ev_m * ev_m,
        ev_trips=ev_t,
        var_trips=e_tt - ev_t * ev_t,
        cov=e_mt - ev_m * ev_t,
    )


_DATA = "outcomes.json"


@cache
def load_default_outcomes() -> UthOutcomes:
    """The shipped outcomes for the spec's Blind table."""
    text = resources.files("croupier.analysis.uth").joinpath("data", _DATA).read_text("utf-8")
    loaded = UthOutcomes.from_json(json.loads(text))
    assert loaded.blind == blind_key(DEFAULT_BLIND)
    if loaded.average_total_bet is None:
        # The same full run's strategy summary ships beside it (data/preflop.json).
        strategy = resources.files("croupier.analysis.uth").joinpath("data", "preflop.json")
        mean_bet = json.loads(strategy.read_text("utf-8")).get("average_total_bet")
        if mean_bet is not None:
            loaded = replace(loaded, average_total_bet=Fraction(mean_bet))
    return loaded


def write_default_outcomes(result: ExactResult, directory: Path) -> Path:
    """Write a full run's outcomes (spec Blind table) as the package data; returns the path."""
    if result.blind_table != DEFAULT_BLIND or result.deals != 1326 * 19600 * 1081 * 990:
        raise ValueError("the shipped outcomes come from a full run with the spec's Blind table")
    path = directory / _DATA
    path.write_text(json.dumps(from_exact(result).to_json(), indent=0) + "\n", encoding="utf-8")
    return path
