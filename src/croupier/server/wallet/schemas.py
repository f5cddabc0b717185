"""Request and response bodies for the wallet."""

from __future__ import annotations

import datetime as dt
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from croupier.server.wallet.service import MAX_AMOUNT

__all__ = ["Amount", "BalancePublic", "MoneyRequest", "MovementPublic", "PostingPublic"]

Amount = Annotated[int, Field(strict=True, gt=0, le=MAX_AMOUNT)]
"""A positive whole number of minor units; floats, strings and bools are refused."""


class MoneyRequest(BaseModel):
    """An operator's credit or debit (the idempotency key travels in the header)."""

    model_config = ConfigDict(extra="forbid")

    amount: Amount
    memo: str = Field(default="", max_length=200)


class MovementPublic(BaseModel):
    """The result of a movement; ``replayed`` is true when the key had already been applied."""

    transaction_id: int
    kind: str
    amount: int
    balance: int
    replayed: bool


class BalancePublic(BaseModel):
    """A player's balance, derived from postings."""

    user_id: int
    balance: int


class PostingPublic(BaseModel):
    """One line of a statement."""

    model_config = ConfigDict(from_attributes=True)

    transaction_id: int
    kind: str
    amount: int
    round_id: int | None
    memo: str
    created_at: dt.datetime
