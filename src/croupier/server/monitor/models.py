"""The monitor's tables: each stream's detector, the alerts, and each player's channel."""

from __future__ import annotations

import datetime as dt
from enum import StrEnum
from typing import Any

from sqlalchemy import JSON, BigInteger, Float, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from croupier.server.base import Base, UtcDateTime, utcnow

__all__ = ["AlertStatus", "Outcome", "RtpAlert", "RtpStream", "UserChannel"]


class RtpStream(Base):
    """One monitored stream: a table, a stake band or a channel of a table, or a node."""

    __tablename__ = "rtp_streams"

    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    """``table:casino``, ``table:casino|band:1``, ``table:casino|channel:browser``,
    ``node:host-17``."""
    kind: Mapped[str] = mapped_column(String(16))
    """``table``, ``band``, ``channel`` or ``node``."""
    table_name: Mapped[str | None] = mapped_column(String(64), index=True, default=None)
    label: Mapped[str] = mapped_column(String(120), default="")
    rounds: Mapped[int] = mapped_column(Integer, default=0)
    boxes: Mapped[int] = mapped_column(Integer, default=0)
    base: Mapped[int] = mapped_column(BigInteger, default=0)
    """Sum of the boxes' base stakes (the return is per unit of it)."""
    net: Mapped[int] = mapped_column(BigInteger, default=0)
    mean: Mapped[float] = mapped_column(Float, default=0.0)
    """Sum of the expected results."""
    variance: Mapped[float] = mapped_column(Float, default=0.0)
    """Sum of the rounds' variances (optimal play), for the interval shown."""
    uncovered: Mapped[int] = mapped_column(Integer, default=0)
    """Rounds (or boxes) the theory could not describe."""
    last_round: Mapped[int] = mapped_column(Integer, default=0)
    """A table's stream: the last round monitored (the monitor resumes after it)."""
    detector: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    evidence_high: Mapped[float] = mapped_column(Float, default=0.0)
    evidence_low: Mapped[float] = mapped_column(Float, default=0.0)
    """``log`` of each side's evidence now (an alarm at ``log A``)."""
    started_at: Mapped[dt.datetime] = mapped_column(UtcDateTime, default=utcnow)
    updated_at: Mapped[dt.datetime] = mapped_column(UtcDateTime, default=utcnow)


class AlertStatus(StrEnum):
    OPEN = "open"
    CLOSED = "closed"


class Outcome(StrEnum):
    """What an investigation found."""

    IN_PROGRESS = "in_progress"
    """A note; the alert stays open."""
    FAULT_FOUND = "fault_found"
    NO_FAULT = "no_fault"
    """Chance (a false alarm at the designed rate), or explained (poor play...)."""
    INCONCLUSIVE = "inconclusive"


class RtpAlert(Base):
    """A stream whose return left its band, and its investigation."""

    __tablename__ = "rtp_alerts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    stream: Mapped[str] = mapped_column(String(200), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    table_name: Mapped[str | None] = mapped_column(String(64), index=True, default=None)
    label: Mapped[str] = mapped_column(String(120), default="")
    side: Mapped[str] = mapped_column(String(8))
    """``high``: the players were paid more than the theory allows; ``low``: less."""
    round_id: Mapped[int] = mapped_column(Integer)
    """The round whose result crossed the level (the latest, while the alert is open)."""
    crossings: Mapped[int] = mapped_column(Integer, default=1)
    """How many times the stream crossed the level on this side while the alert was open
    (its detector starts again after each)."""
    rounds: Mapped[int] = mapped_column(Integer)
    base: Mapped[int] = mapped_column(BigInteger)
    actual_return: Mapped[float | None] = mapped_column(Float, default=None)
    theoretical_return: Mapped[float | None] = mapped_column(Float, default=None)
    evidence: Mapped[float] = mapped_column(Float)
    threshold: Mapped[float] = mapped_column(Float)
    """``log A``."""
    raised_at: Mapped[dt.datetime] = mapped_column(UtcDateTime, default=utcnow, index=True)
    status: Mapped[str] = mapped_column(String(16), default=AlertStatus.OPEN.value, index=True)
    outcome: Mapped[str | None] = mapped_column(String(16), default=None)
    notes: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    """Each investigation entry: ``at``, ``by``, ``outcome``, ``note``."""
    closed_at: Mapped[dt.datetime | None] = mapped_column(UtcDateTime, default=None)


class UserChannel(Base):
    """How a player last came to a table: ``browser`` (a page, which sends an ``Origin``) or
    ``api`` (any other client: bots, scripts)."""

    __tablename__ = "user_channels"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    channel: Mapped[str] = mapped_column(String(16))
    agent: Mapped[str] = mapped_column(Text, default="")
    seen_at: Mapped[dt.datetime] = mapped_column(UtcDateTime, default=utcnow)
