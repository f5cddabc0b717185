"""The deposit requests a player makes at the cashier and an operator approves or refuses."""

from __future__ import annotations

import datetime as dt
from enum import StrEnum

from sqlalchemy import ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from croupier.chips import Chips
from croupier.server.base import Base, UtcDateTime, utcnow

__all__ = ["DepositRequest", "DepositStatus"]


class DepositStatus(StrEnum):
    """A request waits (``pending``) until the player cancels it or an operator decides."""

    PENDING = "pending"
    APPROVED = "approved"
    REFUSED = "refused"
    CANCELLED = "cancelled"


class DepositRequest(Base):
    """A player's request to have ``amount`` (minor units) credited to their wallet."""

    __tablename__ = "deposit_requests"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    amount: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), default=DepositStatus.PENDING.value, index=True)
    created_at: Mapped[dt.datetime] = mapped_column(UtcDateTime, default=utcnow)
    decided_at: Mapped[dt.datetime | None] = mapped_column(UtcDateTime, default=None)
    decided_by: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), default=None
    )
    transaction_id: Mapped[int | None] = mapped_column(Integer, default=None)
    """The ledger transaction of the credit, once approved."""
    note: Mapped[str] = mapped_column(String(200), default="")

    @property
    def chips(self) -> Chips:
        return Chips(self.amount)
