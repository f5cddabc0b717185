"""The server process's garbage collector (server/runtime.py), tuned in a child interpreter:
the test process's own collector is left as it is."""

from __future__ import annotations

import json
import subprocess
import sys

_CHILD = """
import gc, json, weakref
from croupier.server.runtime import THRESHOLDS, tune_gc

before = tune_gc()
frozen = gc.get_freeze_count()
collected = 0

def gone(_):
    global collected
    collected += 1

class Node:
    pass

refs = []
for _ in range(300_000):  # garbage in cycles, never collected by reference counting
    a, b = Node(), Node()
    a.other, b.other = b, a
    refs.append(weakref.ref(a, gone))
    del a, b
print(json.dumps({"before": before, "after": gc.get_threshold(), "thresholds": THRESHOLDS,
                  "frozen": frozen, "collected": collected}))
"""


def test_the_server_collects_less_often_and_still_collects_cycles() -> None:
    out = subprocess.run(
        [sys.executable, "-c", _CHILD], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    found = json.loads(out)
    assert found["before"] == [700, 10, 10]  # CPython's defaults, replaced
    assert found["after"] == found["thresholds"] and found["after"][0] > 700
    assert found["frozen"] > 1_000  # the modules and what startup built: never walked again
    # Cycles still go, without any explicit gc.collect(): most of the 300,000 are gone.
    assert found["collected"] > 250_000
