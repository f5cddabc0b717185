"""Account services: registration, argon2 passwords, session tokens, roles."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import re
import secrets
import unicodedata
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from croupier.server.accounts.models import AuthToken, Role, User
from croupier.server.accounts.passwords import check_strength
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
    "AuthenticationError",
    "IssuedToken",
    "authenticate",
    "check_password",
    "check_username",
    "create_user",
    "ensure_operator",
    "find_login",
    "get_user",
    "hash_password",
    "issue_token",
    "needs_rehash",
    "register",
    "require_operator",
    "revoke_token",
    "session_for_token",
    "set_disabled",
    "token_hash",
    "user_for_token",
    "username_key",
    "verify_password",
]

# argon2id with argon2-cffi's default cost (3 passes over 64 MiB) on ONE lane: a hash is then one
# thread's work, done in the hashing pool's low-priority threads (passwords.py), instead of
# four threads per hash crowding out the event loop on a small machine. Hashes made with
# other parameters are re-made at the next login (``needs_rehash``).
_HASHER = PasswordHasher(parallelism=1)
_USERNAME = re.compile(r"[A-Za-z0-9_.-]{3,32}")
# Verified against when the username is unknown, so a miss costs as much as a wrong password.
_DUMMY_HASH = _HASHER.hash("not a password of anybody")


@dataclass(frozen=True, slots=True)
class IssuedToken:
    """A new session token: shown to the client once; only its keyed hash is stored."""

    token: str
    expires_at: dt.datetime


def username_key(username: str) -> str:
    """The form under which usernames are unique: Unicode NFKC, then case folded (issue 13:
    ``Boss`` may not register beside ``boss``, nor ``ｂｏｓｓ`` in full-width letters).

    >>> username_key("Boss") == username_key("ｂｏｓｓ") == "boss"
    True
    """
    nfkc = unicodedata.normalize("NFKC", username)
    return unicodedata.normalize("NFKC", nfkc.casefold())


def check_username(username: object) -> str:
    """Return ``username`` (NFKC-normalised) if it is 3 to 32 letters, digits, ``_``, ``.``
    or ``-``."""
    if isinstance(username, str):
        username = unicodedata.normalize("NFKC", username)
    if not isinstance(username, str) or _USERNAME.fullmatch(username) is None:
        raise InvalidRequestError(
            f"username {username!r} must be 3 to 32 letters, digits, '_', '.' or '-'",
            reason="username_invalid",
        )
    return username


def check_password(password: object, *, username: str = "") -> str:
    """Return ``password`` if it is 10 to 256 characters and not guessable (zxcvbn score 3
    or more with the username and the site's words; :mod:`.passwords`)."""
    return check_strength(password, username=username)


def hash_password(password: str) -> str:
    """An argon2id hash of ``password``."""
    return _HASHER.hash(password)


def verify_password(stored: str | None, password: str) -> bool:
    """Whether ``password`` matches the argon2 hash ``stored`` (``None``: an unknown user,
    checked against a dummy hash so that a miss takes as long as a wrong password)."""
    try:
        return bool(_HASHER.verify(stored or _DUMMY_HASH, password)) and stored is not None
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def needs_rehash(stored: str) -> bool:
    return bool(_HASHER.check_needs_rehash(stored))


def find_login(session: Session, *, username: str) -> User | None:
    """The user logging in as ``username``: the exact name first (an account whose name
    collided before names were unique case-insensitively keeps its spelling), then the
    name as normalised."""
    if not isinstance(username, str) or not username or len(username) > 64:
        return None
    user = session.scalars(select(User).where(User.username == username)).first()
    if user is None:
        key = username_key(username)
        user = session.scalars(select(User).where(User.username_key == key)).first()
    return user


def create_user(
    session: Session,
    *,
    username: str,
    password_hash: str,
    role: Role = Role.PLAYER,
    actor: str | None = None,
) -> User:
    """Insert a user (already checked, password already hashed) and their empty wallet; the
    audit log records it (``actor``: who did it, by default the new user).

    Raises:
        ConflictError: the name is taken, in any case or Unicode form.
    """
    user = User(
        username=username,
        username_key=username_key(username),
        password_hash=password_hash,
        role=role.value,
    )
    if session.scalars(select(User.id).where(User.username_key == user.username_key)).first():
        raise ConflictError(
            f"username {username!r} is taken",
            reason="username_taken",
            params={"username": username},
        )
    try:
        with session.begin_nested():
            session.add(user)
            session.flush()
    except IntegrityError:
        raise ConflictError(
            f"username {username!r} is taken",
            reason="username_taken",
            params={"username": username},
        ) from None
    player_account(session, user_id=user.id)
    audit.append(
        session,
        actor=actor or username,
        action="account.register",
        subject=f"user:{user.id}",
        details={"username": username, "role": role.value},
    )
    return user


def register(
    session: Session,
    *,
    username: str,
    password: str,
    role: Role = Role.PLAYER,
    actor: str | None = None,
) -> User:
    """Create a user and their (empty) wallet account (recorded in the audit log).

    Raises:
        InvalidRequestError: a malformed username, or a short or guessable password.
        ConflictError: the username is taken.
    """
    username = check_username(username)
    password = check_password(password, username=username)
    return create_user(
        session, username=username, password_hash=hash_password(password), role=role, actor=actor
    )


def ensure_operator(session: Session, *, username: str, password: str) -> User:
    """The operator ``username``, created if missing (its password is then ``password``,
    which must pass the same strength check as everybody's).

    Creating the account or making an existing user an operator is recorded in the audit log
    (actor ``system``); finding the operator already there changes nothing and records nothing.
    """
    user = find_login(session, username=username)
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
    """The user with these credentials (the password checked here, in this thread; the HTTP
    login checks it in the hashing pool instead, see the router).

    Raises:
        AuthenticationError: unknown user, wrong password or disabled account (one message
            for all three, so a caller cannot probe which usernames exist).
    """
    user = find_login(session, username=username)
    ok = verify_password(user.password_hash if user is not None else None, password)
    if user is None or not ok or user.disabled:
        raise AuthenticationError("wrong username or password", reason="login_failed")
    if needs_rehash(user.password_hash):
        user.password_hash = hash_password(password)
        audit.append(
            session,
            actor=user.username,
            action="account.password_rehash",
            subject=f"user:{user.id}",
            details={"reason": "hashing parameters changed"},
        )
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
        raise AuthenticationError("missing or malformed session token", reason="session_missing")
    row = session.scalars(
        select(AuthToken).where(AuthToken.token_hash == token_hash(token, secret=secret))
    ).first()
    if row is None or row.revoked_at is not None or row.expires_at <= utcnow():
        raise AuthenticationError(
            "session token is unknown, expired or revoked", reason="session_expired"
        )
    user = session.get(User, row.user_id)
    if user is None or user.disabled:
        raise AuthenticationError(
            "session token is unknown, expired or revoked", reason="session_expired"
        )
    return user, row


def revoke_token(session: Session, *, token: str, secret: str, actor: str | None = None) -> None:
    """End a session (logging out twice is harmless); a session ended is recorded in the audit
    log (by ``actor``, the user logging out) with the token's row id, never the token."""
    row = session.scalars(
        select(AuthToken).where(
            AuthToken.token_hash == token_hash(token, secret=secret),
            AuthToken.revoked_at.is_(None),
        )
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


def set_disabled(session: Session, *, user_id: int, disabled: bool, by: User) -> User:
    """Disable (or enable again) an account; disabling revokes every session token it has.

    Raises:
        NotFoundError: no such user.
        ConflictError: an operator disabling their own account.
    """
    user = get_user(session, user_id=user_id)
    if disabled and user.id == by.id:
        raise ConflictError(
            "an operator cannot disable their own account", reason="operator_self_disable"
        )
    if user.disabled != disabled:
        audit.append(
            session,
            actor=by.username,
            action="account.disable" if disabled else "account.enable",
            subject=f"user:{user.id}",
            details={"username": user.username},
        )
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
        raise NotFoundError(f"user {user_id} does not exist", reason="user_not_found")
    return user


def require_operator(user: User) -> User:
    """``user`` if they are an operator.

    Raises:
        PermissionDeniedError: a player.
    """
    if user.role != Role.OPERATOR.value:
        raise PermissionDeniedError(
            f"user {user.username!r} is not an operator", reason="not_operator"
        )
    return user
