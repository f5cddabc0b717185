"""Monte Carlo of Caribbean Stud rounds played by the shipped optimal strategy.

A run of ``rounds`` is cut into tasks of ``task_rounds``; task i draws from its own stream,
child i of ``numpy.random.SeedSequence(seed)``, so a run is reproducible from its seed
whatever executor runs the tasks. Tasks return integer sums (money in units), so combining
them is exact and order-free. The rules' pay table and a Raise of two Antes (the shipped
table's).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from functools import cache
from math import comb
from typing import Any

import numpy as np
import numpy.typing as npt

from croupier.analysis.caribbean import _kernels as kernels
from croupier.analysis.caribbean.exact import pay_units
from croupier.analysis.caribbean.strategy import load_decisions
from croupier.errors import ConfigError
from croupier.evaluator import categories, evaluate_batch
from croupier.games.caribbean.config import DEFAULT_RAISE
from croupier.games.caribbean.rules import qualify_min

__all__ = ["SimulationResult", "deal_and_settle", "run_task", "simulate"]

_Z95 = 1.959963984540054
_PLAY_ROUNDS: Any = kernels.play_rounds
_MULTIPLE = 2


@dataclass(frozen=True, slots=True, kw_only=True)
class SimulationResult:
    """The mean net per Ante with its 95 % confidence interval (normal approximation)."""

    rounds: int
    seed: int
    scale: int
    """Units per Ante of ``sums``."""
    sums: tuple[int, int, int, int]
    """Rounds, the sum of the nets, of their squares, and the number of raises."""

    @property
    def ev_per_ante(self) -> float:
        """Mean net result per unit Ante."""
        return self.sums[1] / (self.rounds * self.scale)

    @property
    def ci_per_ante(self) -> tuple[float, float]:
        """95 % confidence interval of the EV per Ante."""
        n = self.rounds
        mean = self.sums[1] / n
        var = self.sums[2] / n - mean * mean
        half = _Z95 * math.sqrt(max(var, 0.0) / n) / self.scale
        return (self.ev_per_ante - half, self.ev_per_ante + half)

    @property
    def raise_rate(self) -> float:
        """The share of rounds raised."""
        return self.sums[3] / self.rounds


@cache
def _values() -> npt.NDArray[np.int16]:
    rows = np.empty((comb(52, 5), 5), dtype=np.int64)
    kernels.colex_rows(52, rows)
    values: npt.NDArray[np.int16] = evaluate_batch(rows, parallel=True).astype(np.int16)
    return values


def _args() -> tuple[Any, ...]:
    scale, odds = pay_units(DEFAULT_RAISE)
    return (
        _values(),
        kernels.binomials(52),
        load_decisions(),
        categories(np.arange(0, 7463).clip(1)).astype(np.int64),
        qualify_min(),
        np.array(odds, dtype=np.int64),
        scale,
        _MULTIPLE,
    )


def run_task(seed: np.random.SeedSequence, rounds: int) -> tuple[int, int, int, int]:
    """Play ``rounds`` rounds from ``seed``; the integer sums of :class:`SimulationResult`."""
    rng = np.random.default_rng(seed)
    sums = np.zeros(4, dtype=np.int64)
    empty_cards, empty_net = np.zeros((0, 10), dtype=np.int64), np.zeros(0, dtype=np.int64)
    args = _args()
    done = 0
    while done < rounds:
        block = min(1 << 18, rounds - done)
        _PLAY_ROUNDS(rng.random((block, 10)), *args, sums, empty_cards, empty_net)
        done += block
    return (int(sums[0]), int(sums[1]), int(sums[2]), int(sums[3]))


def deal_and_settle(
    rounds: int, *, seed: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """``rounds`` rounds as the simulator deals and settles them: each round's ten card ids
    (the player's five, the dealer's five with the up card last) and its net in Antes (for
    checking the simulator against the engine)."""
    rng = np.random.default_rng(seed)
    cards = np.zeros((rounds, 10), dtype=np.int64)
    net = np.zeros(rounds, dtype=np.int64)
    _PLAY_ROUNDS(rng.random((rounds, 10)), *_args(), np.zeros(4, np.int64), cards, net)
    return cards, net


def simulate(
    rounds: int,
    *,
    seed: int,
    task_rounds: int = 1_000_000,
    executor: Executor | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> SimulationResult:
    """Play ``rounds`` rounds by the optimal strategy; the mean and its interval.

    Raises:
        ConfigError: fewer than 2 rounds, or a task size below 1.
    """
    if rounds < 2 or task_rounds < 1:
        raise ConfigError(
            f"a simulation needs at least 2 rounds in tasks of at least 1, not "
            f"{rounds} in {task_rounds}"
        )
    sizes = [min(task_rounds, rounds - start) for start in range(0, rounds, task_rounds)]
    seeds = np.random.SeedSequence(seed).spawn(len(sizes))
    if executor is None:
        parts = []
        for s, size in zip(seeds, sizes, strict=True):
            parts.append(run_task(s, size))
            if on_progress is not None:
                on_progress(sum(p[0] for p in parts), rounds)
    else:
        parts = list(executor.map(run_task, seeds, sizes))
    total = tuple(sum(p[i] for p in parts) for i in range(4))
    scale, _ = pay_units(DEFAULT_RAISE)
    return SimulationResult(rounds=rounds, seed=seed, scale=scale, sums=total)  # type: ignore[arg-type]
