"""Tables for rounds: the commitment, the record, who played, and voids."""

from __future__ import annotations

import datetime as dt
from enum import StrEnum
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column
from sqlalchemy.sql.elements import ColumnElement

from croupier.server.base import Base, UtcDateTime, utcnow

__all__ = ["Round", "RoundPlayer", "RoundStatus", "RoundVoid", "dealt"]


class RoundStatus(StrEnum):
    """A round is open until it is settled or voided; nothing else moves it."""

    OPEN = "open"
    SETTLED = "settled"
    VOIDED = "voided"


class Round(Base):
    """One round (one hand) at one table.

    ``salt`` and ``deck`` are secret while the round is open; only ``commitment``
    (SHA-256 of ``salt:deck``) is published before the deal.
    """

    __tablename__ = "rounds"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_name: Mapped[str] = mapped_column(String(64), index=True)
    game: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16), index=True, default=RoundStatus.OPEN.value)
    commitment: Mapped[str] = mapped_column(String(64))
    salt: Mapped[str] = mapped_column(String(64))
    deck: Mapped[str] = mapped_column(Text)
    record: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    summary: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    created_at: Mapped[dt.datetime] = mapped_column(UtcDateTime, default=utcnow)
    closed_at: Mapped[dt.datetime | None] = mapped_column(UtcDateTime, default=None)
    betting_open: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """The round takes bets (issue 18: a cluster's gateways hold stakes for it only while
    this is set; the owner clears it when betting closes)."""
    decision_phase: Mapped[str | None] = mapped_column(String(16), default=None)
    """The decision phase whose extra stakes (a UTH Play bet) a cluster's gateways may hold
    now (issue 18, :mod:`.window`); ``None``: none."""


def dealt() -> ColumnElement[bool]:
    """Whether a round was dealt: every round has its deck's commitment but a cluster's next
    round recorded for bets and never played (:mod:`.nextround`), which reports leave out."""
    return Round.commitment != ""


class RoundPlayer(Base):
    """A user with a stake in a round, and the seat they played from."""

    __tablename__ = "round_players"
    __table_args__ = (UniqueConstraint("round_id", "user_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="RESTRICT"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    staked: Mapped[int] = mapped_column(BigInteger, default=0)
    returned: Mapped[int | None] = mapped_column(BigInteger, default=None)


class RoundVoid(Base):
    """Why and when a round was voided, and the transaction that returned the stakes."""

    __tablename__ = "round_voids"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id", ondelete="RESTRICT"), unique=True)
    reason: Mapped[str] = mapped_column(String(255))
    transaction_id: Mapped[int | None] = mapped_column(
        ForeignKey("ledger_transactions.id", ondelete="RESTRICT"), default=None
    )
    created_at: Mapped[dt.datetime] = mapped_column(UtcDateTime, default=utcnow)
