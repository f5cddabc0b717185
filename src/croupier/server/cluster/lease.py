"""Table leases in PostgreSQL, and the fence an owner's every transaction passes.

A process owns a table while it holds the table's row in ``table_leases`` (migration
``0006_leases``): :func:`acquire` takes a free or expired lease and adds one to its fencing
token, :func:`renew` extends it (only under the token it was taken with), :func:`release`
gives it up. Time is the database's (``now()``), so the processes' clocks do not matter.

:class:`FencedDatabase` is the database an owned table writes through: each of its
transactions first calls ``croupier_fence(table, token)``, which raises unless the token is
still the table's and holds the lease row until the transaction ends, so a takeover waits for
it; a stale owner's transaction fails there (and a trigger on ``rounds`` refuses any round
written without the fence). The failure is :class:`Fenced`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from sqlalchemy import text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from croupier.server.db import Database
from croupier.server.errors import ServiceUnavailable

__all__ = [
    "FENCED_SQLSTATE",
    "Fenced",
    "FencedDatabase",
    "Lease",
    "acquire",
    "is_fenced",
    "leases",
    "release",
    "renew",
]

FENCED_SQLSTATE = "CF001"
"""The SQLSTATE ``croupier_fence`` and the rounds trigger raise."""


class Fenced(ServiceUnavailable):
    """A write refused by the database: this process no longer holds the table's lease."""


@dataclass(frozen=True, slots=True)
class Lease:
    table: str
    owner: str
    token: int
    expires_at: dt.datetime


def _seconds(seconds: float) -> float:
    if not 0 < seconds <= 3600:
        raise ValueError(f"a lease lasts between 0 and 3600 s, not {seconds!r}")
    return float(seconds)


def acquire(session: Session, *, table: str, owner: str, seconds: float) -> Lease | None:
    """Take table ``table``'s lease for ``owner`` if nobody holds it or it has run out (its
    token then grows by one); ``None`` when another process holds it."""
    row = session.execute(
        text(
            "INSERT INTO table_leases (table_name, owner, token, expires_at, acquired_at) "
            "VALUES (:table, :owner, 1, now() + make_interval(secs => :secs), now()) "
            "ON CONFLICT (table_name) DO UPDATE SET owner = excluded.owner, "
            "token = table_leases.token + 1, expires_at = excluded.expires_at, "
            "acquired_at = excluded.acquired_at "
            "WHERE table_leases.expires_at < now() "
            "RETURNING token, expires_at"
        ),
        {"table": table, "owner": owner, "secs": _seconds(seconds)},
    ).first()
    if row is None:
        return None
    return Lease(table, owner, int(row.token), row.expires_at)


def renew(session: Session, *, lease: Lease, seconds: float) -> Lease | None:
    """Extend ``lease`` by ``seconds`` from now; ``None`` when it is no longer this owner's
    (another process took the table: its token changed)."""
    row = session.execute(
        text(
            "UPDATE table_leases SET expires_at = now() + make_interval(secs => :secs) "
            "WHERE table_name = :table AND owner = :owner AND token = :token "
            "RETURNING expires_at"
        ),
        {
            "table": lease.table,
            "owner": lease.owner,
            "token": lease.token,
            "secs": _seconds(seconds),
        },
    ).first()
    if row is None:
        return None
    return Lease(lease.table, lease.owner, lease.token, row.expires_at)


def release(session: Session, *, lease: Lease) -> bool:
    """Give ``lease`` up now (a process stopping hands its tables over at once)."""
    result = session.execute(
        text(
            "UPDATE table_leases SET expires_at = now() - interval '1 second' "
            "WHERE table_name = :table AND owner = :owner AND token = :token"
        ),
        {"table": lease.table, "owner": lease.owner, "token": lease.token},
    )
    return bool(getattr(result, "rowcount", 0))


def leases(session: Session) -> dict[str, Lease]:
    """Every table's lease, live or run out, by table."""
    rows = session.execute(
        text("SELECT table_name, owner, token, expires_at FROM table_leases")
    ).all()
    return {r.table_name: Lease(r.table_name, r.owner, int(r.token), r.expires_at) for r in rows}


def is_fenced(exc: BaseException) -> bool:
    """Whether ``exc`` is the database refusing a stale owner."""
    if isinstance(exc, Fenced):
        return True
    if isinstance(exc, DBAPIError):
        return getattr(exc.orig, "sqlstate", None) == FENCED_SQLSTATE
    return False


class FencedDatabase(Database):
    """The database as the owner of one table under one token sees it: every transaction
    passes the fence first; one the database refuses raises :class:`Fenced` and calls
    ``on_fenced`` (the owner then stops the table at once)."""

    __slots__ = ("_on_fenced", "table", "token")

    def __init__(
        self, db: Database, *, table: str, token: int, on_fenced: Callable[[], None]
    ) -> None:
        # Shares the engine and the pool of ``db``: only the transactions differ.
        self.engine = db.engine
        self.sessions = db.sessions
        # Reads of one statement pass no fence: they write nothing, and what a stale owner
        # does with what it read is fenced at its next write (and its frames are dropped by
        # the gateways by token).
        self.statements = db.statements
        self.table = table
        self.token = token
        self._on_fenced = on_fenced

    @contextmanager
    def session(self) -> Iterator[Session]:
        try:
            with self.sessions() as session, session.begin():
                session.execute(
                    text("SELECT croupier_fence(:table, :token)"),
                    {"table": self.table, "token": self.token},
                )
                yield session
        except DBAPIError as exc:
            if not is_fenced(exc):
                raise
            self._on_fenced()
            raise Fenced(
                f"table {self.table!r} is no longer this server's (lease token "
                f"{self.token}): nothing was written",
                reason="table_moved",
            ) from None
