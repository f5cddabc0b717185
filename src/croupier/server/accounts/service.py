"""Account services: registration, argon2 passwords, session tokens, roles."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from croupier.server.accounts.models import AuthToken, Role, User
from croupier.server.base import utcnow
from croupier.server.errors import (
    AuthenticationError,
    ConflictError,
    InvalidRequestError,
    NotFoundError,
    PermissionDeniedError,
)
from croupier.server.wallet.service import player_account

__all__ = [
    "IssuedToken",
    "authenticate",
    "check_password",
    "check_username",
    "ensure_operator",
    "get_user",
    "hash_password",
    "issue_token",
    "register",
    "require_operator",
    "revoke_token",
    "session_for_token",
    "set_disabled",
    "token_hash",
    "user_for_token",
]

_HASHER = PasswordHasher()
_USERNAME = re.compile(r"[A-Za-z0-9_.-]{3,32}")
_MIN_PASSWORD = 8
_MAX_PASSWORD = 256
# Verified against when the username is unknown, so a miss costs as much as a wrong password.
_DUMMY_HASH = _HASHER.hash("not a password of anybody")


@dataclass(frozen=True, slots=True)
class IssuedToken:
    """A new session token: shown to the client once; only its keyed hash is stored."""

    token: str
    expires_at: dt.datetime


def check_username(username: object) -> str:
    """Return ``username`` if it is 3 to 32 letters, digits, ``_``, ``.`` or ``-``."""
    if not isinstance(username, str) or _USERNAME.fullmatch(username) is None:
        raise InvalidRequestError(
            f"username {username!r} must be 3 to 32 letters, digits, '_', '.' or '-'"
        )
    return username


def check_password(password: object) -> str:
    """Return ``password`` if it is 8 to 256 characters."""
    if not isinstance(password, str) or not _MIN_PASSWORD <= len(password) <= _MAX_PASSWORD:
        raise InvalidRequestError(
            f"a password must be {_MIN_PASSWORD} to {_MAX_PASSWORD} characters"
        )
    return password


def hash_password(password: str) -> str:
    """An argon2id hash of ``password``."""
    return _HASHER.hash(password)


def register(session: Session, *, username: str, password: str, role: Role = Role.PLAYER) -> User:
    """Create a user and their (empty) wallet account.

    Raises:
        InvalidRequestError: a malformed username or password.
        ConflictError: the username is taken.
    """
    username = check_username(username)
    password = check_password(password)
    user = User(username=username, password_hash=hash_password(password), role=role.value)
    try:
        with session.begin_nested():
            session.add(user)
            session.flush()
    except IntegrityError:
        raise ConflictError(f"username {username!r} is taken") from None
    player_account(session, user_id=user.id)
    return user


def ensure_operator(session: Session, *, username: str, password: str) -> User:
    """The operator ``username``, created if missing (its password is then ``password``)."""
    user = session.scalars(select(User).where(User.username == username)).first()
    if user is None:
        return register(session, username=username, password=password, role=Role.OPERATOR)
    if user.role != Role.OPERATOR.value:
        user.role = Role.OPERATOR.value
    return user


def authenticate(session: Session, *, username: str, password: str) -> User:
    """The user with these credentials.

    Raises:
        AuthenticationError: unknown user, wrong password or disabled account (one message
            for all three, so a caller cannot probe which usernames exist).
    """
    user = session.scalars(select(User).where(User.username == username)).first()
    stored = user.password_hash if user is not None else _DUMMY_HASH
    try:
        _HASHER.verify(stored, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        user = None
    if user is None or user.disabled:
        raise AuthenticationError("wrong username or password")
    if _HASHER.check_needs_rehash(user.password_hash):
        user.password_hash = hash_password(password)
    return user


def token_hash(token: str, *, secret: str) -> str:
    """The keyed hash under which a session token is stored (HMAC-SHA256 under ``secret``)."""
    return hmac.new(secret.encode(), token.encode(), hashlib.sha256).hexdigest()


def issue_token(session: Session, *, user: User, secret: str, ttl_seconds: int) -> IssuedToken:
    """A new session token for ``user``, valid for ``ttl_seconds``."""
    token = secrets.token_urlsafe(32)
    expires = utcnow() + dt.timedelta(seconds=ttl_seconds)
    session.add(
        AuthToken(user_id=user.id, token_hash=token_hash(token, secret=secret), expires_at=expires)
    )
    session.flush()
    return IssuedToken(token=token, expires_at=expires)


def user_for_token(session: Session, *, token: str, secret: str) -> User:
    """The user a live session token belongs to.

    Raises:
        AuthenticationError: unknown, expired or revoked token, or a disabled user.
    """
    return session_for_token(session, token=token, secret=secret)[0]


def session_for_token(session: Session, *, token: str, secret: str) -> tuple[User, AuthToken]:
    """The user a live session token belongs to, and the token's row (its hash and expiry).

    Raises:
        AuthenticationError: unknown, expired or revoked token, or a disabled user.
    """
    if not isinstance(token, str) or not token or len(token) > 256:
        raise AuthenticationError("missing or malformed session token")
    row = session.scalars(
        select(AuthToken).where(AuthToken.token_hash == token_hash(token, secret=secret))
    ).first()
    if row is None or row.revoked_at is not None or row.expires_at <= utcnow():
        raise AuthenticationError("session token is unknown, expired or revoked")
    user = session.get(User, row.user_id)
    if user is None or user.disabled:
        raise AuthenticationError("session token is unknown, expired or revoked")
    return user, row


def revoke_token(session: Session, *, token: str, secret: str) -> None:
    """End a session (logging out twice is harmless)."""
    session.execute(
        update(AuthToken)
        .where(AuthToken.token_hash == token_hash(token, secret=secret))
        .values(revoked_at=utcnow())
    )


def set_disabled(session: Session, *, user_id: int, disabled: bool, by: User) -> User:
    """Disable (or enable again) an account; disabling revokes every session token it has.

    Raises:
        NotFoundError: no such user.
        ConflictError: an operator disabling their own account.
    """
    user = get_user(session, user_id=user_id)
    if disabled and user.id == by.id:
        raise ConflictError("an operator cannot disable their own account")
    user.disabled = disabled
    if disabled:
        session.execute(
            update(AuthToken)
            .where(AuthToken.user_id == user.id, AuthToken.revoked_at.is_(None))
            .values(revoked_at=utcnow())
        )
    session.flush()
    return user


def get_user(session: Session, *, user_id: int) -> User:
    """The user ``user_id``.

    Raises:
        NotFoundError: no such user.
    """
    user = session.get(User, user_id)
    if user is None:
        raise NotFoundError(f"user {user_id} does not exist")
    return user


def require_operator(user: User) -> User:
    """``user`` if they are an operator.

    Raises:
        PermissionDeniedError: a player.
    """
    if user.role != Role.OPERATOR.value:
        raise PermissionDeniedError(f"user {user.username!r} is not an operator")
    return user
