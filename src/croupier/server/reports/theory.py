"""Theoretical figures per game and pay table, cached, never computed on the event loop.

UTH's figures come from the exact analysis for the table's Blind pay table (Trips moments
follow from the same outcomes for any Trips table at once): the spec's table ships with the
package; any other takes a full exact run (15-60 s on two cores), done in one worker process
so that neither the event loop nor the GIL waits for it. Until it is done the figure is
``computing``; a Blind table the analysis refuses is ``unavailable`` with the reason.
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass

from croupier.analysis.uth.moments import (
    BlindKey,
    UthOutcomes,
    blind_key,
    exact_outcomes,
    load_default_outcomes,
)
from croupier.analysis.uth.paytables import PayTable
from croupier.errors import CroupierError

__all__ = ["Lookup", "TheoryBook"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Lookup:
    """The state of one pay table's figures."""

    status: str
    """``ready``, ``computing`` or ``unavailable``."""
    outcomes: UthOutcomes | None = None
    reason: str = ""


class TheoryBook:
    """The cache. ``inline=True`` computes in the caller instead (the command line)."""

    def __init__(
        self,
        *,
        compute: Callable[[BlindKey], UthOutcomes] = exact_outcomes,
        inline: bool = False,
    ) -> None:
        default = load_default_outcomes()
        self._ready: dict[BlindKey, UthOutcomes] = {default.blind: default}
        self._failed: dict[BlindKey, str] = {}
        self._pending: dict[BlindKey, Future[UthOutcomes]] = {}
        self._compute = compute
        self._inline = inline
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None

    def uth(self, blind: PayTable) -> Lookup:
        """The figures for ``blind``; starts computing them if nobody has yet."""
        try:
            key = blind_key(blind)
        except CroupierError as exc:
            return Lookup("unavailable", reason=str(exc))
        with self._lock:
            if key in self._ready:
                return Lookup("ready", self._ready[key])
            if key in self._failed:
                return Lookup("unavailable", reason=self._failed[key])
            if key in self._pending:
                return Lookup("computing")
            if not self._inline:
                self._start(key)
                return Lookup("computing")
        return self._run_inline(key)

    def warm(self, blinds: Iterable[PayTable]) -> None:
        """Start computing every Blind table in ``blinds`` now (at server start)."""
        for blind in blinds:
            self.uth(blind)

    def close(self) -> None:
        """Stop the worker (a run in progress is abandoned)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            # An abandoned exact run is of no use: end the worker rather than let it finish.
            for process in list(getattr(pool, "_processes", {}).values()):
                process.terminate()
            pool.shutdown(wait=False, cancel_futures=True)

    def _run_inline(self, key: BlindKey) -> Lookup:
        try:
            outcomes = self._compute(key)
        except CroupierError as exc:
            with self._lock:
                self._failed[key] = str(exc)
            return Lookup("unavailable", reason=str(exc))
        with self._lock:
            self._ready[key] = outcomes
        return Lookup("ready", outcomes)

    def _start(self, key: BlindKey) -> None:
        if self._pool is None:
            context = multiprocessing.get_context("spawn")  # no fork of a threaded server
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=context)
        future = self._pool.submit(self._compute, key)
        self._pending[key] = future
        future.add_done_callback(lambda done: self._finished(key, done))

    def _finished(self, key: BlindKey, future: Future[UthOutcomes]) -> None:
        with self._lock:
            self._pending.pop(key, None)
            if future.cancelled():
                return
            error = future.exception()
            if error is None:
                self._ready[key] = future.result()
            else:
                self._failed[key] = str(error) or type(error).__name__
                log.warning("exact analysis failed for Blind table %s: %s", key, error)
