"""Batch self-play speed: ``croupier.analysis.holdem.selfplay`` on the random-legal 6-max workload.

Six players with 200 chips, blinds 1/2 No-Limit, the ``random_legal`` policy (uniform among fold
when facing a bet, check/call and bet/raise, a raise total uniform between the minimum and the
maximum: the workload of ``holdem_selfplay.py``), every hand played to the end. One thread (the
kernel is serial). Prints each run's hands/s and decisions/s, then the median and the best.

    .venv/bin/python benchmarks/holdem_batch_selfplay.py [--hands 1000000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import time

from croupier.analysis.holdem import random_legal, selfplay


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--players", type=int, default=6)
    args = parser.parse_args()
    selfplay(1000, args.players, random_legal, seed=0, stacks=200)  # load the compiled kernel
    rates = []
    for run in range(args.repeat):
        started = time.perf_counter()
        result = selfplay(args.hands, args.players, random_legal, seed=run + 1, stacks=200)
        elapsed = time.perf_counter() - started
        rates.append(args.hands / elapsed)
        print(
            f"run {run + 1}: {args.hands:,} hands in {elapsed:.2f} s: {rates[-1]:,.0f} hands/s,"
            f" {result.decisions / elapsed:,.0f} decisions/s"
        )
    print(f"median {statistics.median(rates):,.0f} hands/s, best {max(rates):,.0f} hands/s")


if __name__ == "__main__":
    main()
