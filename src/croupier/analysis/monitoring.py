"""Sequential monitoring of a game's return: is a table paying what its theory says?

Each round adds one observation to a *stream* (a table, a stake band, a channel...): the
round's net result for the players ``net``, what the theory expects of it ``mean``, and the
scales below. Two one-sided detectors watch each stream, both *e-detectors* in the sense of
Shin, Ramdas and Rinaldo ("E-detectors: a nonparametric framework for sequential change
detection", 2023): a product of per-round *e-values* (non-negative, expectation at most 1
while the game pays as the theory says) restarted CUSUM-fashion,

    M_n = max(M_{n-1}, 1) * E_n,

which raises an alarm when ``M_n >= A``. For any such detector the average run length to a
false alarm is at least ``A`` rounds, whatever the distribution of the results, so a table
whose detectors together see ``R`` rounds a year raises at most ``R / A`` false alarms a year
on average (:func:`design_threshold`). Each side mixes detectors for several bet sizes
``lambda`` (equal weights), which is again an e-detector: small ``lambda`` finds small
deviations slowly, large ones large deviations fast.

**High side** (the players are paid more than the theory allows): ``x = net - mean``, known to
be at least ``-loss`` (a round cannot lose more than its stakes), scaled to
``xi = min(x, CLIP * loss) / loss >= -1``. Fan, Grama and Liu's inequality (2012),
``exp(l*xi - psi_E(l)*xi^2) <= 1 + l*xi`` for ``xi >= -1`` and ``0 <= l < 1`` with
``psi_E(l) = -log(1 - l) - l``, makes ``exp(l*xi - psi_E(l)*xi^2)`` an e-value whenever
``E[xi] <= 0``, with no assumption on the variance or on the size of the largest payout (a
royal flush is clipped, which only lowers ``E[xi]``). Since no way of playing returns more
than the optimal play of the theory, this side holds for any player.

**Low side** (the players are paid less): ``xi = (mean - net) / scale <= 1`` where ``scale``
is the most the round can fall short of its mean (its stakes plus the mean). Bennett's
inequality, ``E[exp(l*xi)] <= exp(psi_B(l) * E[xi^2])`` for ``xi <= 1`` and ``E[xi] <= 0``
with ``psi_B(l) = exp(l) - 1 - l``, makes ``exp(l*xi - psi_B(l)*v/scale^2)`` an e-value given
a bound ``v`` on the round's second moment about its mean (the theory's variance times a
margin: see the server's monitor). This side needs the mean of the decisions actually made
(or an allowance for poor play): a player who folds too often is paid less than optimal
play, not cheated.

>>> obs = Observation(net=-100, mean=-2.0, loss=600.0, variance=2400.0)
>>> state = Detector.new()
>>> state.update(obs).alarm(threshold=1e6)
False
>>> round(design_threshold(rounds_per_year=525_960, detectors=12, alarms_per_year=1.0))
6311520
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

__all__ = [
    "CLIP",
    "LAMBDAS",
    "Detector",
    "Observation",
    "Side",
    "design_threshold",
    "drift",
    "expected_delay",
]

LAMBDAS: tuple[float, ...] = tuple(0.64 / 2**k for k in range(10))
"""The bet sizes mixed on each side: 0.64, 0.32 ... 0.00125 (equal weights)."""
CLIP = 4.0
"""The high side counts a round's excess over its mean up to this many times its stakes: a
jackpot is evidence of luck, not of a table paying wrong."""
_PSI_E = tuple(-math.log1p(-lam) - lam for lam in LAMBDAS)
_PSI_B = tuple(math.expm1(lam) - lam for lam in LAMBDAS)
_LOG_WEIGHT = -math.log(len(LAMBDAS))


@dataclass(frozen=True, slots=True, kw_only=True)
class Observation:
    """One round of one stream (minor units).

    ``mean_high`` / ``mean_low`` bound a mean known only within a range (the high side
    compares with the highest, the low side with the lowest); both default to ``mean``.
    """

    net: float
    """The players' net result in the round (positive: the players won)."""
    mean: float
    """Its expectation under the theory."""
    loss: float
    """The most the round could lose (its stakes, every decision's included): > 0."""
    variance: float
    """A bound on the round's second moment about its mean."""
    mean_high: float | None = None
    mean_low: float | None = None

    def high_xi(self) -> float:
        """The high side's scaled excess, ``>= -1`` (clipped above at :data:`CLIP`)."""
        mean = self.mean if self.mean_high is None else self.mean_high
        scale = self.loss + mean
        if scale <= 0:
            return 0.0  # a mean that loses everything: nothing to learn upwards
        return max(-1.0, min(self.net - mean, CLIP * scale) / scale)

    def low_xi(self) -> tuple[float, float]:
        """The low side's scaled shortfall (``<= 1``) and its scaled second moment."""
        mean = self.mean if self.mean_low is None else self.mean_low
        scale = self.loss + mean
        if scale <= 0:
            return 0.0, 0.0
        return min(1.0, (mean - self.net) / scale), self.variance / (scale * scale)


class Side:
    """Which way a detector looks: ``high`` (paying too much) or ``low`` (too little)."""

    HIGH = "high"
    LOW = "low"
    ALL = (HIGH, LOW)


def _log_e(obs: Observation, side: str) -> list[float]:
    """``log E`` of the round for each bet size (plain floats: called a few times a round)."""
    if side == Side.HIGH:
        xi = obs.high_xi()
        square = xi * xi
        return [lam * xi - psi * square for lam, psi in zip(LAMBDAS, _PSI_E, strict=True)]
    shortfall, second = obs.low_xi()
    return [lam * shortfall - psi * second for lam, psi in zip(LAMBDAS, _PSI_B, strict=True)]


@dataclass(slots=True, kw_only=True)
class Detector:
    """Both sides' CUSUM e-detectors of one stream: ``log M`` per bet size (mutable)."""

    high: list[float] = field(default_factory=lambda: [0.0] * len(LAMBDAS))
    low: list[float] = field(default_factory=lambda: [0.0] * len(LAMBDAS))

    @classmethod
    def new(cls) -> Detector:
        return cls()

    def update(self, obs: Observation) -> Detector:
        """Add one round (in place; returns ``self``)."""
        self.high = [
            max(m, 0.0) + e for m, e in zip(self.high, _log_e(obs, Side.HIGH), strict=True)
        ]
        self.low = [max(m, 0.0) + e for m, e in zip(self.low, _log_e(obs, Side.LOW), strict=True)]
        return self

    def evidence(self, side: str) -> float:
        """``log`` of the mixture ``sum_k w_k M_k`` of ``side`` (compare with ``log A``)."""
        logs: list[float] = getattr(self, side)
        top = max(logs)
        return top + _LOG_WEIGHT + math.log(sum(math.exp(v - top) for v in logs))

    def alarm(self, *, threshold: float) -> bool:
        """Whether either side has reached ``threshold`` (``A``, not its log)."""
        return self.alarming(threshold=threshold) != ()

    def alarming(self, *, threshold: float) -> tuple[str, ...]:
        """The sides at or above ``threshold``."""
        level = math.log(threshold)
        return tuple(side for side in Side.ALL if self.evidence(side) >= level)

    def restart(self, side: str) -> None:
        """After an alarm: that side starts again from nothing."""
        setattr(self, side, [0.0] * len(LAMBDAS))

    def to_json(self) -> dict[str, list[float]]:
        return {"high": list(self.high), "low": list(self.low)}

    @classmethod
    def from_json(cls, data: dict[str, Sequence[float]] | None) -> Detector:
        size = len(LAMBDAS)
        if not data:
            return cls()
        high = [float(v) for v in data.get("high", ())]
        low = [float(v) for v in data.get("low", ())]
        return cls(
            high=high if len(high) == size else [0.0] * size,
            low=low if len(low) == size else [0.0] * size,
        )


def design_threshold(*, rounds_per_year: float, detectors: int, alarms_per_year: float) -> float:
    """The alarm level ``A`` that keeps a table's false alarms at ``alarms_per_year`` on
    average, when each of its ``detectors`` (both sides of every stream) sees at most
    ``rounds_per_year`` rounds: each detector's average run length is at least ``A``.

    >>> design_threshold(rounds_per_year=1000, detectors=2, alarms_per_year=0.5)
    4000.0
    """
    if rounds_per_year <= 0 or detectors <= 0 or alarms_per_year <= 0:
        raise ValueError("rounds, detectors and alarms per year must be positive")
    return detectors * rounds_per_year / alarms_per_year


def drift(observations: Iterable[Observation], side: str) -> tuple[float, float]:
    """The best mean log e-value per round over the bet sizes, and its bet size, for rounds
    drawn as ``observations`` (a sample of a rigged table's rounds): how fast that side's
    evidence grows on such a table."""
    total = [0.0] * len(LAMBDAS)
    count = 0
    for obs in observations:
        total = [t + e for t, e in zip(total, _log_e(obs, side), strict=True)]
        count += 1
    if count == 0:
        return 0.0, LAMBDAS[0]
    best = max(range(len(LAMBDAS)), key=lambda k: total[k])
    return total[best] / count, LAMBDAS[best]


def expected_delay(rate: float, *, threshold: float) -> float:
    """Rounds for the evidence to reach ``threshold`` growing ``rate`` per round (Wald's
    approximation: the log threshold, plus the mixture's weight, over the drift); infinite
    when the evidence does not grow.

    >>> round(expected_delay(0.01, threshold=math.exp(10)))
    1230
    """
    if rate <= 0:
        return math.inf
    return (math.log(threshold) - _LOG_WEIGHT) / rate
