"""When the self-check runs and what it does about a mismatch: at start, before the tables
open, then every ``integrity_check_hours``; each check is a significant event (``integrity``),
and the tables a mismatch concerns are closed, as an operator closes them (audited
``table.close``, by ``system``, the reason in the entry). A table whose pay tables differ from
its approved ones gets its approved configuration back in the same change (what it ran is in
the event), so that an operator who opens it again opens what was approved."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from typing import Any

from croupier.server.audit.service import SYSTEM
from croupier.server.db import Database
from croupier.server.floor import store
from croupier.server.floor.models import TableStatus
from croupier.server.integrity.check import Report, check
from croupier.server.settings import Settings
from croupier.server.significant import service as significant
from croupier.server.significant.kinds import Kind
from croupier.server.tables.config import TableConfig
from croupier.server.tables.manager import TableManager

__all__ = ["IntegrityWatch"]

log = logging.getLogger(__name__)


class IntegrityWatch:
    """Runs the checks of one server process and keeps the last report."""

    def __init__(
        self,
        db: Database,
        manager: TableManager,
        *,
        settings: Settings,
        node: str,
        floor_lock: threading.Lock,
        state: dict[str, Any],
    ) -> None:
        self.db, self.manager, self.settings, self.node = db, manager, settings, node
        self.floor_lock = floor_lock
        self.state = state
        """The app's ``integrity`` state: the last report, as JSON (the console, metrics)."""
        self._task: asyncio.Task[None] | None = None

    def run(self) -> Report:
        """Check now (a database session of its own); keeps the report."""
        with self.db.session() as session:
            report = check(
                session,
                manifest_path=self.settings.integrity_manifest,
                configs=dict(self.manager.configs),
            )
        self.state.clear()
        self.state.update({"checked": True, **report.to_json()})
        if not report.ok:
            log.error("integrity check: %s", report.summary())
        return report

    def _close(self, names: list[str], report: Report) -> dict[str, TableConfig]:
        """Close ``names`` in the database (audited), the approved configuration restored
        where the pay tables differ; the configuration each closed table now has."""
        closed: dict[str, TableConfig] = {}
        reason = f"integrity check: {report.summary()}"[:1000]
        with self.floor_lock, self.db.session() as session:
            for name in names:
                row = store.get(session, name, lock=True)
                current = store.stored(row)
                config = report.approved.get(name, current.config)
                if name not in report.tables:
                    config = current.config
                if current.closed and config == current.config:
                    continue
                changed: dict[str, Any] = {"status": {"from": current.status.value, "to": "closed"}}
                if config != current.config:
                    changed["restored"] = {
                        "from": store.config_json(current.config)["rules"],
                        "to": store.config_json(config)["rules"],
                    }
                store.update(
                    session, row, config=config, status=TableStatus.CLOSED, actor=SYSTEM,
                    changed={**changed, "reason": reason},
                )  # fmt: skip
                closed[name] = config
        return closed

    def _record(self, report: Report, closed: list[str], *, when: str) -> None:
        details = {**report.to_json(), "closed": closed, "when": when, "node": self.node}
        details["files"] = _short(details["files"])
        with self.db.session() as session:
            significant.record(
                session, Kind.INTEGRITY, subject=f"node:{self.node}", details=details
            )

    async def _apply(self, report: Report, *, when: str) -> Report:
        names = report.to_close(list(self.manager.configs))
        closed = await asyncio.to_thread(self._close, names, report)
        for name, config in closed.items():
            changed = {"status": {"from": "open", "to": "closed"}, "reason": "integrity check"}
            await self.manager.change(name, config, closed=True, changed=changed)
        await asyncio.to_thread(self._record, report, sorted(closed), when=when)
        return report

    async def at_start(self) -> Report:
        """The check before the tables open: the tables a mismatch concerns open closed."""
        return await self._apply(await asyncio.to_thread(self.run), when="start")

    async def periodic(self) -> Report:
        """A scheduled check: running tables a mismatch concerns are closed at once (the round
        in play finishes, as when an operator closes them)."""
        return await self._apply(await asyncio.to_thread(self.run), when="scheduled")

    def start(self) -> None:
        hours = self.settings.integrity_check_hours
        if hours <= 0:
            return

        async def loop() -> None:
            while True:
                await asyncio.sleep(hours * 3600)
                try:
                    await self.periodic()
                except Exception:  # keep checking: log and go on
                    log.exception("integrity check failed")

        self._task = asyncio.create_task(loop())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


def _short(value: Any) -> Any:
    """File lists cut to 50 names each (the event stays readable)."""
    if not isinstance(value, dict):
        return value
    return {
        k: ([*v[:50], f"... {len(v) - 50} more"] if len(v) > 50 else v) for k, v in value.items()
    }
