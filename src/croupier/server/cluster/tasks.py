"""Tasks a cluster's parts start and forget: kept referenced until they end (asyncio holds
only weak references to running tasks); and tasks stopped for sure (:func:`stop`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine, Iterable
from typing import Any

__all__ = ["Background", "stop"]

log = logging.getLogger(__name__)

STOP_WAIT = 1.0
"""Seconds a cancelled task is given to end before it is cancelled again."""
STOP_TRIES = 5


class Background:
    """A set of fire-and-forget tasks, each kept until it ends."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    def start(self, work: Coroutine[Any, Any, Any]) -> None:
        """Run ``work`` on the running loop."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


async def stop(tasks: Iterable[asyncio.Task[Any]], *, what: str = "tasks") -> None:
    """Cancel ``tasks`` and wait until they end, whatever they raise. A task still running a
    while after its cancellation is cancelled again: a task can lose its cancellation (a
    fenced owner's publisher and reaper did, in one to three runs of five of
    ``tests/cluster``'s fenced-owner case -- most likely inside a Redis call, not proven --
    and went back to waiting for work, the stop with them). After :data:`STOP_TRIES`
    attempts the ones left are logged and left behind."""
    every = list(tasks)
    pending = {task for task in every if not task.done()}
    for attempt in range(STOP_TRIES):
        if not pending:
            break
        if attempt:
            names = ", ".join(sorted(task.get_name() for task in pending))
            log.warning("%s: %s still ran %g s after its cancellation", what, names, STOP_WAIT)
        for task in pending:
            task.cancel()
        _, pending = await asyncio.wait(pending, timeout=STOP_WAIT)
    for task in every:
        if task.done() and not task.cancelled():
            task.exception()  # retrieved: an error of a task stopped is not an error to log
    if pending:
        left = ", ".join(sorted(task.get_name() for task in pending))
        log.error("%s would not stop when cancelled: %s", what, left)
