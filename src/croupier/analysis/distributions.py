"""Tail probabilities of the chi-square and normal distributions, with no SciPy.

The RNG battery (:mod:`croupier.analysis.rng`) turns its statistics into p-values with these;
the tests check them against SciPy, which is only a development dependency.

>>> round(chi2_sf(3.841458820694124, 1), 6)
0.05
>>> round(normal_sf(2.3263478740408408), 6)
0.01
"""

from __future__ import annotations

import math

__all__ = ["chi2_sf", "normal_sf", "two_sided_p"]

_EPS = 1e-15
_MAX_ITER = 100_000
_TINY = 1e-300


def _log_prefactor(a: float, x: float) -> float:
    return -x + a * math.log(x) - math.lgamma(a)


def _lower_series(a: float, x: float) -> float:
    """P(a, x), the regularized lower incomplete gamma, by its power series (x < a + 1)."""
    term = total = 1.0 / a
    n = a
    for _ in range(_MAX_ITER):
        n += 1.0
        term *= x / n
        total += term
        if abs(term) < abs(total) * _EPS:
            break
    return total * math.exp(_log_prefactor(a, x))


def _upper_fraction(a: float, x: float) -> float:
    """Q(a, x), the regularized upper incomplete gamma, by its continued fraction (Lentz)."""
    b = x + 1.0 - a
    c = 1.0 / _TINY
    d = 1.0 / b
    h = d
    for i in range(1, _MAX_ITER):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPS:
            break
    return math.exp(_log_prefactor(a, x)) * h


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-square with ``df`` degrees of freedom.

    Raises:
        ValueError: ``df`` below 1.
    """
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {df}")
    if x <= 0:
        return 1.0
    a, half = df / 2.0, x / 2.0
    if half < a + 1.0:
        return max(0.0, 1.0 - _lower_series(a, half))
    return _upper_fraction(a, half)


def normal_sf(z: float) -> float:
    """P(Z >= z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def two_sided_p(z: float) -> float:
    """P(|Z| >= |z|) for a standard normal Z."""
    return min(1.0, 2.0 * normal_sf(abs(z)))
