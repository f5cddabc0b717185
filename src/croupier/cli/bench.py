"""`croupier bench ...`: speed measurements that print their figures (never asserted in tests)."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
import typer
from rich.console import Console
from rich.table import Table

__all__ = ["app"]

app = typer.Typer(help="Benchmarks: print measured speeds.", no_args_is_help=True)


def _best_rate(count: int, run: Callable[[], object], repeats: int) -> float:
    """Hands per second of the fastest of ``repeats`` runs (the VM is noisy)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return count / best


def _random_hands(count: int, size: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    hands = rng.integers(0, 52, size=(count, size), dtype=np.int8)
    while True:
        bad = np.flatnonzero((np.diff(np.sort(hands, axis=1), axis=1) == 0).any(axis=1))
        if not len(bad):
            return hands
        hands[bad] = rng.integers(0, 52, size=(len(bad), size), dtype=np.int8)


@app.command("eval")
def bench_eval(
    hands: int = typer.Option(4_000_000, help="Random 7-card hands for the batch API."),
    scalar_hands: int = typer.Option(200_000, help="Hands for the per-call APIs."),
    repeats: int = typer.Option(5, help="Runs of each; the best is reported."),
    seed: int = typer.Option(2026, help="Seed of the random hands."),
) -> None:
    """Evaluations per second: scalar API, batch API on 1 and 2 threads, phevaluator."""
    import numba

    from croupier.evaluator import enumerate7_histogram, evaluate, evaluate_batch, evaluate_ids

    console = Console()
    batch = _random_hands(hands, 7, seed)
    per_call = batch[:scalar_hands].tolist()
    from croupier.cards import cards_from_ids

    card_hands = [cards_from_ids(h) for h in per_call]
    evaluate_batch(batch[:100])
    evaluate_batch(batch[:100], parallel=True)
    evaluate_ids(per_call[0])

    rows: list[tuple[str, float]] = []
    rows.append(
        (
            "evaluate(cards) -> HandValue",
            _best_rate(len(card_hands), lambda: [evaluate(h) for h in card_hands], repeats),
        )
    )
    rows.append(
        (
            "evaluate_ids(ids) -> int",
            _best_rate(len(per_call), lambda: [evaluate_ids(h) for h in per_call], repeats),
        )
    )
    rows.append(
        ("evaluate_batch, 1 thread", _best_rate(hands, lambda: evaluate_batch(batch), repeats))
    )
    threads = int(numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]
    for n in sorted({1, 2, threads}):
        if n > threads:
            continue
        numba.set_num_threads(n)
        rows.append(
            (
                f"evaluate_batch(parallel=True), {n} thread{'s' * (n > 1)}",
                _best_rate(hands, lambda: evaluate_batch(batch, parallel=True), repeats),
            )
        )
    numba.set_num_threads(threads)
    enumerate7_histogram()
    rows.append(
        (
            "all 133,784,560 7-card hands (enumeration)",
            _best_rate(133_784_560, enumerate7_histogram, repeats),
        )
    )
    try:
        from phevaluator import evaluate_cards
    except ImportError:
        baseline = None
    else:
        baseline = _best_rate(
            len(per_call), lambda: [evaluate_cards(*h) for h in per_call], repeats
        )
        rows.append(("phevaluator.evaluate_cards (baseline)", baseline))

    table = Table(title=f"7-card evaluation, best of {repeats} ({hands:,} batch hands)")
    table.add_column("API")
    table.add_column("hands/s", justify="right")
    table.add_column("× phevaluator", justify="right")
    for name, rate in rows:
        ratio = f"{rate / baseline:,.1f}×" if baseline else "-"
        table.add_row(name, f"{rate:,.0f}", ratio)
    console.print(table)
