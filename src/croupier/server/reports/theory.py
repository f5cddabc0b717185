"""Theoretical figures computed for the operator's reports, cached, never on the event loop.

A game's theory (:class:`croupier.server.rounds.theory.GameTheory`, from its descriptor) asks
the book for what it needs by a key and the function that computes it (UTH: the exact
analysis of a table's Blind pay table, :mod:`croupier.server.tables.uth_theory`). A
computation runs once, in one worker process, so that neither the event loop nor the GIL
waits for it; until it is done its figure is ``computing``, and one that fails is
``unavailable`` with the reason. Nothing here knows a game.
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
from collections.abc import Callable, Hashable
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from croupier.errors import CroupierError
from croupier.server.rounds.theory import TheoryLookup

__all__ = ["Lookup", "TheoryBook"]

log = logging.getLogger(__name__)


Lookup = TheoryLookup
"""The state of one computation: ``ready`` (with its ``outcomes``), ``computing`` or
``unavailable`` (with the ``reason``)."""

Compute = Callable[[Any], Any]
"""A computation: its key -> what it computes (a module-level function, or a
``functools.partial`` of one: it is sent to the worker process)."""


class TheoryBook:
    """The cache. ``inline=True`` computes in the caller instead (the command line);
    ``compute`` replaces every computation asked for (tests: a smaller deck)."""

    def __init__(self, *, compute: Compute | None = None, inline: bool = False) -> None:
        self._ready: dict[Hashable, Any] = {}
        self._failed: dict[Hashable, str] = {}
        self._pending: dict[Hashable, Future[Any]] = {}
        self._compute = compute
        self._inline = inline
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None

    def lookup(self, key: Hashable, compute: Compute) -> Lookup:
        """What ``compute(key)`` gives; starts computing it if nobody has yet."""
        slot = (getattr(compute, "__module__", ""), getattr(compute, "__qualname__", ""), key)
        run = self._compute or compute
        with self._lock:
            if slot in self._ready:
                return Lookup("ready", self._ready[slot])
            if slot in self._failed:
                return Lookup("unavailable", reason=self._failed[slot])
            if slot in self._pending:
                return Lookup("computing")
            if not self._inline:
                self._start(slot, run, key)
                return Lookup("computing")
        return self._run_inline(slot, run, key)

    def close(self) -> None:
        """Stop the worker (a run in progress is abandoned)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            # An abandoned exact run is of no use: end the worker rather than let it finish.
            for process in list(getattr(pool, "_processes", {}).values()):
                process.terminate()
            pool.shutdown(wait=False, cancel_futures=True)

    def _run_inline(self, slot: Hashable, run: Compute, key: Hashable) -> Lookup:
        try:
            outcomes = run(key)
        except CroupierError as exc:
            with self._lock:
                self._failed[slot] = str(exc)
            return Lookup("unavailable", reason=str(exc))
        with self._lock:
            self._ready[slot] = outcomes
        return Lookup("ready", outcomes)

    def _start(self, slot: tuple[str, str, Hashable], run: Compute, key: Hashable) -> None:
        if self._pool is None:
            context = multiprocessing.get_context("spawn")  # no fork of a threaded server
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=context)
        future = self._pool.submit(run, key)
        self._pending[slot] = future
        future.add_done_callback(lambda done: self._finished(slot, done))

    def _finished(self, slot: tuple[str, str, Hashable], future: Future[Any]) -> None:
        with self._lock:
            self._pending.pop(slot, None)
            if future.cancelled():
                return
            error = future.exception()
            if error is None:
                self._ready[slot] = future.result()
            else:
                self._failed[slot] = str(error) or type(error).__name__
                log.warning("a theoretical computation failed for %s: %s", slot[2], error)
