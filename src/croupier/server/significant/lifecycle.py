"""The server's own significant events: its start and stop, and steps of the wall clock.

A start records the version, the node, the database's kind, what the integrity check found
and how the node's previous run ended: ``stopped`` (a stop event follows its start),
``crashed`` (none does: killed, or the machine failed) or ``first``. The clock watch compares
the wall clock's progress with the monotonic clock's every few seconds: an NTP correction or an
operator setting the time moves the first and not the second, and a step larger than the
setting is recorded with its size (a round's times around it are then not comparable).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy import select

from croupier.server.audit.models import AuditEntry
from croupier.server.db import Database
from croupier.server.significant import service
from croupier.server.significant.kinds import ACTION_PREFIX, Kind

__all__ = ["ClockWatch", "previous_run", "record_start", "record_stop"]

log = logging.getLogger(__name__)

_LIFECYCLE = (ACTION_PREFIX + Kind.SERVER_START.value, ACTION_PREFIX + Kind.SERVER_STOP.value)


def previous_run(session: Any, node: str) -> str:
    """How ``node``'s previous run ended: ``stopped``, ``crashed`` or ``first``."""
    rows = session.execute(
        select(AuditEntry.action, AuditEntry.details)
        .where(AuditEntry.action.in_(_LIFECYCLE))
        .order_by(AuditEntry.seq.desc())
        .limit(200)
    )
    for action, details in rows:
        if json.loads(details).get("node") != node:
            continue
        return "stopped" if action.endswith(Kind.SERVER_STOP.value) else "crashed"
    return "first"


def record_start(db: Database, *, node: str, details: Mapping[str, Any]) -> dict[str, Any]:
    """Record the start of ``node`` (with ``details``); the details recorded."""
    with db.session() as session:
        recorded = {
            **details,
            "node": node,
            "database": db.engine.dialect.name,
            "previous_run": previous_run(session, node),
        }
        service.record(session, Kind.SERVER_START, subject=f"node:{node}", details=recorded)
    return recorded


def record_stop(db: Database, *, node: str, started: float) -> None:
    """Record a clean stop of ``node`` (``started``: its ``time.monotonic()`` at start)."""
    uptime = round(time.monotonic() - started, 3)
    with db.session() as session:
        service.record(
            session,
            Kind.SERVER_STOP,
            subject=f"node:{node}",
            details={"node": node, "uptime_seconds": uptime},
        )


class ClockWatch:
    """Watches the wall clock against the monotonic one (a task on the event loop)."""

    def __init__(
        self,
        db: Database,
        *,
        node: str,
        step_seconds: float,
        every_seconds: float,
        wall: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.db = db
        self.node = node
        self.step_seconds = step_seconds
        self.every_seconds = every_seconds
        self.wall = wall
        self.monotonic = monotonic
        self.steps = 0
        self._last = (wall(), monotonic())
        self._task: asyncio.Task[None] | None = None

    def check(self) -> float | None:
        """Compare the clocks now; the step (seconds, signed) when it exceeds the setting."""
        wall, mono = self.wall(), self.monotonic()
        before_wall, before_mono = self._last
        self._last = (wall, mono)
        step = (wall - before_wall) - (mono - before_mono)
        if abs(step) <= self.step_seconds:
            return None
        self.steps += 1
        log.warning("the wall clock stepped %+.3f s", step)
        with self.db.session() as session:
            service.record(
                session,
                Kind.CLOCK_STEP,
                subject=f"node:{self.node}",
                details={
                    "node": self.node,
                    "step_seconds": round(step, 6),
                    "threshold_seconds": self.step_seconds,
                    "wall_before": before_wall,
                    "wall_after": wall,
                },
            )
        return step

    def start(self) -> None:
        async def run() -> None:
            while True:
                await asyncio.sleep(self.every_seconds)
                try:
                    await asyncio.to_thread(self.check)
                except Exception:  # the watch must not die: log and go on
                    log.exception("clock check failed")

        self._task = asyncio.create_task(run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
