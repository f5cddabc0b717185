"""The simulator: inside its interval of the exact edge, reproducible, and dealing and
settling rounds as the engine does."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction

import pytest

from croupier.analysis.caribbean import decision, load_summary, simulate
from croupier.analysis.caribbean.simulate import deal_and_settle
from croupier.cards import DECK, cards_from_ids
from croupier.deck import Shoe
from croupier.errors import ConfigError
from croupier.games.caribbean import (
    CaribbeanConfig,
    CaribbeanRound,
    Deal,
    Dealing,
    Fold,
    PlaceBets,
    Raise,
)

EXACT = Fraction(load_summary()["exact"]["ev_per_ante"])
RAISE = Fraction(load_summary()["exact"]["raise_probability"])


def test_the_simulated_edge_is_inside_its_interval_of_the_exact() -> None:
    result = simulate(2_000_000, seed=2026, task_rounds=500_000)
    low, high = result.ci_per_ante
    assert low < EXACT < high
    assert abs(result.raise_rate - float(RAISE)) < 0.002


def test_reproducible_whatever_the_workers() -> None:
    base = simulate(200_000, seed=9, task_rounds=50_000)
    with ThreadPoolExecutor(2) as pool:
        threaded = simulate(200_000, seed=9, task_rounds=50_000, executor=pool)
    assert threaded.sums == base.sums
    assert simulate(200_000, seed=10, task_rounds=50_000).sums != base.sums
    with pytest.raises(ConfigError):
        simulate(1, seed=1)


def test_the_simulator_settles_rounds_as_the_engine_does() -> None:
    cards, nets = deal_and_settle(500, seed=4)
    config = CaribbeanConfig(dealing=Dealing.HANDS)
    for row, net in zip(cards.tolist(), nets.tolist(), strict=True):
        top = cards_from_ids(row)
        shoe = Shoe(top + tuple(c for c in DECK if c not in top))
        rnd = CaribbeanRound(config, shoe)
        rnd.apply(PlaceBets(seat=0, ante=100))
        rnd.apply(Deal())
        hand, up = rnd.hand(0), rnd.upcard
        assert hand == top[:5] and up == top[9]
        rnd.apply(Raise(seat=0) if decision(hand, up) else Fold(seat=0))
        assert rnd.results[0].net == 100 * net
