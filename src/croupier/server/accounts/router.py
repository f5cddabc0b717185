"""HTTP routes for registration, login, logout and the current user."""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Depends, Request, status
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from croupier.server.accounts import service
from croupier.server.accounts.passwords import PasswordHashing
from croupier.server.accounts.schemas import (
    AccountStatus,
    Credentials,
    TokenPublic,
    UserCreate,
    UserPublic,
)
from croupier.server.accounts.throttle import LoginThrottle
from croupier.server.clients import client_address
from croupier.server.deps import (
    CurrentUser,
    DatabaseDep,
    LiveSessionsDep,
    OperatorUser,
    SessionDep,
    SettingsDep,
    UserId,
)
from croupier.server.errors import PermissionDeniedError
from croupier.server.responsible.service import exclusion_public

__all__ = ["operator_router", "router"]

router = APIRouter(prefix="/api/auth", tags=["accounts"])
operator_router = APIRouter(prefix="/api/operator/accounts", tags=["accounts"])


@router.post("/register", status_code=status.HTTP_201_CREATED)
async def register(
    body: UserCreate, request: Request, db: DatabaseDep, settings: SettingsDep
) -> UserPublic:
    """Create a player account (an empty wallet comes with it). The password must be 10 or
    more characters and not guessable; the refusal says why."""
    if not settings.allow_registration:
        raise PermissionDeniedError("registration is closed", reason="registration_closed")
    state = request.app.state
    throttle: LoginThrottle = state.register_throttle
    hashing: PasswordHashing = state.password_hashing
    attempt = throttle.begin(account=None, address=client_address(request, settings))
    try:
        username = service.check_username(body.username)

        def strong_hash() -> str:
            service.check_password(body.password, username=username)
            return service.hash_password(body.password)

        password_hash = await hashing.run(strong_hash)

        def create() -> UserPublic:
            with db.session() as session:
                user = service.create_user(session, username=username, password_hash=password_hash)
                return UserPublic.model_validate(user)

        return await asyncio.to_thread(create)
    finally:
        throttle.end(attempt, success=True)  # registrations count while in flight only


@router.post("/login")
async def login(
    body: Credentials, request: Request, db: DatabaseDep, settings: SettingsDep
) -> TokenPublic:
    """Exchange a username and password for a bearer token. Throttled per account and per
    client address (429 with ``Retry-After``, a back-off doubling per failure)."""
    state = request.app.state
    throttle: LoginThrottle = state.login_throttle
    hashing: PasswordHashing = state.password_hashing
    key = service.username_key(body.username)
    attempt = throttle.begin(account=key, address=client_address(request, settings))
    ok = False
    try:

        def find() -> tuple[int, str, bool] | None:
            with db.session() as session:
                user = service.find_login(session, username=body.username)
                return None if user is None else (user.id, user.password_hash, user.disabled)

        found = await asyncio.to_thread(find)
        stored = found[1] if found is not None else None
        ok = await hashing.run(service.verify_password, stored, body.password)
        if found is None or not ok or found[2]:
            ok = False
            raise service.AuthenticationError("wrong username or password", reason="login_failed")
        rehashed = None
        if service.needs_rehash(found[1]):
            rehashed = await hashing.run(service.hash_password, body.password)

        def issue() -> TokenPublic:
            with db.session() as session:
                user = service.get_user(session, user_id=found[0])
                if rehashed is not None:
                    user.password_hash = rehashed
                issued = service.issue_token(
                    session,
                    user=user,
                    secret=settings.secret_key.get_secret_value(),
                    ttl_seconds=settings.session_ttl_seconds,
                )
                return TokenPublic(
                    access_token=issued.token,
                    expires_at=issued.expires_at,
                    user=UserPublic.model_validate(user),
                    self_exclusion=exclusion_public(session, user_id=user.id),
                )

        return await asyncio.to_thread(issue)
    finally:
        throttle.end(attempt, success=ok)


@router.post("/logout", status_code=status.HTTP_204_NO_CONTENT)
def logout(
    user: CurrentUser,
    session: SessionDep,
    settings: SettingsDep,
    credentials: Annotated[HTTPAuthorizationCredentials, Depends(HTTPBearer())],
    live: LiveSessionsDep,
) -> None:
    """Revoke the token used for this request, and close the table sockets opened with it."""
    secret = settings.secret_key.get_secret_value()
    service.revoke_token(session, token=credentials.credentials, secret=secret, actor=user.username)
    session.commit()
    live.revoke_token(service.token_hash(credentials.credentials, secret=secret))


@router.get("/me")
def me(user: CurrentUser) -> UserPublic:
    """The user the token belongs to."""
    return UserPublic.model_validate(user)


@operator_router.post("/{user_id}/disable")
def disable(
    user_id: UserId, operator: OperatorUser, session: SessionDep, live: LiveSessionsDep
) -> AccountStatus:
    """Disable an account: its tokens are revoked and its table sockets closed at once."""
    user = service.set_disabled(session, user_id=user_id, disabled=True, by=operator)
    session.commit()
    live.revoke_user(user.id)
    return AccountStatus(id=user.id, username=user.username, disabled=user.disabled)


@operator_router.post("/{user_id}/enable")
def enable(user_id: UserId, operator: OperatorUser, session: SessionDep) -> AccountStatus:
    """Let a disabled account log in again (its old tokens stay revoked)."""
    user = service.set_disabled(session, user_id=user_id, disabled=False, by=operator)
    session.commit()
    return AccountStatus(id=user.id, username=user.username, disabled=user.disabled)
