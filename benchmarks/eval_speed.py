"""Evaluator speed: the same table as `croupier bench eval` (prints; never asserted).

Run: .venv/bin/python benchmarks/eval_speed.py [--hands N]
"""

from __future__ import annotations

import sys

from croupier.cli import main

if __name__ == "__main__":
    sys.argv = ["croupier", "bench", "eval", *sys.argv[1:]]
    main()
