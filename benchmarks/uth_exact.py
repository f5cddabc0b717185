"""Time the exact analysis of Ultimate Texas Hold'em (best of --repeat runs after a warm-up).

    .venv/bin/python benchmarks/uth_exact.py [--repeat 3] [--write-data]

--write-data rewrites the shipped strategy (src/croupier/analysis/uth/data/).
"""

from __future__ import annotations

import argparse
import time

from croupier.analysis.uth import analyze_exact
from croupier.analysis.uth._symmetry import board_classes, deck_symmetry
from croupier.analysis.uth.strategy import write_strategy_data


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--write-data", action="store_true")
    args = parser.parse_args()
    analyze_exact(deck=[c for c in range(52) if c // 4 >= 10])  # compile the kernels
    times = []
    result = None
    for _ in range(args.repeat):
        deck_symmetry.cache_clear()  # time the whole job, suit classes included
        board_classes.cache_clear()
        start, cpu = time.perf_counter(), time.process_time()
        result = analyze_exact()
        times.append(time.perf_counter() - start)
        cpu = time.process_time() - cpu
        print(f"exact analysis: {times[-1]:.1f} s wall, {cpu:.1f} s CPU (all threads)")
    assert result is not None
    print(f"best of {len(times)}: {min(times):.1f} s")
    print(
        f"EV per Ante {float(result.ev_per_ante):.6f}, element of risk "
        f"{float(result.element_of_risk):.6f}, Trips {float(result.trips):.6f}"
    )
    if args.write_data:
        for path in write_strategy_data(result):
            print(f"wrote {path}")


if __name__ == "__main__":
    main()
