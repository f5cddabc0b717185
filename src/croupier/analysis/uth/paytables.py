"""The pay tables of the analysis: plain data, a mapping from hand category to an integer ratio.

A ratio ``(numerator, denominator)`` pays ``numerator / denominator`` to one; a category
missing from the Blind table pushes on a win, one missing from the Trips table loses
(spec/uth.md "Showdown"). The lead's engine config passes its own tables in the same shape.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from math import lcm

from croupier.errors import ConfigError
from croupier.evaluator import HandCategory
from croupier.games.paytables import PayTable as EnginePayTable

__all__ = [
    "DEFAULT_BLIND",
    "DEFAULT_TRIPS",
    "EXACT_UNITS_MAX",
    "PayTable",
    "check_exact_blind",
    "check_paytable",
    "from_engine",
    "ratio",
    "units",
]

PayTable = Mapping[HandCategory, tuple[int, int]]
"""Category -> (numerator, denominator)."""

DEFAULT_BLIND: PayTable = {
    HandCategory.ROYAL_FLUSH: (500, 1),
    HandCategory.STRAIGHT_FLUSH: (50, 1),
    HandCategory.FOUR_OF_A_KIND: (10, 1),
    HandCategory.FULL_HOUSE: (3, 1),
    HandCategory.FLUSH: (3, 2),
    HandCategory.STRAIGHT: (1, 1),
}
"""spec/uth.md "Showdown": the Blind table (a win with anything lower pushes)."""

DEFAULT_TRIPS: PayTable = {
    HandCategory.ROYAL_FLUSH: (50, 1),
    HandCategory.STRAIGHT_FLUSH: (40, 1),
    HandCategory.FOUR_OF_A_KIND: (30, 1),
    HandCategory.FULL_HOUSE: (8, 1),
    HandCategory.FLUSH: (7, 1),
    HandCategory.STRAIGHT: (4, 1),
    HandCategory.THREE_OF_A_KIND: (3, 1),
}
"""spec/uth.md "Showdown": the Trips table (below three of a kind loses)."""


def check_paytable(table: PayTable, *, name: str) -> None:
    """Raise :class:`ConfigError` unless every entry is a category and a non-negative ratio."""
    for category, entry in table.items():
        if not isinstance(category, HandCategory):
            raise ConfigError(f"{name} pay table key {category!r} is not a HandCategory")
        if (
            not isinstance(entry, tuple)
            or len(entry) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in entry)
            or entry[0] < 0
            or entry[1] <= 0
        ):
            raise ConfigError(
                f"{name} pay for {category.label} must be (numerator, denominator) >= 0, not {entry!r}"
            )


EXACT_UNITS_MAX = 100_000
"""The most one deal may move in the exact analysis, in units of 1/``scale`` Ante (``scale``
the least common multiple of the Blind's denominators): its 64-bit sums run over all
2.78 x 10^13 deals, so a deal's worst value (Ante, Blind, a 4x Play and the best Blind pay)
must stay below 9.2 x 10^18 / 2.78 x 10^13 = 331,000 units; this bound keeps a factor three
in hand. The spec's table needs 1,012 (3:2 gives scale 2; 500:1 is 1,000 units)."""


def check_exact_blind(table: PayTable) -> None:
    """Raise :class:`ConfigError` unless the exact analysis can count ``table`` in 64-bit
    integers (:data:`EXACT_UNITS_MAX`): a Blind line paying 10^15:1, or denominators whose
    least common multiple is huge, would overflow its sums.

    >>> check_exact_blind(DEFAULT_BLIND)
    >>> check_exact_blind({HandCategory.ROYAL_FLUSH: (10**6, 1)})
    Traceback (most recent call last):
    ...
    croupier.errors.ConfigError: the exact analysis cannot count this blind pay table in 64-bit integers: it needs 1000006 units per deal (lcm of the denominators 1, best line 1000000:1), at most 100000
    """
    check_paytable(table, name="blind")
    scale, pays = units(table)
    need = 6 * scale + max(pays, default=0)
    if need > EXACT_UNITS_MAX:
        best = max(table.values(), key=lambda e: Fraction(*e), default=(0, 1))
        raise ConfigError(
            "the exact analysis cannot count this blind pay table in 64-bit integers: it "
            f"needs {need} units per deal (lcm of the denominators {scale}, best line "
            f"{best[0]}:{best[1]}), at most {EXACT_UNITS_MAX}"
        )


def ratio(table: PayTable, category: HandCategory) -> Fraction:
    """What ``table`` pays to one for ``category`` (0 when absent)."""
    num, den = table.get(category, (0, 1))
    return Fraction(num, den)


def units(table: PayTable) -> tuple[int, list[int]]:
    """The unit scale (lcm of the denominators) and each category's pay in units of 1/scale."""
    scale = lcm(*(den for _, den in table.values())) if table else 1
    pays = [int(ratio(table, c) * scale) for c in HandCategory]
    return scale, pays


def from_engine(table: EnginePayTable) -> dict[HandCategory, tuple[int, int]]:
    """The engine's :class:`croupier.games.paytables.PayTable` as analysis data.

    >>> from croupier.games.uth.config import DEFAULT_BLIND as ENGINE_BLIND
    >>> from_engine(ENGINE_BLIND) == dict(DEFAULT_BLIND)
    True
    """
    return {line.category: (line.numerator, line.denominator) for line in table.lines}
