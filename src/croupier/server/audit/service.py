"""Audit services: append an entry in the caller's transaction, read pages, verify the chain.

:func:`append` is called by every operator action and every change to an account, a table or
a limit, in the same transaction as the change, so the change and its entry commit together
or not at all. Call it last before the commit: on PostgreSQL it locks the log until the
transaction ends so that concurrent writers (several server processes) append one after the
other instead of forking the chain; on SQLite every writer already holds the database's write
lock (``BEGIN IMMEDIATE``). The unique ``prev_hash`` is the backstop: a writer that somehow
read a stale tail is refused by the database.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select, text
from sqlalchemy.orm import Session

from croupier.server.audit.chain import GENESIS, Break, Entry, canonical_json, first_break
from croupier.server.audit.models import AuditEntry
from croupier.server.base import utcnow
from croupier.server.errors import InvalidRequestError

__all__ = ["SYSTEM", "Verification", "append", "audit_recovery", "entries", "page", "verify"]

SYSTEM = "system"
"""The actor of what the server does by itself (the operator ensured at start, crash voids)."""

_SECRET_WORDS = ("password", "token", "secret")
_BATCH = 1000


def _check_details(details: Mapping[str, Any]) -> str:
    for key in details:
        if not isinstance(key, str):
            raise InvalidRequestError(f"audit details keys must be strings, not {key!r}")
        if any(word in key.lower() for word in _SECRET_WORDS):
            raise InvalidRequestError(f"audit details must not hold a secret ({key!r})")
    try:
        return canonical_json(dict(details))
    except (TypeError, ValueError) as exc:
        raise InvalidRequestError(f"audit details are not JSON: {exc}") from None


def _check_text(name: str, value: object, limit: int) -> str:
    if not isinstance(value, str) or not value or len(value) > limit:
        raise InvalidRequestError(f"audit {name} must be 1 to {limit} characters, not {value!r}")
    return value


def _lock(session: Session) -> None:
    if session.get_bind().dialect.name == "postgresql":
        # Conflicts with itself only: readers (SELECT) go on; writers queue until commit.
        session.execute(text("LOCK TABLE audit_log IN SHARE ROW EXCLUSIVE MODE"))


def append(
    session: Session,
    *,
    actor: str,
    action: str,
    subject: str,
    details: Mapping[str, Any] | None = None,
) -> Entry:
    """Append one entry to the log in the caller's transaction and return it.

    Raises:
        InvalidRequestError: an empty or over-long field, details that are not JSON or that
            name a secret (a password or token never goes into the log).
    """
    actor = _check_text("actor", actor, 64)
    action = _check_text("action", action, 64)
    subject = _check_text("subject", subject, 128)
    _check_details(details or {})
    _lock(session)
    tail = session.execute(
        select(AuditEntry.seq, AuditEntry.hash).order_by(AuditEntry.seq.desc()).limit(1)
    ).first()
    seq, prev = (tail.seq + 1, tail.hash) if tail is not None else (1, GENESIS)
    entry = Entry.make(
        seq=seq,
        at=utcnow().isoformat(timespec="microseconds"),
        actor=actor,
        action=action,
        subject=subject,
        details=details or {},
        prev_hash=prev,
    )
    session.add(
        AuditEntry(
            seq=entry.seq,
            at=entry.at,
            actor=actor,
            action=action,
            subject=subject,
            details=entry.details,
            prev_hash=prev,
            hash=entry.hash,
        )
    )
    session.flush()
    return entry


def _entry(row: AuditEntry) -> Entry:
    return Entry(
        seq=row.seq,
        at=row.at,
        actor=row.actor,
        action=row.action,
        subject=row.subject,
        details=row.details,
        prev_hash=row.prev_hash,
        hash=row.hash,
    )


def entries(session: Session) -> Iterator[Entry]:
    """Every entry in ``seq`` order, read in batches (the log may be long)."""
    after = 0
    while True:
        rows = list(
            session.scalars(
                select(AuditEntry)
                .where(AuditEntry.seq > after)
                .order_by(AuditEntry.seq)
                .limit(_BATCH)
            )
        )
        if not rows:
            return
        for row in rows:
            yield _entry(row)
        after = rows[-1].seq


def page(session: Session, *, before: int | None = None, limit: int = 100) -> list[Entry]:
    """Up to ``limit`` entries, newest first, older than ``before`` (a ``seq``) if given."""
    query = select(AuditEntry).order_by(AuditEntry.seq.desc()).limit(limit)
    if before is not None:
        query = query.where(AuditEntry.seq < before)
    return [_entry(row) for row in session.scalars(query)]


@dataclass(frozen=True, slots=True, kw_only=True)
class Verification:
    """The result of checking the whole chain."""

    entries: int
    """How many entries were read."""
    head: str
    """The hash of the last entry (``GENESIS`` for an empty log): write it down elsewhere;
    a later check with ``expected_head`` then also catches entries cut from the end."""
    broken: Break | None

    @property
    def ok(self) -> bool:
        return self.broken is None


def verify(session: Session, *, expected_head: str | None = None) -> Verification:
    """Check every entry of the chain; name the first broken one.

    ``expected_head``, a head hash noted earlier, must be the hash of some entry still in the
    chain (entries cut from the end of the log are otherwise undetectable).
    """
    count, head, seen = 0, GENESIS, expected_head is None

    def tracked() -> Iterator[Entry]:
        nonlocal count, head, seen
        for entry in entries(session):
            count += 1
            yield entry
            head = entry.hash
            seen = seen or entry.hash == expected_head

    broken = first_break(tracked())
    if broken is None and not seen:
        total = session.scalar(select(func.count()).select_from(AuditEntry)) or 0
        broken = Break(
            seq=total + 1,
            position=total + 1,
            reason=f"the head {expected_head} noted earlier is not in the chain "
            "(entries were cut from its end or the chain was rewritten)",
        )
    return Verification(entries=count, head=head, broken=broken)


def audit_recovery(session: Session, voided: list[int]) -> None:
    """Record the rounds voided at start because a crash left them open (stakes returned)."""
    append(
        session,
        actor=SYSTEM,
        action="rounds.void_after_crash",
        subject="rounds",
        details={"rounds": voided, "count": len(voided)},
    )
