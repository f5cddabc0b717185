"""The simulator: agreement with the exact figures, reproducibility, the strategies' decisions."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction

import numpy as np
import pytest

from croupier.analysis.uth.advisor import advise
from croupier.analysis.uth.simulate import deal_and_settle, simulate
from croupier.analysis.uth.strategy import load_summary
from croupier.cards import cards_from_ids
from croupier.errors import ConfigError

EXACT = Fraction(str(load_summary()["ev_per_ante"]))
EXACT_BET = Fraction(str(load_summary()["average_total_bet"]))
EXACT_TRIPS = Fraction(str(load_summary()["trips"]))


def test_optimal_agrees_with_exact_within_ci() -> None:
    result = simulate(1_000_000, seed=2026, strategy="optimal", task_rounds=250_000)
    lo, hi = result.ci_per_ante
    assert lo < 1 + EXACT < hi
    lo, hi = result.ci_per_total_bet
    assert lo < 1 + EXACT / EXACT_BET < hi
    lo, hi = result.ci_trips
    assert lo < EXACT_TRIPS < hi
    assert abs(result.average_total_bet - float(EXACT_BET)) < 0.01
    assert result.trace[-1][0] == 1_000_000 and len(result.trace) == 4 * 4


def test_simple_strategy_plays_close_to_optimal() -> None:
    result = simulate(1_000_000, seed=7, strategy="simple")
    lo, hi = result.ci_per_ante
    # the basic strategy gives up a fraction of a percent: its CI reaches the exact return
    assert lo < 1 + EXACT + 0.002 and hi > 1 + EXACT - 0.01


def test_reproducible_whatever_the_workers() -> None:
    base = simulate(300_000, seed=99, strategy="simple", task_rounds=50_000)
    with ThreadPoolExecutor(3) as pool:
        threaded = simulate(300_000, seed=99, strategy="simple", task_rounds=50_000, executor=pool)
    assert threaded.sums == base.sums and threaded.trace == base.trace
    other = simulate(300_000, seed=100, strategy="simple", task_rounds=50_000)
    assert other.sums != base.sums


def test_reproducible_on_dask() -> None:
    distributed = pytest.importorskip("distributed")
    base = simulate(100_000, seed=5, strategy="optimal", task_rounds=25_000)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        on_dask = simulate(
            100_000,
            seed=5,
            strategy="optimal",
            task_rounds=25_000,
            executor=client.get_executor(),
        )
    assert on_dask.sums == base.sums


def test_optimal_decisions_are_the_advisors() -> None:
    cards, record, _ = deal_and_settle(60, seed=3, strategy="optimal")
    for row, rec in zip(cards, record, strict=True):
        hole = cards_from_ids(int(c) for c in row[0:2])
        flop = cards_from_ids(int(c) for c in row[4:7])
        board = cards_from_ids(int(c) for c in row[4:9])
        play = int(rec[3])
        pre = advise(hole).best
        assert (pre == "4x") == (play == 4)
        if play == 4:
            continue
        flop_best = advise(hole, flop).best
        assert (flop_best == "2x") == (play == 2)
        if play == 2:
            continue
        assert advise(hole, board).best == ("1x" if play == 1 else "fold")


def test_record_sums_match() -> None:
    cards, record, scale = deal_and_settle(10_000, seed=1, strategy="simple")
    assert np.unique(np.sort(cards, axis=1), axis=0).shape[0] == 10_000
    assert all(len(set(row.tolist())) == 9 for row in cards)
    result = simulate(10_000, seed=1, strategy="simple")
    assert int(record[:, :3].sum()) == result.sums[1]
    assert scale == result.scale


def test_bad_arguments() -> None:
    with pytest.raises(ConfigError):
        simulate(0, seed=1)
    with pytest.raises(ConfigError):
        simulate(10, seed=1, strategy="random")  # type: ignore[arg-type]


def test_simple_preflop_chart_is_the_optimal_one_for_the_spec_tables() -> None:
    from croupier.analysis.uth.simulate import _simple_4x
    from croupier.analysis.uth.strategy import load_preflop

    assert all((e.decision == "4x") == _simple_4x(e.hand) for e in load_preflop())
