"""Statistical tests of shuffles: is every order of the deck equally likely?

Pure functions over decks: an ``(N, n)`` integer array whose rows are permutations of
``0 .. n-1`` (card ids in dealing order, top card first). Each test returns a
:class:`TestResult` with its statistic, degrees of freedom, p-value and verdict at the
chosen confidence (99 % by default, the level gaming regulators ask for: GLI-11 and the
interactive-gaming standard GLI-19 require RNG outputs to pass tests such as chi-square,
runs and serial correlation at 99 % confidence; see ``docs/rng-audit.md``).

The battery (:func:`battery`):

- **card x position chi-square**: the count of each card at each position against N/n; a
  shuffle that favours some places for some cards fails it (the naive swap-with-any shuffle,
  modulo bias). Each deck is a permutation matrix, whose cells have covariance
  Q(x)Q/(n-1) with Q = I - J/n (a projection of rank (n-1)^2), so Pearson's sum
  X = sum (O - E)^2 / E is n/(n-1) times a chi-square with (n-1)^2 degrees of freedom, not
  a chi-square itself: the test uses X (n-1)/n. (The uncorrected sum has mean n(n-1) = 2,652
  instead of 2,601 and would fail a perfect shuffler several times too often.)
- **runs above/below the median** (Wald-Wolfowitz): in each deck, the number of runs of
  cards below and at-or-above the median id; exact mean and variance for a random order,
  summed over the decks (normal).
- **runs up and down**: the number of monotone runs in each deck; exact mean (2n-1)/3 and
  variance (16n-29)/90 for a random order (Levene and Wolfowitz), summed (normal).
- **serial correlation, lags 1 and 2**: the sum over a deck of (x_i - m)(x_{i+k} - m); its
  exact mean under a random order is -(n-k) s^2/(n-1) (two distinct places of a random
  permutation have covariance -s^2/(n-1)); the mean over the decks is compared with it
  using the decks' own spread (a z-test, valid for large N).

With five tests at 99 % each, a perfect shuffler fails at least one test in about 4.9 % of
audits (1 - 0.99^5): a single failure calls for a fresh sample, a shuffler that fails again
(or fails by a wide margin) is broken.

>>> import numpy as np
>>> rng = np.random.default_rng(1)
>>> decks = np.array([rng.permutation(52) for _ in range(2000)])
>>> report = battery(decks)
>>> report.passed, [t.name for t in report.tests][:2]
(True, ['card x position chi-square', 'runs above/below the median'])
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from croupier.analysis.distributions import chi2_sf, two_sided_p
from croupier.errors import ConfigError

__all__ = [
    "CONFIDENCE",
    "AuditReport",
    "TestResult",
    "battery",
    "card_position_counts",
    "card_position_test",
    "check_decks",
    "median_runs_test",
    "runs_moments",
    "serial_correlation_test",
    "up_down_runs_test",
]

CONFIDENCE = 0.99
"""The regulators' level: a test fails when its p-value is below 1 %."""
MIN_DECKS = 30
"""Below this many decks the normal approximations of the other tests are not used."""

Decks = npt.NDArray[np.integer]
ProgressCallback = Callable[[str], None]


@dataclass(frozen=True, slots=True, kw_only=True)
class TestResult:
    """One test's outcome."""

    __test__ = False  # not a pytest class

    name: str
    statistic: float
    """Chi-square for the chi-square test, z for the others."""
    df: int | None
    """Degrees of freedom (chi-square only)."""
    p_value: float | None
    """None when there were too few decks to test."""
    passed: bool | None
    """p >= 1 - confidence; None when there were too few decks."""
    note: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class AuditReport:
    """The battery's results."""

    decks: int
    confidence: float
    tests: tuple[TestResult, ...]
    counts: npt.NDArray[np.int64]
    """(card, position) counts, for a plot."""

    @property
    def passed(self) -> bool | None:
        """True when every test ran and passed; False when any failed; None otherwise."""
        verdicts = [t.passed for t in self.tests]
        if any(v is False for v in verdicts):
            return False
        return None if any(v is None for v in verdicts) else True

    @property
    def false_alarm_rate(self) -> float:
        """The chance that a perfect shuffler fails at least one of the tests that ran."""
        ran = sum(1 for t in self.tests if t.passed is not None)
        return 1.0 - self.confidence**ran


def check_decks(decks: Decks) -> npt.NDArray[np.int64]:
    """``decks`` as an int64 array after checking every row is a permutation of 0..n-1.

    Raises:
        ConfigError: not two-dimensional, or a row that is not a permutation.
    """
    array = np.asarray(decks, dtype=np.int64)
    if array.ndim != 2 or array.shape[1] < 4:
        raise ConfigError(f"decks must be an (N, n) array with n >= 4, not shape {array.shape}")
    n = array.shape[1]
    ok = (np.sort(array, axis=1) == np.arange(n)).all(axis=1)
    if not ok.all():
        bad = int(np.flatnonzero(~ok)[0])
        raise ConfigError(f"deck {bad} is not a permutation of 0..{n - 1}")
    return array


def _verdict(p: float, confidence: float) -> bool:
    return p >= 1.0 - confidence


def _too_few(name: str, need: int, have: int) -> TestResult:
    note = f"needs at least {need} decks, has {have}"
    return TestResult(name=name, statistic=math.nan, df=None, p_value=None, passed=None, note=note)


def card_position_counts(decks: Decks) -> npt.NDArray[np.int64]:
    """An (n, n) array: how often each card (row) was dealt at each position (column)."""
    array = np.asarray(decks, dtype=np.int64)
    n = array.shape[1]
    flat = array * n + np.arange(n)
    return np.bincount(flat.ravel(), minlength=n * n).reshape(n, n).astype(np.int64)


def card_position_test(decks: Decks, *, confidence: float = CONFIDENCE) -> TestResult:
    """Chi-square of the card x position counts against N/n each (Pearson's sum scaled by
    (n-1)/n for permutation data, (n-1)^2 degrees of freedom)."""
    name = "card x position chi-square"
    count, n = len(decks), np.asarray(decks).shape[1]
    if count < 5 * n:
        return _too_few(name, 5 * n, count)
    observed = card_position_counts(decks).astype(np.float64)
    expected = count / n
    pearson = float(((observed - expected) ** 2).sum() / expected)
    statistic = pearson * (n - 1) / n  # see the module docstring
    df = (n - 1) ** 2
    p = chi2_sf(statistic, df)
    return TestResult(
        name=name, statistic=statistic, df=df, p_value=p, passed=_verdict(p, confidence)
    )


def runs_moments(n_low: int, n_high: int) -> tuple[float, float]:
    """Mean and variance of the number of runs in a random order of ``n_low`` and ``n_high``
    items of two kinds (Wald and Wolfowitz 1940).

    >>> runs_moments(26, 26)
    (27.0, 12.745098039215685)
    """
    n = n_low + n_high
    product = 2.0 * n_low * n_high
    return product / n + 1.0, product * (product - n) / (n * n * (n - 1))


def _z_test(name: str, total: float, mean: float, variance: float, decks: int) -> TestResult:
    z = (total - decks * mean) / math.sqrt(decks * variance)
    p = two_sided_p(z)
    return TestResult(name=name, statistic=z, df=None, p_value=p, passed=None)


def median_runs_test(decks: Decks, *, confidence: float = CONFIDENCE) -> TestResult:
    """Runs of cards below / at-or-above the median id, per deck, summed over the decks."""
    name = "runs above/below the median"
    array = np.asarray(decks, dtype=np.int64)
    count, n = array.shape
    if count < MIN_DECKS:
        return _too_few(name, MIN_DECKS, count)
    high = array >= n // 2
    runs = 1 + (high[:, 1:] != high[:, :-1]).sum(axis=1)
    mean, variance = runs_moments(n // 2, n - n // 2)
    result = _z_test(name, float(runs.sum()), mean, variance, count)
    return _judged(result, confidence)


def up_down_runs_test(decks: Decks, *, confidence: float = CONFIDENCE) -> TestResult:
    """Monotone runs (up and down) per deck, summed: mean (2n-1)/3, variance (16n-29)/90."""
    name = "runs up and down"
    array = np.asarray(decks, dtype=np.int64)
    count, n = array.shape
    if count < MIN_DECKS:
        return _too_few(name, MIN_DECKS, count)
    rising = array[:, 1:] > array[:, :-1]
    runs = 1 + (rising[:, 1:] != rising[:, :-1]).sum(axis=1)
    result = _z_test(name, float(runs.sum()), (2 * n - 1) / 3, (16 * n - 29) / 90, count)
    return _judged(result, confidence)


def serial_correlation_test(
    decks: Decks, *, lag: int = 1, confidence: float = CONFIDENCE
) -> TestResult:
    """Serial correlation at ``lag`` within each deck against its exact mean for a random
    order (a z-test of the decks' mean, with their own standard deviation)."""
    name = f"serial correlation, lag {lag}"
    array = np.asarray(decks, dtype=np.float64)
    count, n = array.shape
    if count < MIN_DECKS:
        return _too_few(name, MIN_DECKS, count)
    centred = array - (n - 1) / 2.0
    sums = (centred[:, :-lag] * centred[:, lag:]).sum(axis=1)
    variance = (n * n - 1) / 12.0
    expected = -(n - lag) * variance / (n - 1)
    spread = float(sums.std(ddof=1))
    if spread == 0.0:
        p = 0.0 if float(sums.mean()) != expected else 1.0
        z = math.inf if p == 0.0 else 0.0
    else:
        z = (float(sums.mean()) - expected) / (spread / math.sqrt(count))
        p = two_sided_p(z)
    result = TestResult(name=name, statistic=z, df=None, p_value=p, passed=None)
    return _judged(result, confidence)


def _judged(result: TestResult, confidence: float) -> TestResult:
    assert result.p_value is not None
    return TestResult(
        name=result.name,
        statistic=result.statistic,
        df=result.df,
        p_value=result.p_value,
        passed=_verdict(result.p_value, confidence),
        note=result.note,
    )


def battery(
    decks: Decks,
    *,
    confidence: float = CONFIDENCE,
    on_progress: ProgressCallback | None = None,
) -> AuditReport:
    """Run every test on ``decks`` (see the module docstring).

    Args:
        decks: (N, n) card ids in dealing order; every row a permutation of 0..n-1.
        confidence: each test's level (0.99: fail below p = 0.01).
        on_progress: called with each test's name before it runs.

    Raises:
        ConfigError: malformed decks, or a confidence outside (0, 1).
    """
    if not 0.0 < confidence < 1.0:
        raise ConfigError(f"confidence must be between 0 and 1, not {confidence}")
    array = check_decks(decks) if len(decks) else np.zeros((0, 52), dtype=np.int64)
    runs: list[Callable[[], TestResult]] = [
        lambda: card_position_test(array, confidence=confidence),
        lambda: median_runs_test(array, confidence=confidence),
        lambda: up_down_runs_test(array, confidence=confidence),
        lambda: serial_correlation_test(array, lag=1, confidence=confidence),
        lambda: serial_correlation_test(array, lag=2, confidence=confidence),
    ]
    names = (
        "card x position chi-square",
        "runs above/below the median",
        "runs up and down",
        "serial correlation, lag 1",
        "serial correlation, lag 2",
    )
    results = []
    for name, run in zip(names, runs, strict=True):
        if on_progress is not None:
            on_progress(name)
        results.append(run())
    return AuditReport(
        decks=len(array),
        confidence=confidence,
        tests=tuple(results),
        counts=card_position_counts(array),
    )
