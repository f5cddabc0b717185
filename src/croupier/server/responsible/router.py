"""HTTP routes of a player's responsible-gaming choices (docs/protocol.md "Responsible gaming")."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field

from croupier.server.accounts.service import session_for_token
from croupier.server.deps import CurrentUser, SessionDep, SettingsDep
from croupier.server.errors import AuthenticationError, InvalidRequestError
from croupier.server.responsible import service
from croupier.server.responsible.models import LimitKind, Period
from croupier.server.wallet.service import MAX_AMOUNT

__all__ = ["router"]

router = APIRouter(prefix="/api/me", tags=["responsible gaming"])

LimitAmount = Annotated[int, Field(strict=True, ge=0, le=MAX_AMOUNT)]
"""A limit in minor units: a whole number from 0 (floats, strings and booleans refused)."""


class PeriodLimits(BaseModel):
    """A limit per rolling period; ``null`` removes one (after 24 hours)."""

    model_config = ConfigDict(extra="forbid")

    day: LimitAmount | None = None
    week: LimitAmount | None = None
    month: LimitAmount | None = None


class LimitsBody(BaseModel):
    """Any subset of the limits; a kind given as ``null`` removes its three periods."""

    model_config = ConfigDict(extra="forbid")

    deposit: PeriodLimits | None = None
    loss: PeriodLimits | None = None
    wager: PeriodLimits | None = None


class ExclusionBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    days: int | None = Field(default=None, strict=True, ge=1, le=service.MAX_EXCLUSION_DAYS)
    permanent: bool = Field(default=False, strict=True)


class RealityCheckBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    interval_minutes: int | None = Field(strict=True, ge=5, le=24 * 60)
    """A reminder every this many minutes of a session (5 to 1,440); ``null``: none."""


def _asked(body: LimitsBody) -> dict[LimitKind, dict[Period, int | None]]:
    asked: dict[LimitKind, dict[Period, int | None]] = {}
    for kind in LimitKind:
        if kind.value not in body.model_fields_set:
            continue
        periods: PeriodLimits | None = getattr(body, kind.value)
        if periods is None:
            asked[kind] = dict.fromkeys(Period)
            continue
        asked[kind] = {Period(p): getattr(periods, p) for p in periods.model_fields_set}
    return asked


@router.get("/limits")
def my_limits(user: CurrentUser, session: SessionDep) -> dict[str, Any]:
    """The player's limits, pending raises, what is used and left, and any self-exclusion."""
    return service.limits_view(session, user=user)


@router.put("/limits")
def put_limits(body: LimitsBody, user: CurrentUser, session: SessionDep) -> dict[str, Any]:
    """Set any subset of limits (minor units). Lowering applies at once, raising or removing
    after 24 hours; the answer lists what changed and when it takes effect."""
    changes = service.set_limits(session, user=user, limits=_asked(body))
    session.commit()
    return {"changes": changes, **service.limits_view(session, user=user)}


@router.post("/self-exclusion", status_code=201)
def self_exclusion(body: ExclusionBody, user: CurrentUser, session: SessionDep) -> dict[str, Any]:
    """Exclude yourself for ``days`` or ``permanent``ly: no bets, seats or deposits until
    then. Nobody can lift it early."""
    if "permanent" in body.model_fields_set and not body.permanent and body.days is None:
        raise InvalidRequestError("permanent: must be true when given without days")
    row = service.self_exclude(session, user=user, days=body.days, permanent=body.permanent)
    session.commit()
    return {
        "started_at": row.started_at.isoformat(),
        "until": row.until.isoformat() if row.until else None,
        "permanent": row.permanent,
    }


_bearer = HTTPBearer(auto_error=False)


def _login_time(
    session: SessionDep,
    settings: SettingsDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> Any:
    if credentials is None:
        raise AuthenticationError("missing bearer token")
    _, token = session_for_token(
        session, token=credentials.credentials, secret=settings.secret_key.get_secret_value()
    )
    return token.created_at


@router.put("/reality-check")
def put_reality_check(
    body: RealityCheckBody, user: CurrentUser, session: SessionDep
) -> dict[str, Any]:
    """Choose the reminder's interval (or ``null``: none)."""
    service.set_reality_check(session, user=user, minutes=body.interval_minutes)
    session.commit()
    return {"interval_minutes": body.interval_minutes}


@router.get("/reality-check")
def get_reality_check(
    user: CurrentUser, session: SessionDep, started: Annotated[Any, Depends(_login_time)]
) -> dict[str, Any]:
    """Time played and net result of this session (since login), and whether a reminder is
    due (docs/protocol.md "Reality check": the client polls this)."""
    return service.reality_check_view(session, user=user, session_start=started)


@router.post("/reality-check/ack")
def ack_reality_check(
    user: CurrentUser, session: SessionDep, started: Annotated[Any, Depends(_login_time)]
) -> dict[str, Any]:
    """The player saw the reminder: the next one is due an interval from now."""
    service.acknowledge_reality_check(session, user=user)
    session.commit()
    return service.reality_check_view(session, user=user, session_start=started)
