"""Tables for users and their session tokens."""

from __future__ import annotations

import datetime as dt
from enum import StrEnum

from sqlalchemy import Boolean, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from croupier.server.base import Base, UtcDateTime, utcnow

__all__ = ["AuthToken", "Role", "User"]


class Role(StrEnum):
    """What a user may do: players play, operators also move money in and out and see all."""

    PLAYER = "player"
    OPERATOR = "operator"


class User(Base):
    """A person with a login."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username: Mapped[str] = mapped_column(String(64), unique=True)
    username_key: Mapped[str] = mapped_column(String(64), unique=True)
    """The username under NFKC and case folding: two accounts never share it (``Boss`` and
    ``boss`` are one name). See :func:`croupier.server.accounts.service.username_key`."""
    password_hash: Mapped[str] = mapped_column(String(255))
    role: Mapped[str] = mapped_column(String(16), default=Role.PLAYER.value)
    disabled: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[dt.datetime] = mapped_column(UtcDateTime, default=utcnow)


class AuthToken(Base):
    """A session token; only its keyed hash is stored, never the token itself."""

    __tablename__ = "auth_tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[dt.datetime] = mapped_column(UtcDateTime, default=utcnow)
    expires_at: Mapped[dt.datetime] = mapped_column(UtcDateTime)
    revoked_at: Mapped[dt.datetime | None] = mapped_column(UtcDateTime, default=None)
