"""The server's operations features, started and stopped with the app (issue 30).

- significant events: the server's start (with how its previous run ended) and stop, steps of
  the wall clock (:mod:`.significant.lifecycle`), big wins at each settlement;
- the live return monitor (:mod:`.monitor`): a child process following the settled rounds of
  the tables this process runs (:mod:`.monitor.process`; a thread for an in-memory SQLite
  database, which no other process can open);
- the self-check of the installation (:mod:`.integrity`), at start and every
  ``integrity_check_hours``, closing every table on a mismatch.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import socket
import time
from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI
from sqlalchemy.orm import Session

from croupier.analysis.monitoring import CLIP, LAMBDAS, design_threshold
from croupier.errors import ConfigError
from croupier.server.db import Database
from croupier.server.integrity.paytables import approved_config
from croupier.server.integrity.watch import IntegrityWatch
from croupier.server.monitor.channels import ChannelBook
from croupier.server.monitor.collector import OperationsCollector
from croupier.server.monitor.process import NICE, ChildConfig, MonitorProcess
from croupier.server.monitor.service import Setup
from croupier.server.monitor.settlement import watch_settlements
from croupier.server.monitor.streams import Policy, band_label
from croupier.server.monitor.worker import Monitor
from croupier.server.reports.theory import TheoryBook
from croupier.server.settings import Settings
from croupier.server.significant.lifecycle import ClockWatch, record_start, record_stop
from croupier.server.tables.manager import TableManager
from croupier.server.tables.registry import theories

__all__ = ["HOURS_PER_YEAR", "Operations", "approved_rules", "node_name"]

log = logging.getLogger(__name__)

HOURS_PER_YEAR = 8766.0
"""365.25 days."""


def node_name(settings: Settings) -> str:
    """This process's name: ``node_id`` if set; ``local`` for a lone server; host and pid in
    a cluster."""
    if settings.node_id:
        return settings.node_id
    if settings.redis_url is None:
        return "local"
    return f"{socket.gethostname()}-{os.getpid()}"


def design(settings: Settings) -> dict[str, Any]:
    """The monitor's alarm level and what it rests on (``GET /api/operator/monitor``)."""
    bands = tuple(sorted(settings.rtp_stake_bands))
    streams = 1 + (len(bands) + 1) + 2  # the table, its stake bands, its two channels
    per_year = settings.rtp_rounds_per_hour * HOURS_PER_YEAR
    threshold = design_threshold(
        rounds_per_year=per_year,
        detectors=2 * streams,
        alarms_per_year=settings.rtp_false_alarms_per_year,
    )
    if threshold <= 1:
        raise ConfigError(
            f"rtp_false_alarms_per_year {settings.rtp_false_alarms_per_year} at "
            f"{settings.rtp_rounds_per_hour} rounds an hour puts the alarm level at "
            f"{threshold:.3g}: it must be above 1 (at most {2 * streams * per_year:,.0f} a year)"
        )
    return {
        "threshold": threshold,
        "level": math.log(threshold),
        "rounds_per_hour": settings.rtp_rounds_per_hour,
        "rounds_per_year": per_year,
        "streams_per_table": streams,
        "detectors_per_table": 2 * streams,
        "false_alarms_per_table_year": settings.rtp_false_alarms_per_year,
        "bands": [band_label(i, bands) for i in range(len(bands) + 1)],
        "variance_margin": settings.rtp_variance_margin,
        "play_allowance": settings.rtp_play_allowance,
        "lambdas": list(LAMBDAS),
        "clip": CLIP,
    }


def approved_rules(session: Session, table: str) -> Mapping[str, Any] | None:
    """The rules the audit log last approved for ``table`` (``None``: none recorded whole)."""
    approval = approved_config(session, table)
    if approval is not None and approval.config is not None:
        return approval.config.rules
    return None


def _in_memory(url: str) -> bool:
    return url.startswith("sqlite") and (":memory:" in url or url in {"sqlite://", "sqlite:///"})


class Operations:
    """What runs beside the tables; :meth:`start` in the app's lifespan, :meth:`stop` at its
    end."""

    def __init__(self, app: FastAPI, settings: Settings, db: Database, manager: TableManager):
        self.app, self.settings, self.db, self.manager = app, settings, db, manager
        self.node = node_name(settings)
        self.started = time.monotonic()
        self.monitor: Monitor | MonitorProcess | None = None
        self.clock: ClockWatch | None = None
        self.integrity: IntegrityWatch | None = None
        self._unhook: Any = None
        self.design = design(settings)
        app.state.monitor_design = self.design
        app.state.channels = ChannelBook(db)
        app.state.integrity = {"checked": False}

    def win_threshold(self, table: str) -> int | None:
        config = self.manager.configs.get(table)
        if config is not None and config.win_alert is not None:
            return config.win_alert
        return self.settings.win_alert

    def rules_of(self, session: Session, table: str) -> Mapping[str, Any] | None:
        """The rules the audit log last approved for ``table`` (the monitor's theory: a pay
        table changed in the database behind the log's back is not believed); the running
        configuration's for a table changed before approvals were recorded whole."""
        approved = approved_rules(session, table)
        if approved is not None:
            return approved
        config = self.manager.configs.get(table)
        return None if config is None else config.rules

    async def start(self, *, details: Mapping[str, Any]) -> None:
        """Check the installation (closing the tables a mismatch concerns, before they open);
        record the start; hook the settlements; start the monitor and the watches."""
        s = self.settings
        started = dict(details)
        if s.integrity_check:
            self.integrity = IntegrityWatch(
                self.db, self.manager, settings=s, node=self.node,
                floor_lock=self.app.state.floor_lock, state=self.app.state.integrity,
            )  # fmt: skip
            report = await self.integrity.at_start()
            started["integrity"] = {"ok": report.ok, "manifest": report.manifest_digest}
            self.integrity.start()
        record_start(self.db, node=self.node, details=started)
        policy = Policy(
            bands=tuple(sorted(s.rtp_stake_bands)),
            margin=s.rtp_variance_margin,
            allowance=s.rtp_play_allowance,
            node=self.node if s.rtp_node_streams else None,
        )
        if s.rtp_monitor:
            self.monitor = self._monitor(policy)
        monitor = self.monitor
        self._unhook = watch_settlements(
            self.db,
            threshold=self.win_threshold,
            settled=(lambda tables: monitor.notify(tables)) if monitor else (lambda _t: None),
        )
        if monitor is not None:
            monitor.start(list(self.manager.configs))
        self.app.state.monitor = monitor
        self.app.state.monitor_status = self.monitor_status
        self.app.state.metrics.registry.register(
            OperationsCollector(
                self.db,
                threshold=self.design["threshold"],
                integrity=self._integrity,
                monitor=self.monitor_status,
            )
        )
        self.clock = ClockWatch(
            self.db,
            node=self.node,
            step_seconds=s.clock_step_seconds,
            every_seconds=s.clock_check_seconds,
        )
        self.clock.start()
        self.app.state.clock_watch = self.clock

    def _monitor(self, policy: Policy) -> Monitor | MonitorProcess:
        s = self.settings
        owned = lambda: list(self.manager.tables)  # noqa: E731
        if _in_memory(s.database_url) or not s.rtp_monitor_process:
            setup = Setup(
                policy=policy,
                threshold=self.design["threshold"],
                theories=theories(),
                book=self.app.state.theory,
                rules_of=self.rules_of,
            )
            return Monitor(self.db, setup, owned=owned, webhook=s.alert_webhook_url)
        config = ChildConfig(
            database_url=s.database_url,
            policy=policy,
            threshold=self.design["threshold"],
            tables=tuple(self.manager.configs),
            webhook=s.alert_webhook_url,
            hang_seconds=s.rtp_monitor_hang_seconds,
            nice=min(os.getpriority(os.PRIO_PROCESS, 0) + NICE, 19),
            approved=approved_rules,
            book=TheoryBook,
        )
        return MonitorProcess(
            self.db,
            config,
            owned=owned,
            rules=lambda: {name: c.rules for name, c in self.manager.configs.items()},
        )

    def monitor_status(self) -> dict[str, Any] | None:
        """The monitor's process (the operator's page, the metrics): ``None`` when off."""
        return None if self.monitor is None else self.monitor.status()

    def _integrity(self) -> dict[str, Any]:
        state: dict[str, Any] = self.app.state.integrity
        return state

    async def stop(self) -> None:
        """Stop the watch and the monitor, then record the stop (after the tables stopped)."""
        if self.clock is not None:
            await self.clock.stop()
        if self.integrity is not None:
            await self.integrity.stop()
        if self.monitor is not None:
            await asyncio.to_thread(self.monitor.stop)
        if self._unhook is not None:
            self._unhook()
        with contextlib.suppress(Exception):
            await asyncio.to_thread(record_stop, self.db, node=self.node, started=self.started)
