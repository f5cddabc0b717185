"""The tables of the floor, as operators left them: what a restart opens again."""

from __future__ import annotations

import datetime as dt
from enum import StrEnum
from typing import Any

from sqlalchemy import JSON, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from croupier.server.base import Base, UtcDateTime, utcnow

__all__ = ["TableRow", "TableStatus"]


class TableStatus(StrEnum):
    """Whether a table takes new players and bets (a closed one finishes its round first)."""

    OPEN = "open"
    CLOSED = "closed"


class TableRow(Base):
    """One table: its whole configuration, shaped like a ``tables.toml`` entry."""

    __tablename__ = "casino_tables"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    game: Mapped[str] = mapped_column(String(16))
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    """:class:`croupier.server.tables.config.TableConfig` as JSON (``name``, ``game``,
    ``title``, timers and ``rules``)."""
    status: Mapped[str] = mapped_column(String(16), default=TableStatus.OPEN.value)
    position: Mapped[int] = mapped_column(Integer, default=0)
    """The lobby's order: seeded tables in file order, tables opened later after them."""
    version: Mapped[int] = mapped_column(Integer, default=1)
    """1 when created, +1 per change."""
    created_at: Mapped[dt.datetime] = mapped_column(UtcDateTime, default=utcnow)
    updated_at: Mapped[dt.datetime] = mapped_column(UtcDateTime, default=utcnow)
    updated_by: Mapped[str] = mapped_column(String(64), default="system")
