"""The RNG battery: its null distributions are right, it passes the real shufflers and it
fails broken ones.

Sample sizes: 3,000 decks. Against the naive swap-with-any shuffle the card x position
chi-square (scaled by 51/52) has noncentrality 1,973 at that size (computed exactly from the shuffle's
card-position matrix): its statistic is about 16 standard deviations above the 99 % critical
value, so the chance it passes is below 1e-20. The simulated shufflers use fixed seeds, so
those tests are deterministic. The live CSPRNG cannot be seeded: a perfect shuffler fails at
least one of the five tests in 4.9 % of samples (1 - 0.99^5), so that test draws up to three
fresh samples and needs one to pass: a false alarm there has probability about 1.2e-4.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
import pytest
from scipy.stats import chi2, kstest, norm

from croupier.analysis.distributions import chi2_sf, normal_sf, two_sided_p
from croupier.analysis.rng import (
    battery,
    card_position_test,
    check_decks,
    median_runs_test,
    runs_moments,
    serial_correlation_test,
    up_down_runs_test,
)
from croupier.cards import card_ids
from croupier.deck import NumpySource, shuffled
from croupier.errors import ConfigError

DECKS = 3000


def _decks(shuffle: Any, count: int = DECKS) -> np.ndarray:
    return np.array([shuffle() for _ in range(count)], dtype=np.int64)


def _naive(seed: int) -> Any:
    """The classic broken shuffle: every position swaps with any position (n^n paths onto
    n! orders, so some orders come up more often than others)."""
    rng = np.random.default_rng(seed)

    def shuffle() -> list[int]:
        order = list(range(52))
        for i, j in enumerate(rng.integers(0, 52, size=52)):
            order[i], order[j] = order[j], order[i]
        return order

    return shuffle


class _ModuloBiased:
    """A source reducing 6 random bits modulo n: small values come up twice as often."""

    def __init__(self, seed: int) -> None:
        self._gen = np.random.default_rng(seed)

    def randbelow(self, n: int) -> int:
        return int(self._gen.integers(0, 64)) % n


def _riffled_once(seed: int) -> Any:
    """One riffle (Gilbert-Shannon-Reeds) of a new deck: far too few shuffles."""
    rng = np.random.default_rng(seed)

    def shuffle() -> list[int]:
        cut = int(rng.binomial(52, 0.5))
        left, right = list(range(cut)), list(range(cut, 52))
        out = []
        while left or right:
            if rng.random() < len(left) / (len(left) + len(right)):
                out.append(left.pop(0))
            else:
                out.append(right.pop(0))
        return out

    return shuffle


# -- the distributions ------------------------------------------------------------------------


@pytest.mark.parametrize("df", [1, 2, 7, 51, 2601])
def test_chi_square_tail_matches_scipy(df: int) -> None:
    for x in np.linspace(0.1, 3 * df + 40, 60):
        ours, theirs = chi2_sf(float(x), df), float(chi2.sf(x, df))
        assert ours == pytest.approx(theirs, rel=1e-9, abs=1e-14)


def test_normal_tails_match_scipy() -> None:
    for z in np.linspace(-8, 8, 81):
        assert normal_sf(float(z)) == pytest.approx(float(norm.sf(z)), rel=1e-12, abs=1e-300)
        assert two_sided_p(float(z)) == pytest.approx(
            float(2 * norm.sf(abs(z))), rel=1e-12, abs=1e-300
        )
    with pytest.raises(ValueError, match="degrees of freedom"):
        chi2_sf(1.0, 0)


# -- the exact moments, against every permutation of a small deck ------------------------------


@pytest.mark.parametrize("n", [6, 7])
def test_runs_moments_match_enumeration(n: int) -> None:
    perms = np.array(list(itertools.permutations(range(n))))
    high = perms >= n // 2
    median_runs = 1 + (high[:, 1:] != high[:, :-1]).sum(axis=1)
    assert (median_runs.mean(), median_runs.var()) == pytest.approx(
        runs_moments(n // 2, n - n // 2)
    )
    rising = perms[:, 1:] > perms[:, :-1]
    up_down = 1 + (rising[:, 1:] != rising[:, :-1]).sum(axis=1)
    assert up_down.mean() == pytest.approx((2 * n - 1) / 3)
    assert up_down.var() == pytest.approx((16 * n - 29) / 90)
    for lag in (1, 2):
        centred = perms - (n - 1) / 2
        sums = (centred[:, :-lag] * centred[:, lag:]).sum(axis=1)
        assert sums.mean() == pytest.approx(-(n - lag) * (n * n - 1) / 12 / (n - 1))


def test_p_values_are_uniform_for_random_permutations() -> None:
    """Under the null each test's p-value is uniform: 400 samples of 400 NumPy permutations."""
    rng = np.random.default_rng(2026)
    p_values: dict[str, list[float]] = {}
    for _ in range(400):
        decks = rng.permuted(np.tile(np.arange(52), (400, 1)), axis=1)
        for test in battery(decks).tests:
            assert test.p_value is not None
            p_values.setdefault(test.name, []).append(test.p_value)
    for name, values in p_values.items():
        assert kstest(values, "uniform").pvalue > 0.001, name
        assert 0 <= sum(v < 0.01 for v in values) <= 12, name  # about 4 expected


# -- the real shufflers pass ----------------------------------------------------------------


def test_the_seeded_shuffler_passes() -> None:
    # Any fixed seed is a 4.9 % gamble: seeds 0-29 gave two chi-square false alarms (16 and
    # 17, p = 0.003 and 0.002), what the 99 % level allows; this seed is one of the others.
    rng = np.random.default_rng(2026)
    report = battery(_decks(lambda: card_ids(shuffled(NumpySource(rng)))))
    assert report.passed is True, report.tests
    assert report.decks == DECKS and report.counts.sum() == DECKS * 52
    assert report.false_alarm_rate == pytest.approx(1 - 0.99**5)


def test_the_live_csprng_shuffler_passes() -> None:
    from croupier.server.rng import live_shoe

    reports = []
    for _ in range(3):  # a fresh sample after a false alarm (see the module docstring)
        reports.append(battery(_decks(lambda: card_ids(live_shoe().order))))
        if reports[-1].passed:
            break
    assert reports[-1].passed is True, [r.tests for r in reports]


# -- broken shufflers fail -------------------------------------------------------------------


def test_the_naive_swap_shuffle_fails() -> None:
    report = battery(_decks(_naive(7)))
    assert report.passed is False
    chi = report.tests[0]
    assert chi.name == "card x position chi-square" and chi.passed is False
    assert chi.p_value is not None and chi.p_value < 1e-12


def test_a_modulo_biased_source_fails() -> None:
    source = _ModuloBiased(11)  # with the real Fisher-Yates
    report = battery(_decks(lambda: card_ids(shuffled(source))))
    assert report.passed is False and report.tests[0].passed is False


def test_one_riffle_fails_the_runs_and_correlation_tests() -> None:
    report = battery(_decks(_riffled_once(5), count=500))
    failed = {t.name for t in report.tests if t.passed is False}
    assert {"runs up and down", "serial correlation, lag 1"} <= failed


# -- input and small samples -----------------------------------------------------------------


def test_too_few_decks_is_not_a_verdict() -> None:
    rng = np.random.default_rng(3)
    decks = np.array([rng.permutation(52) for _ in range(100)])
    chi = card_position_test(decks)
    assert chi.passed is None and chi.p_value is None and "260" in chi.note
    assert median_runs_test(decks).passed is not None
    assert battery(decks).passed is None
    assert battery(np.zeros((0, 52), dtype=np.int64)).passed is None
    assert up_down_runs_test(decks[:10]).passed is None
    assert math.isnan(serial_correlation_test(decks[:10]).statistic)


def test_malformed_decks_are_refused() -> None:
    with pytest.raises(ConfigError, match="deck 1 is not a permutation"):
        check_decks(np.array([np.arange(52), np.zeros(52, dtype=int)]))
    with pytest.raises(ConfigError, match="shape"):
        check_decks(np.arange(52))
    with pytest.raises(ConfigError, match="confidence"):
        battery(np.array([np.arange(52)]), confidence=1.5)
