"""Benchmarks only: ``load_uth.py --same-deal SEED`` puts this directory on the servers'
``PYTHONPATH`` (Python imports ``sitecustomize`` at start) with ``BENCH_SHOE_SEED`` set. Every
shoe such a process deals is then shuffled by ``random.Random(SEED)`` afresh: every round, in
any checkout, deals the same cards, so two checkouts' runs play the same hands (a live table's
bots all play one hand: how many decisions they send depends on its cards). Without the
variable, or in a process without croupier, it does nothing. Never on a real server.
"""

import os

_seed = os.environ.get("BENCH_SHOE_SEED")
if _seed:
    try:
        import random

        import croupier.server.rng as _rng
        from croupier.deck import PyRandomSource

        _rng.csprng_source = lambda: PyRandomSource(random.Random(int(_seed)))  # type: ignore[assignment]
    except ImportError:  # not a croupier process
        pass
