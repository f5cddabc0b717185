"""Ledger tables: accounts, transactions made of postings, and idempotency keys.

A posting's ``amount`` is signed: positive adds to the account's balance, negative takes from
it. The postings of one transaction sum to zero (double entry), so the sum of every balance in
the ledger is always zero: what players, escrow and the house hold is exactly what the cashier
account has paid in minus what it has paid out.
"""

from __future__ import annotations

import datetime as dt
from enum import StrEnum
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from croupier.server.base import Base, UtcDateTime, utcnow

__all__ = [
    "AccountKind",
    "IdempotencyKey",
    "LedgerAccount",
    "LedgerTransaction",
    "Posting",
    "TransactionKind",
]


class AccountKind(StrEnum):
    """The kinds of ledger account (issue 5, Wallet)."""

    PLAYER = "player"
    ESCROW = "escrow"
    """One per table: stakes accepted but not yet settled."""
    HOUSE = "house"
    """The casino's bankroll: wins and losses against players."""
    RAKE = "rake"
    """Commission taken from pots (Hold'em)."""
    CASHIER = "cashier"
    """Money in and out of the system: operator credits and debits; may go negative."""


class TransactionKind(StrEnum):
    """Why money moved."""

    CREDIT = "credit"
    DEBIT = "debit"
    HOLD = "hold"
    RELEASE = "release"
    """A stake held for a round that the table did not take, returned (issue 18: a gateway
    held a bet its table refused, or never heard of before betting closed)."""
    SETTLE = "settle"
    VOID = "void"
    TRANSFER = "transfer"


class LedgerAccount(Base):
    """An account; ``balance`` caches the sum of its postings and is checked against it."""

    __tablename__ = "ledger_accounts"
    __table_args__ = (CheckConstraint("allow_negative OR balance >= 0", name="non_negative"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(96), unique=True)
    kind: Mapped[str] = mapped_column(String(16), index=True)
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="RESTRICT"), unique=True, default=None
    )
    balance: Mapped[int] = mapped_column(BigInteger, default=0)
    allow_negative: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[dt.datetime] = mapped_column(UtcDateTime, default=utcnow)


class LedgerTransaction(Base):
    """One balanced movement of money."""

    __tablename__ = "ledger_transactions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    round_id: Mapped[int | None] = mapped_column(
        ForeignKey("rounds.id", ondelete="RESTRICT"), index=True, default=None
    )
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="RESTRICT"), index=True, default=None
    )
    """The user the movement concerns (the player betting, the account credited)."""
    memo: Mapped[str] = mapped_column(String(255), default="")
    created_at: Mapped[dt.datetime] = mapped_column(UtcDateTime, default=utcnow)


class Posting(Base):
    """One leg of a transaction: a signed amount on one account."""

    __tablename__ = "postings"
    __table_args__ = (CheckConstraint("amount <> 0", name="nonzero"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    transaction_id: Mapped[int] = mapped_column(
        ForeignKey("ledger_transactions.id", ondelete="RESTRICT"), index=True
    )
    account_id: Mapped[int] = mapped_column(
        ForeignKey("ledger_accounts.id", ondelete="RESTRICT"), index=True
    )
    amount: Mapped[int] = mapped_column(BigInteger)


class IdempotencyKey(Base):
    """A money-moving request already applied: replays return ``response`` unchanged."""

    __tablename__ = "idempotency_keys"
    __table_args__ = (UniqueConstraint("scope", "key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    scope: Mapped[str] = mapped_column(String(64))
    """Whose key space: ``user:<id>`` for a player's own requests, ``operator`` for the cashier."""
    key: Mapped[str] = mapped_column(String(128))
    request_hash: Mapped[str] = mapped_column(String(64))
    response: Mapped[dict[str, Any]] = mapped_column(JSON)
    transaction_id: Mapped[int | None] = mapped_column(
        ForeignKey("ledger_transactions.id", ondelete="RESTRICT"), default=None
    )
    created_at: Mapped[dt.datetime] = mapped_column(UtcDateTime, default=utcnow)
