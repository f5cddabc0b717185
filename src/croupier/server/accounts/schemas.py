"""Request and response bodies for accounts (Create / Public, as in the FastAPI template)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["AccountStatus", "Credentials", "TokenPublic", "UserCreate", "UserPublic"]


class UserCreate(BaseModel):
    """Registration: the service checks the rules (username characters after NFKC, password
    length and strength) and says which was broken."""

    model_config = ConfigDict(extra="forbid")

    username: str = Field(min_length=1, max_length=64)
    password: str = Field(max_length=1024)


class Credentials(BaseModel):
    """A login."""

    model_config = ConfigDict(extra="forbid")

    username: str = Field(max_length=64)
    password: str = Field(max_length=256)


class UserPublic(BaseModel):
    """What anyone may learn about a user."""

    model_config = ConfigDict(from_attributes=True)

    id: int
    username: str
    role: str
    created_at: dt.datetime


class TokenPublic(BaseModel):
    """A session token, returned once at login."""

    access_token: str
    token_type: str = "bearer"
    expires_at: dt.datetime
    user: UserPublic
    self_exclusion: dict[str, Any] | None = None
    """The player's self-exclusion in force (``until``, ``permanent``): they may log in, but
    not bet, sit or deposit until then."""


class AccountStatus(BaseModel):
    """An account as an operator manages it."""

    id: int
    username: str
    disabled: bool
