"""Time the exact analysis of Caribbean Stud Poker (best of --repeat runs after a warm-up).

    nice -n 15 .venv/bin/python benchmarks/caribbean_exact.py [--repeat 3]

The warm-up compiles (or loads from numba's cache) the kernels on a reduced deck; each timed
run counts all 19,933,230,517,200 combinations, the five-card value table included.
"""

from __future__ import annotations

import argparse
import time

from croupier.analysis.caribbean import analyze_exact


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    start = time.perf_counter()
    analyze_exact(deck=[c for c in range(52) if c // 4 >= 7])  # compile the kernels
    print(
        f"warm-up (compile or load the kernels, 24-card deck): {time.perf_counter() - start:.1f} s"
    )
    times = []
    result = None
    for _ in range(args.repeat):
        start, cpu = time.perf_counter(), time.process_time()
        result = analyze_exact()
        times.append(time.perf_counter() - start)
        cpu = time.process_time() - cpu
        print(f"exact analysis: {times[-1]:.1f} s wall, {cpu:.1f} s CPU (all threads)")
    assert result is not None
    print(f"best of {len(times)}: {min(times):.1f} s")
    print(
        f"{result.combinations:,} combinations; total loss {result.total_loss} Antes; house "
        f"edge {float(result.house_edge) * 100:.4f} %, element of risk "
        f"{float(result.element_of_risk) * 100:.4f} %"
    )


if __name__ == "__main__":
    main()
