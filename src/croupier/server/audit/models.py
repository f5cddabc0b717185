"""The audit log's table: one row per entry, chained by hash (see :mod:`.chain`)."""

from __future__ import annotations

from sqlalchemy import BigInteger, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from croupier.server.base import Base

__all__ = ["AuditEntry"]


class AuditEntry(Base):
    """One entry. ``seq`` is the primary key and ``prev_hash`` is unique, so two writers that
    read the same tail cannot both chain from it: the database refuses the second (a fork)."""

    __tablename__ = "audit_log"

    seq: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    at: Mapped[str] = mapped_column(String(40), index=True)
    """When, exactly as hashed: ISO 8601 in UTC with microseconds (so it sorts as text)."""
    actor: Mapped[str] = mapped_column(String(64), index=True)
    action: Mapped[str] = mapped_column(String(64), index=True)
    subject: Mapped[str] = mapped_column(String(128), index=True)
    details: Mapped[str] = mapped_column(Text)
    """Canonical JSON text (what is hashed)."""
    prev_hash: Mapped[str] = mapped_column(String(64), unique=True)
    hash: Mapped[str] = mapped_column(String(64), unique=True)
