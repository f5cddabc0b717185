"""Rounds per second of the UTH simulator (best of --repeat, after a warm-up).

.venv/bin/python benchmarks/uth_simulate.py [--rounds 4000000] [--repeat 3] [--threads 2]
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ThreadPoolExecutor

from croupier.analysis.uth.simulate import STRATEGIES, simulate


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=4_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    for strategy in STRATEGIES:
        simulate(10_000, seed=0, strategy=strategy)  # compile
        for threads in sorted({1, args.threads}):
            best = float("inf")
            with ThreadPoolExecutor(threads) as pool:
                for _ in range(args.repeat):
                    start = time.perf_counter()
                    result = simulate(
                        args.rounds,
                        seed=1,
                        strategy=strategy,
                        task_rounds=args.rounds // (4 * threads),
                        executor=pool,
                    )
                    best = min(best, time.perf_counter() - start)
            lo, hi = result.ci_per_ante
            print(
                f"{strategy:8} {threads} thread(s): {args.rounds / best:>12,.0f} rounds/s "
                f"(return per Ante {result.return_per_ante:.4%}, CI {lo:.4%}..{hi:.4%})"
            )


if __name__ == "__main__":
    main()
