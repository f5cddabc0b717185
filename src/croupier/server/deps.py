"""``Annotated`` dependency aliases for routers: the session, the current user, the tables."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Annotated

from fastapi import Depends, Path, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.orm import Session

from croupier.server.accounts.models import User
from croupier.server.accounts.service import require_operator, user_for_token
from croupier.server.accounts.sessions import LiveSessions
from croupier.server.db import Database
from croupier.server.errors import AuthenticationError
from croupier.server.settings import Settings

if TYPE_CHECKING:
    from croupier.server.tables.manager import TableManager

__all__ = [
    "DB_ID_MAX",
    "CurrentUser",
    "DatabaseDep",
    "LiveSessionsDep",
    "OperatorUser",
    "RoundId",
    "SessionDep",
    "SettingsDep",
    "TableManagerDep",
    "UserId",
    "get_session",
]

_bearer = HTTPBearer(auto_error=False)

DB_ID_MAX = 2**31 - 1
"""The largest row id: ids are INTEGER columns, 32 bits on PostgreSQL. An id in a path is
bounded to it, so a huge one is refused (422) before it reaches the database (issue 13)."""
UserId = Annotated[int, Path(ge=1, le=DB_ID_MAX, description="a user id")]
RoundId = Annotated[int, Path(ge=1, le=DB_ID_MAX, description="a round id")]


def _database(request: Request) -> Database:
    db: Database = request.app.state.db
    return db


def _settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def _tables(request: Request) -> TableManager:
    tables: TableManager = request.app.state.tables
    return tables


def _live_sessions(request: Request) -> LiveSessions:
    live: LiveSessions = request.app.state.live_sessions
    return live


DatabaseDep = Annotated[Database, Depends(_database)]
LiveSessionsDep = Annotated[LiveSessions, Depends(_live_sessions)]
SettingsDep = Annotated[Settings, Depends(_settings)]
TableManagerDep = Annotated["TableManager", Depends(_tables)]


def get_session(db: DatabaseDep) -> Iterator[Session]:
    """A session per request. Routers that write call ``session.commit()`` before answering,
    so a response is never sent for money that was not committed; anything else rolls back."""
    with db.sessions() as session:
        yield session


SessionDep = Annotated[Session, Depends(get_session)]


def _current_user(
    session: SessionDep,
    settings: SettingsDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> User:
    if credentials is None or credentials.scheme.lower() != "bearer":
        raise AuthenticationError("missing bearer token", reason="session_missing")
    return user_for_token(
        session, token=credentials.credentials, secret=settings.secret_key.get_secret_value()
    )


CurrentUser = Annotated[User, Depends(_current_user)]


def _operator(user: CurrentUser) -> User:
    return require_operator(user)


OperatorUser = Annotated[User, Depends(_operator)]
