"""Time Russian Poker's exact analysis on a sample of its 400 chunks and estimate the whole.

    nice -n 15 .venv/bin/python benchmarks/russian_exact.py [--chunks 3]

The chunks are of similar work (rank multisets dealt round-robin, heaviest first): the CPU
time of a few, times 400, estimates the full run of `croupier russian analyze --exact`
(CPU seconds: wall time on a machine shared with other jobs says little). The warm-up loads
(or compiles) the kernels on one chunk.
"""

from __future__ import annotations

import argparse
import resource
import time

import numpy as np

from croupier.analysis.russian._hands import FULL_DECK, hand_classes
from croupier.analysis.russian.exact import (
    EXACT_POLICY,
    _chunk_order,
    _solve_piece,
    exact_rules,
)
from croupier.games.russian import RussianConfig

CHUNKS = 400


def _cpu() -> float:
    """CPU seconds of this process, every thread included."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--chunks", type=int, default=3, help="chunks to time (of 400)")
    args = parser.parse_args()
    rules = exact_rules(RussianConfig())
    classes = hand_classes()
    pieces = _chunk_order(classes, CHUNKS)
    forced = np.full(len(classes.cards), -1, dtype=np.int64)

    def run(i: int) -> int:
        ps = pieces[i]
        rows = np.concatenate([np.arange(classes.start[p], classes.start[p + 1]) for p in ps])
        _solve_piece(classes, ps, rows, FULL_DECK, rules, rules.allowed, EXACT_POLICY, forced)
        return len(rows)

    start = time.perf_counter()
    run(CHUNKS - 1)
    print(f"warm-up (one chunk, kernels loaded or compiled): {time.perf_counter() - start:.1f} s")
    wall, cpu = time.perf_counter(), _cpu()
    done = sum(run(i) for i in range(0, CHUNKS, CHUNKS // args.chunks)[: args.chunks])
    wall, cpu = time.perf_counter() - wall, _cpu() - cpu
    total = len(classes.cards)
    print(
        f"{done:,} classes in {wall:.1f} s wall, {cpu:.1f} s CPU: {1000 * cpu / done:.2f} ms CPU each"
    )
    print(f"estimate for all {total:,} classes: {cpu / done * total / 60:.1f} CPU-minutes")


if __name__ == "__main__":
    main()
