"""The server process's Python runtime: its garbage collector, tuned for a live table.

A live table allocates a great deal that lives briefly (frames, events, the database's
rows) while its process holds a large heap that lives long (a thousand connections, the
tables' event logs, the modules). CPython's default thresholds (700, 10, 10) then run a
young collection every few hundred allocations and a full one, which walks the whole heap,
every few hundred young ones: in the load benchmark a third of the server's CPU and its
worst pauses (``benchmarks/load_uth.py``, README "Figures"). :func:`tune_gc` freezes what
the process has built by the time it serves (never collected: it lives as long as the
process) and collects the young generation every :data:`THRESHOLDS` ``[0]`` allocations.
Garbage in reference cycles is still collected, only less often.
"""

from __future__ import annotations

import gc
from typing import Final

__all__ = ["THRESHOLDS", "tune_gc"]

THRESHOLDS: Final = (50_000, 20, 20)
"""Allocations between young collections; young collections between middle ones; middle
ones between full ones (CPython also waits for a quarter of the heap to be new)."""


def tune_gc() -> tuple[int, int, int]:
    """Freeze the objects alive now and set :data:`THRESHOLDS`; the thresholds before."""
    before = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
    return before
