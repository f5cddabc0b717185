"""The theoretical return of a table as its rules stand (``GET /api/operator/tables``).

- UTH: exact, from the project's exact analysis for the table's own pay tables (the theory
  cache of :mod:`croupier.server.reports.theory`: the spec's Blind table ships computed, any
  other takes one exact run in a worker process and is ``computing`` until then; a Trips
  change needs no run). The analysis plays the spec's Play multiples (4x/3x, 2x, 1x) with
  Trips paid whatever the dealer holds; a table with other options has no exact figure here.
- Russian Poker: the analysed figure with its 95 % interval (250 M simulated rounds, spec
  rules), for tables whose rules are the analysed ones; the Bonus exactly for any table.
- Hold'em: the house takes rake only, so the figure is the rake.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any

from croupier.analysis.returns import RUSSIAN_ANALYSIS, Z95
from croupier.analysis.russian import bonus_return
from croupier.analysis.uth.moments import BlindKey, UthMoments, moments
from croupier.analysis.uth.paytables import from_engine
from croupier.games.russian import RussianConfig
from croupier.games.uth import UthConfig
from croupier.games.uth.config import PlayMultiples
from croupier.server.reports.theory import TheoryBook
from croupier.server.tables.russian import ANALYSED_RULES as RUSSIAN_ANALYSED_RULES

__all__ = ["theoretical_return"]


def _fraction(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


@lru_cache(maxsize=256)
def _uth_moments(
    book: TheoryBook, blind: BlindKey, trips: tuple[tuple[int, int, int], ...]
) -> UthMoments:
    from croupier.evaluator import HandCategory

    lookup = book.uth({HandCategory(c): (n, d) for c, n, d in blind})
    assert lookup.outcomes is not None
    return moments(lookup.outcomes, {HandCategory(c): (n, d) for c, n, d in trips})


def _key(table: Mapping[Any, tuple[int, int]]) -> tuple[tuple[int, int, int], ...]:
    return tuple(sorted((int(c), n, d) for c, (n, d) in table.items()))


def _uth(rules: Mapping[str, Any], book: TheoryBook) -> dict[str, Any]:
    config = UthConfig.from_dict({k: v for k, v in rules.items() if k != "max_seats"})
    base: dict[str, Any] = {"method": "exact", "per": "ante"}
    if config.play_multiples != PlayMultiples() or config.trips_needs_win:
        return {
            **base,
            "status": "unavailable",
            "reason": "the exact analysis here plays the spec's Play multiples (4x/3x, 2x, 1x) "
            "with Trips paid whatever the dealer holds; this table changes that",
        }
    blind, trips = from_engine(config.blind_paytable), from_engine(config.trips_paytable)
    lookup = book.uth(blind)
    if lookup.outcomes is None:
        return {**base, "status": lookup.status, "reason": lookup.reason}
    m = _uth_moments(book, _key(blind), _key(trips))
    return {
        **base,
        "status": "ready",
        "return": float(m.return_per_ante),
        "return_exact": _fraction(m.return_per_ante),
        "house_edge": float(-m.ev_main),
        "sd_per_round": float(m.var_main) ** 0.5,
        "trips_return": float(m.trips_return),
        "trips_return_exact": _fraction(m.trips_return),
    }


def _russian(rules: Mapping[str, Any]) -> dict[str, Any]:
    config = RussianConfig.from_dict({k: v for k, v in rules.items() if k != "name"})
    spec = RussianConfig().to_dict()
    mine = config.to_dict()
    fig = RUSSIAN_ANALYSIS
    out: dict[str, Any] = {
        "method": "analysed",
        "per": "ante",
        "bonus_return": 1 + bonus_return(config),
    }
    differ = [k for k in RUSSIAN_ANALYSED_RULES if mine.get(k) != spec.get(k)]
    if differ:
        return {
            **out,
            "status": "unavailable",
            "reason": f"the analysed figure is for the spec's rules; this table changes {differ}",
        }
    return {
        **out,
        "status": "ready",
        "return": 1 + fig.ev_per_ante,
        "house_edge": -fig.ev_per_ante,
        "interval": [1 + fig.ev_low, 1 + fig.ev_high],
        "confidence": 0.95,
        "z": Z95,
        "rounds_simulated": fig.rounds,
    }


def theoretical_return(game: str, rules: Mapping[str, Any], *, book: TheoryBook) -> dict[str, Any]:
    """The figure for a table of ``game`` with ``rules`` (its factory's ``describe()``)."""
    if game == "uth":
        return _uth(rules, book)
    if game == "russian":
        return _russian(rules)
    if game == "holdem":
        return {
            "method": "rake",
            "status": "none",
            "rake": {
                "percent": rules.get("rake_percent"),
                "cap": rules.get("rake_cap"),
                "no_flop_no_drop": rules.get("no_flop_no_drop"),
            },
        }
    return {"method": "none", "status": "unavailable", "reason": f"no theory for {game!r}"}
