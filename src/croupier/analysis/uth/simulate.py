"""Monte Carlo of whole rounds of Ultimate Texas Hold'em with the real rules (spec/uth.md).

A run of ``rounds`` is cut into tasks of ``task_rounds`` (the cut depends only on ``rounds``);
task i draws from its own stream, child i of ``numpy.random.SeedSequence(seed)``, so a run is
reproducible from its seed whatever executor and number of workers run the tasks. Tasks return
integer sums (money in units), so combining them is exact and order-free.

Strategies:
    ``optimal``: the exact optimal strategy (pre-flop and flop tables from the exact analysis,
    river by enumerating the 990 dealer hands).
    ``simple``: the Wizard of Odds basic strategy for Ultimate Texas Hold'em: pre-flop 4x with
    3-3+, any Ace, K2s+, K5o+, Q6s+, Q8o+, J8s+, JTo; flop 2x with two pair or better, a hidden
    pair except pocket deuces, or four to a flush with a hidden Ten or better of that suit;
    river 1x with a hidden pair or better or with fewer than 21 dealer outs, else fold.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from concurrent.futures import Executor
from dataclasses import dataclass
from functools import cache
from math import lcm
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from croupier.analysis.uth import _play
from croupier.analysis.uth._symmetry import class_name, deck_symmetry
from croupier.analysis.uth.exact import _QUALIFY_MIN, FULL_DECK, ExactResult
from croupier.analysis.uth.paytables import (
    DEFAULT_BLIND,
    DEFAULT_TRIPS,
    PayTable,
    check_paytable,
    ratio,
    units,
)
from croupier.analysis.uth.strategy import load_flop_bet, load_preflop, preflop_codes
from croupier.errors import ConfigError
from croupier.evaluator import HandCategory, categories, lookup_tables

__all__ = [
    "STRATEGIES",
    "SimulationResult",
    "SimulationTask",
    "Strategy",
    "deal_and_settle",
    "run_task",
    "simulate",
]

Strategy = Literal["optimal", "simple"]
STRATEGIES: tuple[Strategy, ...] = ("optimal", "simple")
_PLAY_ROUNDS: Any = _play.play_rounds
_BLOCK = 1 << 16  # rounds per block of uniforms inside a task
_Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True, kw_only=True)
class SimulationTask:
    """One task: ``rounds`` rounds from its own seed sequence (picklable, for Dask)."""

    seed: np.random.SeedSequence
    rounds: int
    strategy: Strategy
    blind: PayTable
    trips: PayTable
    flop_bet: npt.NDArray[np.uint8] | None = None
    """Optimal flop decisions for non-default pay tables (else the shipped table)."""
    preflop: npt.NDArray[np.int64] | None = None
    """Pre-flop play (4, 3, 0) per two-card hand, with ``flop_bet``."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SimulationResult:
    """Returns with 95% confidence intervals (normal approximation)."""

    rounds: int
    strategy: Strategy
    seed: int
    tasks: int
    scale: int
    """Units per Ante of ``sums``."""
    sums: tuple[int, ...]
    """rounds, sum net, sum net^2, sum total bet, sum bet^2, sum net*bet, Trips net, Trips net^2."""
    trips_scale: int
    trace: tuple[tuple[int, float, float], ...]
    """After each block of 65,536 rounds (in order): rounds so far, return per Ante, CI half-width."""

    @property
    def ev_per_ante(self) -> float:
        """Mean net result per unit Ante."""
        return self.sums[1] / (self.rounds * self.scale)

    @property
    def return_per_ante(self) -> float:
        """1 + EV per Ante."""
        return 1 + self.ev_per_ante

    @property
    def ci_per_ante(self) -> tuple[float, float]:
        """95% confidence interval of the return per Ante."""
        half = _half_width(self.sums[1], self.sums[2], self.rounds) / self.scale
        return (self.return_per_ante - half, self.return_per_ante + half)

    @property
    def return_per_total_bet(self) -> float:
        """1 + (total net / total money bet)."""
        return 1 + self.sums[1] / self.sums[3]

    @property
    def ci_per_total_bet(self) -> tuple[float, float]:
        """95% confidence interval of the return per total bet (delta method)."""
        n = self.rounds
        r = self.sums[1] / self.sums[3]
        mean_bet = self.sums[3] / n
        var = (self.sums[2] - 2 * r * self.sums[5] + r * r * self.sums[4]) / n
        half = _Z95 * math.sqrt(max(var, 0.0) / n) / mean_bet
        return (1 + r - half, 1 + r + half)

    @property
    def average_total_bet(self) -> float:
        """Mean Ante + Blind + Play, in Antes."""
        return self.sums[3] / (self.rounds * self.scale)

    @property
    def trips_return(self) -> float:
        """Return of a one-unit Trips bet."""
        return 1 + self.sums[6] / (self.rounds * self.trips_scale)

    @property
    def ci_trips(self) -> tuple[float, float]:
        """95% confidence interval of the Trips return."""
        half = _half_width(self.sums[6], self.sums[7], self.rounds) / self.trips_scale
        return (self.trips_return - half, self.trips_return + half)


def _half_width(total: int, squares: int, n: int) -> float:
    mean = total / n
    var = squares / n - mean * mean
    return _Z95 * math.sqrt(max(var, 0.0) / n)


def _trips_units(trips: PayTable) -> tuple[int, npt.NDArray[np.int64]]:
    scale = lcm(*(den for _, den in trips.values())) if trips else 1
    pays = [int(ratio(trips, c) * scale) if c in trips else -scale for c in HandCategory]
    return scale, np.array(pays, dtype=np.int64)


def _simple_4x(hand: str) -> bool:
    """Wizard of Odds basic strategy, pre-flop: 4x with 3-3+, any Ace, K2s+, K5o+, Q6s+,
    Q8o+, J8s+, JTo (``hand`` like ``"AKs"``, ``"T9o"``, ``"33"``)."""
    order = "23456789TJQKA"
    if len(hand) == 2:
        return order.index(hand[0]) >= order.index("3")
    hi, lo = order.index(hand[0]), order.index(hand[1])
    least = {"s": "2268", "o": "258T"}[hand[2]]  # the lowest kicker with A, K, Q, J
    for top, kicker in zip("AKQJ", least, strict=True):
        if hi == order.index(top):
            return lo >= order.index(kicker)
    return False


@cache
def _simple_preflop() -> npt.NDArray[np.int64]:
    sym = deck_symmetry(FULL_DECK)
    return np.array(
        [4 if _simple_4x(class_name(int(c))) else 0 for c in sym.pair_class], dtype=np.int64
    )


def _kernel_args(task: SimulationTask) -> tuple[tuple[Any, ...], tuple[int, int]]:
    sym = deck_symmetry(FULL_DECK)
    t = lookup_tables()
    scale, blind_units = units(task.blind)
    trips_scale, trips_units = _trips_units(task.trips)
    if task.flop_bet is not None:
        flop_bet = task.flop_bet
    elif dict(task.blind) == dict(DEFAULT_BLIND):
        flop_bet = load_flop_bet()
    elif task.strategy == "optimal":
        raise ConfigError("the optimal strategy for other pay tables needs their flop decisions")
    else:
        flop_bet = np.zeros((1, 1), dtype=np.uint8)
    if task.strategy == "simple":
        codes = _simple_preflop()
    elif task.preflop is not None:
        codes = task.preflop
    else:
        codes = preflop_codes(load_preflop())
    return (
        _play.SIMPLE if task.strategy == "simple" else _play.OPTIMAL,
        codes,
        sym.pair_index,
        sym.flop_class,
        sym.flop_perm,
        sym.pair_perm,
        flop_bet,
        t.low_hash,
        t.nonflush,
        (t.card_keys, t.high_hash, t.flush),
        categories(np.arange(0, 7463).clip(1)).astype(np.int64),
        np.array(blind_units, dtype=np.int64),
        trips_units,
        scale,
        _QUALIFY_MIN,
    ), (scale, trips_scale)


def run_task(task: SimulationTask) -> tuple[tuple[int, ...], ...]:
    """Play one task's rounds; returns the integer sums (see :attr:`SimulationResult.sums`)
    of each block of up to 65,536 rounds, in order (for the convergence trace)."""
    args, _ = _kernel_args(task)
    strategy, *rest = args
    rng = np.random.Generator(np.random.PCG64(task.seed))
    deck = np.arange(52, dtype=np.int64)
    no_record = np.zeros((0, 5), dtype=np.int64)
    no_cards = np.zeros((0, 9), dtype=np.int64)
    blocks = []
    done = 0
    while done < task.rounds:
        n = min(_BLOCK, task.rounds - done)
        uniforms = rng.random((n, 9))
        sums = np.zeros(8, dtype=np.int64)
        _PLAY_ROUNDS(uniforms, deck, strategy, *rest, sums, no_record, no_cards)
        blocks.append(tuple(int(s) for s in sums))
        done += n
    return tuple(blocks)


def deal_and_settle(
    rounds: int,
    *,
    seed: int,
    strategy: Strategy = "optimal",
    blind: PayTable = DEFAULT_BLIND,
    trips: PayTable = DEFAULT_TRIPS,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], int]:
    """The simulator's rounds one by one, to check them against the engine.

    Returns (cards, record, scale): cards (n, 9) = player 2, dealer 2, flop 3, turn, river;
    record (n, 5) = Ante, Blind and Play nets in units (the Ante is ``scale`` units), the Play
    multiple (-1 = folded, 0 never happens) and the Trips net for one unit of Trips (in units of
    1/lcm of the Trips denominators).
    """
    task = SimulationTask(
        seed=np.random.SeedSequence(seed).spawn(1)[0],  # simulate(seed=seed)'s first task
        rounds=rounds,
        strategy=strategy,
        blind=blind,
        trips=trips,
    )
    args, (scale, _) = _kernel_args(task)
    strategy_code, *rest = args
    rng = np.random.Generator(np.random.PCG64(task.seed))
    record = np.zeros((rounds, 5), dtype=np.int64)
    cards = np.zeros((rounds, 9), dtype=np.int64)
    sums = np.zeros(8, dtype=np.int64)
    _PLAY_ROUNDS(
        rng.random((rounds, 9)),
        np.arange(52, dtype=np.int64),
        strategy_code,
        *rest,
        sums,
        record,
        cards,
    )
    return cards, record, scale


def simulate(
    rounds: int,
    *,
    seed: int,
    strategy: Strategy = "optimal",
    blind: PayTable = DEFAULT_BLIND,
    trips: PayTable = DEFAULT_TRIPS,
    exact: ExactResult | None = None,
    task_rounds: int = 1 << 20,
    executor: Executor | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> SimulationResult:
    """Simulate ``rounds`` rounds.

    Args:
        seed: the root of every task's stream.
        exact: the exact analysis whose strategy ``optimal`` plays (needed for pay tables
            other than the defaults; its Blind table is used).
        executor: runs the tasks (e.g. a Dask client's ``get_executor()`` or a thread pool);
            None runs them here, one after the other.
        on_progress: called with (rounds done, rounds) as tasks finish.

    Raises:
        ConfigError: a non-positive number of rounds, an unknown strategy, a bad pay table.
    """
    if rounds <= 0 or task_rounds <= 0:
        raise ConfigError(f"rounds must be positive, not {rounds}")
    if strategy not in STRATEGIES:
        raise ConfigError(f"unknown strategy {strategy!r}; choose from {', '.join(STRATEGIES)}")
    check_paytable(blind, name="blind")
    check_paytable(trips, name="trips")
    tasks = _tasks(
        rounds,
        seed=seed,
        strategy=strategy,
        blind=blind,
        trips=trips,
        exact=exact,
        size=task_rounds,
    )
    _, (scale, trips_scale) = _kernel_args(tasks[0])
    results = _run_tasks(tasks, rounds=rounds, executor=executor, on_progress=on_progress)
    totals = [0] * 8
    trace = []
    for block in (b for r in results for b in r):
        totals = [a + b for a, b in zip(totals, block, strict=True)]
        n = totals[0]
        trace.append((n, 1 + totals[1] / (n * scale), _half_width(totals[1], totals[2], n) / scale))
    return SimulationResult(
        rounds=rounds,
        strategy=strategy,
        seed=seed,
        tasks=len(tasks),
        scale=scale,
        sums=tuple(totals),
        trips_scale=trips_scale,
        trace=tuple(trace),
    )


def _tasks(
    rounds: int,
    *,
    seed: int,
    strategy: Strategy,
    blind: PayTable,
    trips: PayTable,
    exact: ExactResult | None,
    size: int,
) -> list[SimulationTask]:
    """The run cut into tasks of ``size`` rounds (the last one shorter), each with its own
    stream spawned from ``seed``: the result does not depend on who runs them."""
    flop_bet = preflop = None
    if exact is not None:
        blind = exact.blind_table
        flop_bet = exact.flop_bet.astype(np.uint8)
        preflop = preflop_codes(exact.preflop)
    sizes = [size] * (rounds // size)
    if rounds % size:
        sizes.append(rounds % size)
    seeds = np.random.SeedSequence(seed).spawn(len(sizes))
    return [
        SimulationTask(
            seed=s,
            rounds=n,
            strategy=strategy,
            blind=blind,
            trips=trips,
            flop_bet=flop_bet,
            preflop=preflop,
        )
        for s, n in zip(seeds, sizes, strict=True)
    ]


def _run_tasks(
    tasks: list[SimulationTask],
    *,
    rounds: int,
    executor: Executor | None,
    on_progress: Callable[[int, int], None] | None,
) -> list[tuple[tuple[int, ...], ...]]:
    """Each task's blocks, in task order: run here one after the other, or on ``executor``."""
    results: list[tuple[tuple[int, ...], ...]] = []
    pending: Iterable[tuple[tuple[int, ...], ...]]
    if executor is None:
        pending = (run_task(task) for task in tasks)
    else:
        futures = [executor.submit(run_task, task) for task in tasks]
        pending = (future.result() for future in futures)
    for result in pending:
        results.append(result)
        if on_progress is not None:
            on_progress(sum(b[0] for r in results for b in r), rounds)
    return results
