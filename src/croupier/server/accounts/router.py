"""HTTP routes for registration, login, logout and the current user."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, status
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from croupier.server.accounts import service
from croupier.server.accounts.schemas import Credentials, TokenPublic, UserCreate, UserPublic
from croupier.server.deps import CurrentUser, SessionDep, SettingsDep
from croupier.server.errors import PermissionDeniedError

__all__ = ["router"]

router = APIRouter(prefix="/api/auth", tags=["accounts"])


@router.post("/register", status_code=status.HTTP_201_CREATED)
def register(body: UserCreate, session: SessionDep, settings: SettingsDep) -> UserPublic:
    """Create a player account (an empty wallet comes with it)."""
    if not settings.allow_registration:
        raise PermissionDeniedError("registration is closed")
    user = service.register(session, username=body.username, password=body.password)
    session.commit()
    return UserPublic.model_validate(user)


@router.post("/login")
def login(body: Credentials, session: SessionDep, settings: SettingsDep) -> TokenPublic:
    """Exchange a username and password for a bearer token."""
    user = service.authenticate(session, username=body.username, password=body.password)
    issued = service.issue_token(
        session,
        user=user,
        secret=settings.secret_key.get_secret_value(),
        ttl_seconds=settings.session_ttl_seconds,
    )
    session.commit()
    return TokenPublic(
        access_token=issued.token,
        expires_at=issued.expires_at,
        user=UserPublic.model_validate(user),
    )


@router.post("/logout", status_code=status.HTTP_204_NO_CONTENT)
def logout(
    user: CurrentUser,
    session: SessionDep,
    settings: SettingsDep,
    credentials: Annotated[HTTPAuthorizationCredentials, Depends(HTTPBearer())],
) -> None:
    """Revoke the token used for this request."""
    service.revoke_token(
        session,
        token=credentials.credentials,
        secret=settings.secret_key.get_secret_value(),
        actor=user.username,
    )
    session.commit()


@router.get("/me")
def me(user: CurrentUser) -> UserPublic:
    """The user the token belongs to."""
    return UserPublic.model_validate(user)
