"""The lease of a table (migration ``0006_leases``)."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import BigInteger, String
from sqlalchemy.orm import Mapped, mapped_column

from croupier.server.base import Base, UtcDateTime

__all__ = ["TableLease"]


class TableLease(Base):
    """Which process owns a table, until when, under which fencing token."""

    __tablename__ = "table_leases"

    table_name: Mapped[str] = mapped_column(String(64), primary_key=True)
    owner: Mapped[str] = mapped_column(String(128))
    token: Mapped[int] = mapped_column(BigInteger)
    """Grows by one at every change of owner: the fence a stale owner's writes fail on."""
    expires_at: Mapped[dt.datetime] = mapped_column(UtcDateTime)
    acquired_at: Mapped[dt.datetime] = mapped_column(UtcDateTime)
