"""`croupier bench ...`: speed measurements that print their figures (never asserted in tests)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import typer
from rich.console import Console
from rich.table import Table

__all__ = ["app"]

app = typer.Typer(help="Benchmarks: print measured speeds.", no_args_is_help=True)

_DTYPES = ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64")
_TARGET_DTYPES = ("uint8", "int32", "int64")  # issue 19: the slowest of these is the figure


@dataclass
class _Entry:
    name: str
    count: int
    run: Callable[[], object]
    best: float = float("inf")

    @property
    def rate(self) -> float:
        return self.count / self.best


def _interleaved(entries: list[_Entry], repeats: int) -> None:
    """Run every entry once per round, ``repeats`` rounds, keeping each one's fastest time.

    Rounds interleave the entries, so a burst of load on this shared machine hits them all
    alike rather than whichever happened to run during it.
    """
    for _ in range(repeats):
        for entry in entries:
            start = time.perf_counter()
            entry.run()
            entry.best = min(entry.best, time.perf_counter() - start)


def _random_hands(count: int, size: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    hands = rng.integers(0, 52, size=(count, size), dtype=np.int8)
    while True:
        bad = np.flatnonzero((np.diff(np.sort(hands, axis=1), axis=1) == 0).any(axis=1))
        if not len(bad):
            return hands
        hands[bad] = rng.integers(0, 52, size=(len(bad), size), dtype=np.int8)


def _batch_inputs(hands: np.ndarray) -> list[tuple[str, np.ndarray]]:
    """The same hands in every integer dtype, then in layouts that are not C-contiguous."""
    inputs = [(name, hands.astype(name)) for name in _DTYPES]
    table = np.zeros((len(hands), 9), dtype=np.int64)
    table[:, 1:8] = hands
    inputs.append(("int64, table[:, 1:8] of (N, 9)", table[:, 1:8]))
    inputs.append(("int8, transposed (7, N)", np.ascontiguousarray(hands.T).T))
    inputs.append((">i4, big-endian", hands.astype(">i4")))
    return inputs


def _batch_entries(hands: np.ndarray) -> list[_Entry]:
    import numba

    from croupier.evaluator import enumerate7_histogram, evaluate_batch

    entries = []
    for name, array in _batch_inputs(hands):
        evaluate_batch(array[:100])  # compile (or load) this dtype's and layout's kernel
        entries.append(_Entry(f"evaluate_batch, {name}", len(array), _runner(array)))
    threads = int(numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]
    for n in sorted({2, threads}):
        if n <= threads:
            evaluate_batch(hands[:100], parallel=True)
            entries.append(
                _Entry(
                    f"evaluate_batch, int8, parallel, {n} threads",
                    len(hands),
                    _runner(hands, threads=n),
                )
            )
    enumerate7_histogram()
    entries.append(_Entry("enumerate7_histogram (all C(52, 7))", 133_784_560, enumerate7_histogram))
    return entries


def _runner(array: np.ndarray, *, threads: int = 0) -> Callable[[], object]:
    import numba

    from croupier.evaluator import evaluate_batch

    if not threads:
        return lambda: evaluate_batch(array)

    def run() -> object:
        before = numba.get_num_threads()
        numba.set_num_threads(threads)
        try:
            return evaluate_batch(array, parallel=True)
        finally:
            numba.set_num_threads(before)

    return run


@app.command("eval")
def bench_eval(
    hands: int = typer.Option(2_000_000, help="Random 7-card hands for the batch API."),
    scalar_hands: int = typer.Option(200_000, help="Hands for the per-call APIs."),
    repeats: int = typer.Option(3, help="Interleaved rounds; each API's best is reported."),
    seed: int = typer.Option(2026, help="Seed of the random hands."),
) -> None:
    """Evaluations per second of every API and every id dtype, against phevaluator."""
    from croupier.cards import cards_from_ids
    from croupier.evaluator import evaluate, evaluate_ids

    batch = _random_hands(hands, 7, seed)
    per_call = batch[:scalar_hands].tolist()  # plain Python ints
    card_hands = [cards_from_ids(h) for h in per_call]
    evaluate_ids(per_call[0])
    entries = [
        _Entry(
            "evaluate(cards) -> HandValue",
            len(card_hands),
            lambda: [evaluate(h) for h in card_hands],
        ),
        _Entry(
            "evaluate_ids(ids) -> int", len(per_call), lambda: [evaluate_ids(h) for h in per_call]
        ),
        *_batch_entries(batch),
    ]
    peers = _phevaluator_entries(per_call)
    _interleaved([*peers, *entries], repeats)
    _print(entries, peers, hands=hands, repeats=repeats)


def _phevaluator_entries(per_call: list[list[int]]) -> list[_Entry]:
    try:
        from phevaluator import _pheval, evaluate_7cards
    except ImportError:
        return []
    return [
        _Entry(
            "phevaluator.evaluate_7cards (baseline)",
            len(per_call),
            lambda: [evaluate_7cards(*h) for h in per_call],
        ),
        _Entry(
            "phevaluator._pheval.evaluate_7cards (C)",
            len(per_call),
            lambda: [_pheval.evaluate_7cards(*h) for h in per_call],
        ),
    ]


def _print(entries: list[_Entry], peers: list[_Entry], *, hands: int, repeats: int) -> None:
    console = Console()
    baseline = peers[0].rate if peers else None
    table = Table(
        title=f"7-card evaluation, best of {repeats} interleaved rounds ({hands:,} batch hands)"
    )
    table.add_column("API, input")
    table.add_column("hands/s", justify="right")
    table.add_column("× phevaluator", justify="right")
    for entry in [*entries, *peers]:
        ratio = f"{entry.rate / baseline:,.1f}×" if baseline else "-"
        table.add_row(entry.name, f"{entry.rate:,.0f}", ratio)
    console.print(table)
    targets = [e for e in entries if e.name.removeprefix("evaluate_batch, ") in _TARGET_DTYPES]
    slowest = min(targets, key=lambda e: e.rate)
    if baseline:
        console.print(
            f"slowest of {', '.join(_TARGET_DTYPES)}: {slowest.name} at "
            f"{slowest.rate / baseline:,.1f}× phevaluator.evaluate_7cards "
            f"({slowest.rate / peers[1].rate:,.1f}× its C function called directly)"
        )
