"""Record significant events in the audit chain and read them back, filtered.

:func:`record` appends one ``event.<kind>`` entry in the caller's transaction (so an event and
what caused it commit together: a big win with its round's settlement); :func:`search` pages
through every significant event, newest first, by kind, table and time.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from croupier.server.audit import service as audit
from croupier.server.audit.chain import Entry, canonical_json
from croupier.server.audit.models import AuditEntry
from croupier.server.errors import InvalidRequestError
from croupier.server.significant.kinds import (
    ACTION_PREFIX,
    CANDIDATE_ACTIONS,
    RECORDED,
    Kind,
    classify,
    table_of,
)

__all__ = [
    "CSV_COLUMNS",
    "Event",
    "EventPage",
    "parse_kinds",
    "record",
    "search",
    "to_csv",
]

CSV_COLUMNS = ("seq", "at", "kind", "actor", "subject", "table", "details", "hash")
_BATCH = 500


def record(
    session: Session,
    kind: Kind,
    *,
    subject: str,
    details: Mapping[str, Any] | None = None,
    actor: str = audit.SYSTEM,
) -> Entry:
    """Append the event to the audit chain in the caller's transaction.

    Raises:
        ValueError: a kind that is recorded by another action (a table change is the
            operator's own ``table.update`` entry).
    """
    if kind not in RECORDED:
        raise ValueError(f"{kind.value} events are the entries of another action")
    return audit.append(
        session, actor=actor, action=ACTION_PREFIX + kind.value, subject=subject, details=details
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """One significant event: its audit entry, classified."""

    seq: int
    at: str
    kind: Kind
    actor: str
    subject: str
    table: str | None
    details: dict[str, Any]
    hash: str

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "at": self.at,
            "kind": self.kind.value,
            "actor": self.actor,
            "subject": self.subject,
            "table": self.table,
            "details": self.details,
            "hash": self.hash,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class EventPage:
    events: list[Event]
    next: int | None
    """The ``before`` of the following page (``None``: no older events)."""


def parse_kinds(values: Iterable[str]) -> frozenset[Kind]:
    """The kinds named (comma-separated lists allowed); empty: every kind.

    Raises:
        InvalidRequestError: a name that is not a kind.
    """
    kinds: set[Kind] = set()
    for value in values:
        for name in filter(None, (part.strip() for part in value.split(","))):
            try:
                kinds.add(Kind(name))
            except ValueError:
                raise InvalidRequestError(
                    f"kind: {name!r} is not a kind of significant event; the kinds are "
                    f"{sorted(k.value for k in Kind)}",
                    reason="event_kind_unknown",
                    params={"kind": name},
                ) from None
    return frozenset(kinds)


def _at(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).isoformat(timespec="microseconds")


def search(
    session: Session,
    *,
    kinds: frozenset[Kind] = frozenset(),
    table: str | None = None,
    since: dt.datetime | None = None,
    until: dt.datetime | None = None,
    before: int | None = None,
    limit: int = 100,
) -> EventPage:
    """Significant events newest first: of ``kinds`` (all when empty), about ``table``, at or
    after ``since`` and before ``until``, older than the entry ``before`` (a ``seq``)."""
    query = select(AuditEntry).where(AuditEntry.action.in_(CANDIDATE_ACTIONS))
    if table is not None:
        query = query.where(AuditEntry.subject == f"table:{table}")
    if since is not None:
        query = query.where(AuditEntry.at >= _at(since))
    if until is not None:
        query = query.where(AuditEntry.at < _at(until))
    found: list[Event] = []
    cursor = before
    while len(found) < limit:
        page = query.order_by(AuditEntry.seq.desc()).limit(_BATCH)
        if cursor is not None:
            page = page.where(AuditEntry.seq < cursor)
        rows = list(session.scalars(page))
        for row in rows:
            details = json.loads(row.details)
            kind = classify(row.action, details)
            if kind is None or (kinds and kind not in kinds):
                continue
            found.append(
                Event(
                    seq=row.seq, at=row.at, kind=kind, actor=row.actor, subject=row.subject,
                    table=table_of(row.subject), details=details, hash=row.hash,
                )
            )  # fmt: skip
            if len(found) == limit:
                break
        if len(rows) < _BATCH:
            return EventPage(events=found, next=None)
        cursor = rows[-1].seq
    return EventPage(events=found, next=found[-1].seq if found else None)


def to_csv(events: Iterable[Event]) -> str:
    """Events as CSV, one line each (details as canonical JSON)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for e in events:
        details = canonical_json(e.details)
        writer.writerow(
            [e.seq, e.at, e.kind.value, e.actor, e.subject, e.table or "", details, e.hash]
        )
    return out.getvalue()
