"""Exact moments of a UTH round: the shipped outcomes against independent figures, the
variance against the project's simulator, and (slow) against a fresh exact run."""

from __future__ import annotations

import math
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from croupier.analysis.uth import DEFAULT_BLIND, DEFAULT_TRIPS, analyze_exact, simulate
from croupier.analysis.uth.exact import trips_return
from croupier.analysis.uth.moments import (
    UthOutcomes,
    blind_key,
    exact_outcomes,
    from_exact,
    load_default_outcomes,
    moments,
)
from croupier.analysis.uth.strategy import load_summary
from croupier.errors import ConfigError
from croupier.evaluator import HandCategory, categories, enumerate7_histogram

THREE_RANKS = [c for c in range(52) if c // 4 >= 10]


def test_shipped_outcomes_match_the_shipped_summary() -> None:
    outcomes = load_default_outcomes()
    m = moments(outcomes, DEFAULT_TRIPS)
    assert sum(p for _, p, _ in outcomes.outcomes) == 1
    summary = load_summary()
    assert m.ev_main == Fraction(str(summary["ev_per_ante"]))
    assert m.trips_return == Fraction(str(summary["trips"]))
    assert round(float(m.return_per_ante), 6) == 0.978150  # spec tables: 97.8150 % per Ante


def test_final_hand_distribution_is_the_seven_card_one() -> None:
    """The outcome's hand is the player's 7-card hand: its distribution is the full deck's."""
    hist = enumerate7_histogram()
    cats = categories(np.arange(1, hist.shape[0]))
    by_hand: dict[HandCategory, Fraction] = {}
    for hand, p, _ in load_default_outcomes().outcomes:
        by_hand[hand] = by_hand.get(hand, Fraction(0)) + p
    for cat in HandCategory:
        count = int(hist[1:][cats == cat].sum())
        assert by_hand.get(cat, Fraction(0)) == Fraction(count, comb(52, 7)), cat


def test_trips_moments_follow_the_trips_table() -> None:
    outcomes = load_default_outcomes()
    changed = {**DEFAULT_TRIPS, HandCategory.FLUSH: (6, 1), HandCategory.STRAIGHT: (5, 1)}
    base, other = moments(outcomes, DEFAULT_TRIPS), moments(outcomes, changed)
    assert other.ev_main == base.ev_main and other.var_main == base.var_main
    p_flush = Fraction(4_047_644, comb(52, 7))
    p_straight = Fraction(6_180_020, comb(52, 7))
    assert other.ev_trips - base.ev_trips == -p_flush + p_straight
    assert base.trips_return == Fraction(6455243, 6689228)  # README: 96.5021 %


def test_variance_against_the_simulator() -> None:
    """E[net^2] of 2 million simulated rounds (optimal play) within 4.5 standard errors of
    the exact value; the standard error from the exact fourth moment."""
    outcomes = load_default_outcomes()
    m = moments(outcomes, DEFAULT_TRIPS)
    result = simulate(2_000_000, seed=16, strategy="optimal", task_rounds=1 << 19)
    n = result.rounds
    second = Fraction(0)
    fourth = Fraction(0)
    for _, p, net in outcomes.outcomes:
        second += p * net**2
        fourth += p * net**4
    simulated = result.sums[2] / (n * result.scale**2)
    se = math.sqrt(float(fourth - second**2) / n)
    assert abs(simulated - float(second)) < 4.5 * se, (simulated, float(second), se)
    trips_second = result.sums[7] / (n * result.trips_scale**2)
    exact_trips_second = float(m.var_trips + m.ev_trips**2)
    assert trips_second == pytest.approx(exact_trips_second, rel=0.05)
    assert math.sqrt(float(m.var_main)) == pytest.approx(4.94, abs=0.005)


def test_small_deck_outcomes_agree_with_the_run() -> None:
    result = analyze_exact(deck=THREE_RANKS)
    m = moments(from_exact(result), DEFAULT_TRIPS)
    assert m.ev_main == result.ev_per_ante
    cats = [Fraction(0)] * len(HandCategory)
    for o in result.outcomes:
        cats[o.hand] += o.probability
    assert m.trips_return == trips_return([int(c * result.deals) for c in cats])
    assert m.var_main > 0 and m.var_trips > 0


def test_round_trip_and_bad_tables() -> None:
    outcomes = load_default_outcomes()
    assert UthOutcomes.from_json(outcomes.to_json()) == outcomes
    with pytest.raises(ConfigError):
        moments(outcomes, {HandCategory.FLUSH: (3, 0)})
    with pytest.raises(ConfigError):
        blind_key({HandCategory.FLUSH: (-1, 1)})
    ante, trips = 1000, 500
    mean, var = moments(outcomes, DEFAULT_TRIPS).box(ante, trips)
    assert mean == pytest.approx(ante * -0.0218497 + trips * -0.0349794, rel=1e-4)
    assert var > ante**2 * 4.9**2


@pytest.mark.slow
def test_shipped_outcomes_are_a_fresh_runs() -> None:
    assert exact_outcomes(blind_key(DEFAULT_BLIND)) == load_default_outcomes()
