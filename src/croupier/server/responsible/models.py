"""What a player chose to protect themselves: limits, self-exclusions, the reality check."""

from __future__ import annotations

import datetime as dt
from enum import StrEnum

from sqlalchemy import BigInteger, Boolean, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from croupier.server.base import Base, UtcDateTime, utcnow

__all__ = ["LimitKind", "Period", "PlayerLimit", "RealityCheck", "SelfExclusion"]


class LimitKind(StrEnum):
    """What a limit bounds (docs/responsible-gaming.md gives each its exact definition)."""

    DEPOSIT = "deposit"
    LOSS = "loss"
    WAGER = "wager"


class Period(StrEnum):
    """A rolling window ending now."""

    DAY = "day"
    WEEK = "week"
    MONTH = "month"


class PlayerLimit(Base):
    """One limit of one player, and a raise waiting for its 24 hours."""

    __tablename__ = "player_limits"
    __table_args__ = (UniqueConstraint("user_id", "kind", "period"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    period: Mapped[str] = mapped_column(String(8))
    amount: Mapped[int | None] = mapped_column(BigInteger, default=None)
    """The limit in force (minor units); ``None``: none (a removal that took effect)."""
    pending_amount: Mapped[int | None] = mapped_column(BigInteger, default=None)
    pending_remove: Mapped[bool] = mapped_column(Boolean, default=False)
    pending_at: Mapped[dt.datetime | None] = mapped_column(UtcDateTime, default=None)
    """When the pending raise (``pending_amount``, or removal) takes effect; ``None``: none."""
    updated_at: Mapped[dt.datetime] = mapped_column(UtcDateTime, default=utcnow)


class SelfExclusion(Base):
    """A self-exclusion: no bet, seat or deposit from ``started_at`` to ``until`` (or ever)."""

    __tablename__ = "self_exclusions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    started_at: Mapped[dt.datetime] = mapped_column(UtcDateTime, default=utcnow)
    until: Mapped[dt.datetime | None] = mapped_column(UtcDateTime, default=None)
    permanent: Mapped[bool] = mapped_column(Boolean, default=False)
    days: Mapped[int | None] = mapped_column(Integer, default=None)


class RealityCheck(Base):
    """A player's reality check: every ``interval_minutes`` of a session, a reminder."""

    __tablename__ = "reality_checks"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    interval_minutes: Mapped[int | None] = mapped_column(Integer, default=None)
    acknowledged_at: Mapped[dt.datetime | None] = mapped_column(UtcDateTime, default=None)
    """The last reminder the player acknowledged (the next is due an interval after it)."""
    updated_at: Mapped[dt.datetime] = mapped_column(UtcDateTime, default=utcnow)
