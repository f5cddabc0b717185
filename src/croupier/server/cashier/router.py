"""HTTP routes of the cashier (docs/protocol.md "Cashier"): the player's demo credit and
deposit requests, the operator's queue. A credit sends the player's table sockets a
``balance`` frame, so the page shows it at once."""

from __future__ import annotations

import uuid
from typing import Annotated, Any

from fastapi import APIRouter, Header, Path, Query, Request
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from croupier.server.cashier import service
from croupier.server.cashier.models import DepositStatus
from croupier.server.deps import DB_ID_MAX, CurrentUser, OperatorUser, SessionDep
from croupier.server.settings import Settings
from croupier.server.tables.wire import Balance

__all__ = ["notify_balance", "router"]

router = APIRouter(tags=["cashier"])

DepositId = Annotated[int, Path(ge=1, le=DB_ID_MAX, description="a deposit request id")]
KeyHeader = Annotated[str | None, Header(alias="Idempotency-Key", min_length=1, max_length=96)]


class DepositBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    amount: StrictInt = Field(gt=0, le=10**12)


class RefuseBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    note: str = Field(default="", max_length=200)


def notify_balance(request: Request, user_id: int, balance: int) -> None:
    """Tell the user's open table sockets their new balance (docs/protocol.md ``balance``)."""
    request.app.state.live_sessions.notify_user(user_id, Balance(balance=balance))


def _settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


@router.get("/api/cashier")
def cashier_info(request: Request, user: CurrentUser) -> dict[str, Any]:
    """What the cashier offers: demo credit (and its bounds) or deposit requests."""
    s = _settings(request)
    return {
        "demo": s.demo,
        "demo_credit": s.demo_credit,
        "demo_cap": s.demo_balance_cap,
        "demo_credit_seconds": s.demo_credit_seconds,
        "deposit_min": s.deposit_min,
        "deposit_max": s.deposit_max,
    }


@router.post("/api/cashier/demo-credit")
def demo_credit(
    request: Request, user: CurrentUser, session: SessionDep, key: KeyHeader = None
) -> dict[str, Any]:
    """Play money, up to the demo balance cap (demo mode only)."""
    move = service.demo_credit(
        session,
        user=user,
        settings=_settings(request),
        credits=request.app.state.demo_credits,
        key=key or uuid.uuid4().hex,
    )
    session.commit()
    notify_balance(request, user.id, int(move.balance))
    return {"amount": int(move.amount), "balance": int(move.balance), "replayed": move.replayed}


@router.get("/api/cashier/deposits")
def my_deposits(user: CurrentUser, session: SessionDep) -> list[dict[str, Any]]:
    """The player's latest deposit requests, newest first."""
    return [service.deposit_json(r) for r in service.my_deposits(session, user=user)]


@router.post("/api/cashier/deposits", status_code=201)
def create_deposit(
    request: Request, body: DepositBody, user: CurrentUser, session: SessionDep
) -> dict[str, Any]:
    row = service.create_deposit(
        session, user=user, amount=body.amount, settings=_settings(request)
    )
    session.commit()
    return service.deposit_json(row)


@router.post("/api/cashier/deposits/{request_id}/cancel")
def cancel_deposit(request_id: DepositId, user: CurrentUser, session: SessionDep) -> dict[str, Any]:
    row = service.cancel(session, user=user, request_id=request_id)
    session.commit()
    return service.deposit_json(row)


@router.get("/api/operator/deposits")
def operator_deposits(
    operator: OperatorUser,
    session: SessionDep,
    status: Annotated[DepositStatus | None, Query()] = DepositStatus.PENDING,
) -> list[dict[str, Any]]:
    """Deposit requests (pending ones by default), oldest first, with the player's name."""
    rows = service.pending_deposits(session, status=status.value if status else None)
    return [service.deposit_json(row, name) for row, name in rows]


@router.post("/api/operator/deposits/{request_id}/approve")
def approve_deposit(
    request: Request, request_id: DepositId, operator: OperatorUser, session: SessionDep
) -> dict[str, Any]:
    """Credit the amount to the player's wallet and mark the request approved."""
    row, move = service.approve(session, operator=operator, request_id=request_id)
    user_id, balance = row.user_id, int(move.balance)
    data = service.deposit_json(row)
    session.commit()
    notify_balance(request, user_id, balance)
    return {**data, "balance": balance}


@router.post("/api/operator/deposits/{request_id}/refuse")
def refuse_deposit(
    request_id: DepositId,
    operator: OperatorUser,
    session: SessionDep,
    body: RefuseBody | None = None,
) -> dict[str, Any]:
    row = service.refuse(
        session, operator=operator, request_id=request_id, note=body.note if body else ""
    )
    session.commit()
    return service.deposit_json(row)
