"""The progressive side bet's exact return against published figures (usvegas.com, "The
Jackpot": with flush / full house / four of a kind paying 50 / 75 / 100 "the expected return
per $1 jackpot bet is approximately $0.23 plus 2.924 cents for each $10,000 in the jackpot";
paying 100 / 250 / 500, "approximately $0.68")."""

from __future__ import annotations

from fractions import Fraction

import pytest

from croupier.analysis.caribbean import progressive_return
from croupier.errors import ConfigError
from croupier.games.caribbean import ProgressiveTable


def table(flush: int, full: int, quads: int) -> ProgressiveTable:
    return ProgressiveTable.from_mapping(
        {
            "royal_flush": "100%",
            "straight_flush": "10%",
            "four_of_a_kind": quads,
            "full_house": full,
            "flush": flush,
        }
    )


def test_the_fixed_prizes_return_what_is_published() -> None:
    assert round(float(progressive_return(table(50, 75, 100), bet=1, jackpot=0)), 2) == 0.23
    assert round(float(progressive_return(table(100, 250, 500), bet=1, jackpot=0)), 2) == 0.68


def test_the_meter_adds_its_share_of_royals_and_straight_flushes() -> None:
    base = progressive_return(table(50, 75, 100), bet=1, jackpot=0)
    rich = progressive_return(table(50, 75, 100), bet=1, jackpot=100_000)
    # four royals take 100 % of the meter, 36 straight flushes 10 % each
    assert rich - base == Fraction(100_000 * 4 + 10_000 * 36, 2_598_960)
    per_10000 = progressive_return(table(50, 75, 100), bet=1, jackpot=10_000) - base
    assert round(float(per_10000) * 100, 3) == 2.924  # cents per 1 bet


def test_bad_bets_are_refused() -> None:
    with pytest.raises(ConfigError):
        progressive_return(table(50, 75, 100), bet=0, jackpot=0)
