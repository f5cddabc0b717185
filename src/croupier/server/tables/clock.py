"""The clock tables read for their timers: real time in service, a hand-cranked one in tests."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import threading
import time
from typing import Protocol

__all__ = ["Clock", "ManualClock", "MonotonicClock"]


class Clock(Protocol):
    """Seconds on a monotonic scale, and a way to wait for some of them to pass."""

    def now(self) -> float: ...

    async def sleep(self, seconds: float) -> None: ...


class MonotonicClock:
    """Real time: :func:`time.monotonic` and :func:`asyncio.sleep`."""

    def now(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))


class ManualClock:
    """Time moves only when a test calls :meth:`advance` (from any thread)."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._lock = threading.Lock()
        self._order = itertools.count()
        self._sleepers: list[
            tuple[float, int, asyncio.AbstractEventLoop, asyncio.Future[None]]
        ] = []

    def now(self) -> float:
        with self._lock:
            return self._now

    async def sleep(self, seconds: float) -> None:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        with self._lock:
            if seconds <= 0:
                future.set_result(None)
            else:
                heapq.heappush(
                    self._sleepers, (self._now + seconds, next(self._order), loop, future)
                )
        await future

    def advance(self, seconds: float) -> None:
        """Move time forward and wake every sleeper whose time has come."""
        with self._lock:
            self._now += seconds
            due = []
            while self._sleepers and self._sleepers[0][0] <= self._now:
                due.append(heapq.heappop(self._sleepers))
        for _, _, loop, future in due:
            loop.call_soon_threadsafe(_wake, future)


def _wake(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)
