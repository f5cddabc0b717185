"""HTTP routes for balances, statements and the operator's credits and debits."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Query, Request
from sqlalchemy import select
from sqlalchemy.orm import Session

from croupier.server.accounts.service import get_user
from croupier.server.audit import service as audit
from croupier.server.deps import CurrentUser, OperatorUser, SessionDep, UserId
from croupier.server.responsible import limits
from croupier.server.wallet import service
from croupier.server.wallet.frames import Balance
from croupier.server.wallet.models import LedgerTransaction, Posting
from croupier.server.wallet.schemas import (
    BalancePublic,
    MoneyRequest,
    MovementPublic,
    PostingPublic,
)

__all__ = ["router"]

router = APIRouter(tags=["wallet"])

IdempotencyKeyHeader = Annotated[str, Header(alias="Idempotency-Key", min_length=1, max_length=128)]


@router.get("/api/wallet")
def my_balance(user: CurrentUser, session: SessionDep) -> BalancePublic:
    """The caller's balance."""
    return BalancePublic(user_id=user.id, balance=service.player_balance(session, user_id=user.id))


@router.get("/api/wallet/statement")
def my_statement(
    user: CurrentUser,
    session: SessionDep,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
) -> list[PostingPublic]:
    """The caller's latest postings, newest first."""
    account = service.player_account(session, user_id=user.id)
    rows = session.execute(
        select(
            Posting.transaction_id,
            LedgerTransaction.kind,
            Posting.amount,
            LedgerTransaction.round_id,
            LedgerTransaction.memo,
            LedgerTransaction.created_at,
        )
        .join(LedgerTransaction, LedgerTransaction.id == Posting.transaction_id)
        .where(Posting.account_id == account.id)
        .order_by(Posting.id.desc())
        .limit(limit)
    ).all()
    return [PostingPublic.model_validate(row._mapping) for row in rows]


@router.get("/api/operator/accounts/{user_id}")
def balance_of(user_id: UserId, operator: OperatorUser, session: SessionDep) -> BalancePublic:
    """Any player's balance."""
    get_user(session, user_id=user_id)
    return BalancePublic(user_id=user_id, balance=service.player_balance(session, user_id=user_id))


def _audit_cage(
    session: Session, *, operator: str, user_id: int, move: service.Movement, memo: str
) -> None:
    if move.replayed:
        return  # a retry of a request already applied (and already recorded)
    audit.append(
        session,
        actor=operator,
        action=f"account.{move.kind}",
        subject=f"user:{user_id}",
        details={
            "amount": int(move.amount),
            "balance": int(move.balance),
            "transaction_id": move.transaction_id,
            "memo": memo,
        },
    )


def _notify(request: Request, user_id: int, balance: int) -> None:
    """The player's open table sockets get their new balance at once (docs/protocol.md
    ``balance``): a credit shows without reloading the page."""
    request.app.state.live_sessions.notify_user(user_id, Balance(balance=balance))


def _movement(move: service.Movement) -> MovementPublic:
    return MovementPublic(
        transaction_id=move.transaction_id,
        kind=move.kind,
        amount=move.amount,
        balance=move.balance,
        replayed=move.replayed,
    )


@router.post("/api/operator/accounts/{user_id}/credit")
def credit(
    request: Request,
    user_id: UserId,
    body: MoneyRequest,
    operator: OperatorUser,
    session: SessionDep,
    idempotency_key: IdempotencyKeyHeader,
) -> MovementPublic:
    """Pay money into a player's account (a deposit through the cage)."""
    move = service.credit(
        session,
        user_id=user_id,
        amount=body.amount,
        idempotency_key=idempotency_key,
        memo=body.memo,
    )
    if not move.replayed:
        # A deposit: refused (and rolled back) past a deposit limit or while self-excluded.
        limits.check_deposit(session, user_id=user_id, amount=int(move.amount), counted=True)
    _audit_cage(session, operator=operator.username, user_id=user_id, move=move, memo=body.memo)
    session.commit()
    _notify(request, user_id, int(move.balance))
    return _movement(move)


@router.post("/api/operator/accounts/{user_id}/debit")
def debit(
    request: Request,
    user_id: UserId,
    body: MoneyRequest,
    operator: OperatorUser,
    session: SessionDep,
    idempotency_key: IdempotencyKeyHeader,
) -> MovementPublic:
    """Take money out of a player's account (a withdrawal through the cage)."""
    move = service.debit(
        session,
        user_id=user_id,
        amount=body.amount,
        idempotency_key=idempotency_key,
        memo=body.memo,
    )
    _audit_cage(session, operator=operator.username, user_id=user_id, move=move, memo=body.memo)
    session.commit()
    _notify(request, user_id, int(move.balance))
    return _movement(move)


@router.get("/api/operator/ledger")
def ledger(operator: OperatorUser, session: SessionDep) -> dict[str, int]:
    """Check the whole ledger and return the balance held by each kind of account."""
    return service.check_ledger(session)
