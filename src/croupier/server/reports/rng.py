"""The RNG audit over the shuffles the server dealt, as JSON (``croupier rng audit --json``
and the operator's console, ``GET /api/operator/reports/rng``)."""

from __future__ import annotations

import datetime as dt
import math
from typing import Any

from sqlalchemy.orm import Session

from croupier.analysis.rng import AuditReport, battery
from croupier.server.reports.decks import DeckSample, read_decks

__all__ = ["audit_json", "record_failure", "report_json"]


def _number(value: float) -> float | None:
    return None if math.isnan(value) else value


def report_json(report: AuditReport, sample: DeckSample) -> dict[str, Any]:
    """The audit as JSON-ready data."""
    return {
        "decks": report.decks,
        "rounds": sample.rounds,
        "skipped": sample.skipped,
        "first_round": sample.first_round,
        "last_round": sample.last_round,
        "confidence": report.confidence,
        "passed": report.passed,
        "false_alarm_rate": report.false_alarm_rate,
        "tests": [
            {
                "name": t.name,
                "statistic": _number(t.statistic),
                "df": t.df,
                "p_value": t.p_value,
                "passed": t.passed,
                "note": t.note,
            }
            for t in report.tests
        ],
    }


def audit_json(
    session: Session,
    *,
    since: dt.datetime | None = None,
    until: dt.datetime | None = None,
    table: str | None = None,
    game: str | None = None,
    confidence: float = 0.99,
) -> dict[str, Any]:
    """Read the closed rounds' decks and run the battery (docs/rng-audit.md)."""
    sample = read_decks(session, since=since, until=until, table=table, game=game)
    return report_json(battery(sample.decks, confidence=confidence), sample)


def record_failure(
    session: Session, report: dict[str, Any], *, actor: str, scope: dict[str, Any]
) -> bool:
    """A failed audit (``report`` as :func:`report_json` gives it) is a significant event
    (GLI-19 §2.8.8), in the caller's transaction; whether it was one."""
    from croupier.server.significant import service as significant
    from croupier.server.significant.kinds import Kind

    if report.get("passed") is not False:
        return False
    failed = [t["name"] for t in report.get("tests", []) if t.get("passed") is False]
    significant.record(
        session,
        Kind.RNG_AUDIT_FAILED,
        actor=actor,
        subject="rng",
        details={
            "failed": failed,
            "decks": report.get("decks"),
            "first_round": report.get("first_round"),
            "last_round": report.get("last_round"),
            "confidence": report.get("confidence"),
            **{k: v for k, v in scope.items() if v is not None},
        },
    )
    return True
