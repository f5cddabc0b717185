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
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from croupier.server.accounts.models import AuthToken, Role, User
from croupier.server.audit import service as audit
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


def register(
    session: Session,
    *,
    username: str,
    password: str,
    role: Role = Role.PLAYER,
    actor: str | None = None,
) -> User:
    """Create a user and their (empty) wallet account; the audit log records it (``actor``:
    who did it, by default the new user).

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
    audit.append(
        session,
        actor=actor or username,
        action="account.register",
        subject=f"user:{user.id}",
        details={"username": username, "role": role.value},
    )
    return user


def ensure_operator(session: Session, *, username: str, password: str) -> User:
    """The operator ``username``, created if missing (its password is then ``password``).

    Creating the account or making an existing user an operator is recorded in the audit log
    (actor ``system``); finding the operator already there changes nothing and records nothing.
    """
    user = session.scalars(select(User).where(User.username == username)).first()
    if user is None:
        return register(
            session, username=username, password=password, role=Role.OPERATOR, actor=audit.SYSTEM
        )
    if user.role != Role.OPERATOR.value:
        previous, user.role = user.role, Role.OPERATOR.value
        audit.append(
            session,
            actor=audit.SYSTEM,
            action="account.role",
            subject=f"user:{user.id}",
            details={"username": username, "from": previous, "to": user.role},
        )
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
        audit.append(
            session,
            actor=user.username,
            action="account.password_rehash",
            subject=f"user:{user.id}",
            details={"reason": "hashing parameters changed"},
        )
    return user


def _token_hash(token: str, *, secret: str) -> str:
    return hmac.new(secret.encode(), token.encode(), hashlib.sha256).hexdigest()


def issue_token(session: Session, *, user: User, secret: str, ttl_seconds: int) -> IssuedToken:
    """A new session token for ``user``, valid for ``ttl_seconds``."""
    token = secrets.token_urlsafe(32)
    expires = utcnow() + dt.timedelta(seconds=ttl_seconds)
    session.add(
        AuthToken(user_id=user.id, token_hash=_token_hash(token, secret=secret), expires_at=expires)
    )
    session.flush()
    return IssuedToken(token=token, expires_at=expires)


def user_for_token(session: Session, *, token: str, secret: str) -> User:
    """The user a live session token belongs to.

    Raises:
        AuthenticationError: unknown, expired or revoked token, or a disabled user.
    """
    if not token or len(token) > 256:
        raise AuthenticationError("missing or malformed session token")
    row = session.scalars(
        select(AuthToken).where(AuthToken.token_hash == _token_hash(token, secret=secret))
    ).first()
    if row is None or row.revoked_at is not None or row.expires_at <= utcnow():
        raise AuthenticationError("session token is unknown, expired or revoked")
    user = session.get(User, row.user_id)
    if user is None or user.disabled:
        raise AuthenticationError("session token is unknown, expired or revoked")
    return user


def revoke_token(session: Session, *, token: str, secret: str, actor: str | None = None) -> None:
    """End a session (logging out twice is harmless); a session ended is recorded in the audit
    log (by ``actor``, the user logging out) with the token's row id, never the token."""
    digest = _token_hash(token, secret=secret)
    row = session.scalars(
        select(AuthToken).where(AuthToken.token_hash == digest, AuthToken.revoked_at.is_(None))
    ).first()
    if row is None:
        return
    row.revoked_at = utcnow()
    audit.append(
        session,
        actor=actor or audit.SYSTEM,
        action="session.revoke",
        subject=f"user:{row.user_id}",
        details={"session": row.id},
    )


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
