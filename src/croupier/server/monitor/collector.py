"""Prometheus metrics of the operations features, read from the database when scraped:
each monitored stream's evidence and return, the open alerts, the significant events."""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Iterator
from typing import Any

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from sqlalchemy import func, select

from croupier.server.audit.models import AuditEntry
from croupier.server.db import Database
from croupier.server.monitor.models import RtpAlert, RtpStream
from croupier.server.significant.kinds import ACTION_PREFIX

__all__ = ["OperationsCollector"]

log = logging.getLogger(__name__)


class OperationsCollector(Collector):
    """Reads the monitor's tables and the audit log at each scrape."""

    def __init__(
        self,
        db: Database,
        *,
        threshold: float,
        integrity: Callable[[], dict[str, Any]],
        monitor: Callable[[], dict[str, Any] | None] = lambda: None,
    ) -> None:
        self.db = db
        self.level = math.log(threshold)
        self.integrity = integrity
        self.monitor = monitor

    def describe(self) -> Iterator[Metric]:
        return iter(())  # read at each scrape only

    def collect(self) -> Iterator[Metric]:
        evidence = GaugeMetricFamily(
            "croupier_rtp_evidence_ratio",
            "Each monitored stream's evidence against its theory, as a fraction of the alarm "
            "level (an alert at 1): side high (paying too much) or low (too little)",
            labels=["stream", "kind", "table", "side"],
        )
        returns = GaugeMetricFamily(
            "croupier_rtp_return",
            "Each monitored stream's return per unit of base stake: actual or theoretical",
            labels=["stream", "kind", "table", "which"],
        )
        rounds = CounterMetricFamily(
            "croupier_rtp_rounds", "Rounds monitored per stream", labels=["stream", "kind", "table"]
        )
        open_alerts = GaugeMetricFamily(
            "croupier_rtp_alerts_open", "Monitor alerts not yet closed by an investigation",
            labels=["table", "side"],
        )  # fmt: skip
        events = CounterMetricFamily(
            "croupier_significant_events",
            "Significant events recorded in the audit chain, by kind",
            labels=["kind"],
        )
        integrity = GaugeMetricFamily(
            "croupier_integrity_ok",
            "1 when the last check of the installed files and pay tables found them as "
            "installed and approved, 0 on a mismatch",
        )
        try:
            self._read(evidence, returns, rounds, open_alerts, events)
        except Exception:  # a scrape never fails the whole exposition
            log.warning("operations metrics unavailable", exc_info=True)
        state = self.integrity()
        if state.get("checked"):
            integrity.add_metric([], 1.0 if state.get("ok") else 0.0)
        yield from (evidence, returns, rounds, open_alerts, events, integrity)
        yield from _process(self.monitor())

    def _read(self, evidence: Any, returns: Any, rounds: Any, alerts: Any, events: Any) -> None:
        with self.db.session() as session:
            for row in session.scalars(select(RtpStream)):
                labels = [row.key, row.kind, row.table_name or ""]
                evidence.add_metric([*labels, "high"], max(row.evidence_high, 0) / self.level)
                evidence.add_metric([*labels, "low"], max(row.evidence_low, 0) / self.level)
                rounds.add_metric(labels, row.rounds)
                if row.base > 0:
                    returns.add_metric([*labels, "actual"], 1 + row.net / row.base)
                    returns.add_metric([*labels, "theoretical"], 1 + row.mean / row.base)
            counted = session.execute(
                select(RtpAlert.table_name, RtpAlert.side, func.count())
                .where(RtpAlert.status == "open")
                .group_by(RtpAlert.table_name, RtpAlert.side)
            )
            for table, side, count in counted:
                alerts.add_metric([table or "", side], count)
            kinds = session.execute(
                select(AuditEntry.action, func.count())
                .where(AuditEntry.action.like(ACTION_PREFIX + "%"))
                .group_by(AuditEntry.action)
            )
            for action, count in kinds:
                events.add_metric([action[len(ACTION_PREFIX) :]], count)


def _process(status: dict[str, Any] | None) -> Iterator[Metric]:
    """The monitor's own process (:meth:`.process.MonitorProcess.status`), if it has one."""
    if status is None:
        return
    up = GaugeMetricFamily(
        "croupier_rtp_monitor_up",
        "1 while the return monitor's process runs (it starts at the first round to take)",
    )
    up.add_metric([], 1.0 if status["alive"] else 0.0)
    crashes = CounterMetricFamily(
        "croupier_rtp_monitor_crashes",
        "Times the return monitor's process died unasked (each time another was started)",
    )
    crashes.add_metric([], status["crashes"])
    waiting = GaugeMetricFamily(
        "croupier_rtp_monitor_waiting",
        "1 for a table whose next round waits for its theory (a pay table's exact run)",
        labels=["table"],
    )
    for table in sorted(status["waiting"]):
        waiting.add_metric([table], 1.0)
    yield from (up, crashes, waiting)
