"""The cage: an operator pays money in and out of a player's account, found by username,
always with a reason (docs/protocol.md "The cage"). Amounts are minor units on the wire; the
console shows and takes euros. Every movement is audited with its reason; a deposit respects
the player's self-exclusion and deposit limits."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, Path, Query
from pydantic import BaseModel, ConfigDict, Field, field_validator
from sqlalchemy import select
from sqlalchemy.orm import Session

from croupier.server.accounts.models import User
from croupier.server.accounts.service import find_login, username_key
from croupier.server.audit import service as audit
from croupier.server.deps import OperatorUser, SessionDep
from croupier.server.errors import NotFoundError
from croupier.server.responsible import limits
from croupier.server.responsible import service as responsible
from croupier.server.wallet import service as wallet
from croupier.server.wallet.models import LedgerTransaction, Posting, TransactionKind
from croupier.server.wallet.schemas import Amount

__all__ = ["router"]

router = APIRouter(prefix="/api/operator", tags=["cage"])

Username = Annotated[str, Path(min_length=1, max_length=64, description="a player's username")]
KeyHeader = Annotated[str, Header(alias="Idempotency-Key", min_length=1, max_length=128)]


class CageRequest(BaseModel):
    """Money in or out, with the reason the operator gives (recorded in the audit log)."""

    model_config = ConfigDict(extra="forbid")

    amount: Amount
    reason: str = Field(min_length=1, max_length=200)

    @field_validator("reason")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("a reason is required (not only spaces)")
        return value.strip()


def _player(session: Session, username: str) -> User:
    user = find_login(session, username=username)
    if user is None:
        raise NotFoundError(
            f"no account is called {username!r}",
            reason="user_not_found",
            params={"username": username},
        )
    return user


def _movements(session: Session, user: User, limit: int = 20) -> list[dict[str, Any]]:
    account = wallet.player_account(session, user_id=user.id)
    rows = session.execute(
        select(
            LedgerTransaction.id,
            LedgerTransaction.kind,
            Posting.amount,
            LedgerTransaction.memo,
            LedgerTransaction.created_at,
        )
        .join(Posting, Posting.transaction_id == LedgerTransaction.id)
        .where(
            Posting.account_id == account.id,
            LedgerTransaction.kind.in_([TransactionKind.CREDIT.value, TransactionKind.DEBIT.value]),
        )
        .order_by(LedgerTransaction.id.desc())
        .limit(limit)
    )
    return [
        {"transaction_id": t, "kind": k, "amount": int(a), "memo": m, "at": at.isoformat()}
        for t, k, a, m, at in rows
    ]


def _view(session: Session, user: User) -> dict[str, Any]:
    return {
        "user_id": user.id,
        "username": user.username,
        "role": user.role,
        "disabled": user.disabled,
        "balance": int(wallet.player_balance(session, user_id=user.id)),
        "responsible": responsible.limits_view(session, user=user),
        "movements": _movements(session, user),
    }


@router.get("/players")
def find_players(
    operator: OperatorUser,
    session: SessionDep,
    q: Annotated[str, Query(min_length=1, max_length=64, description="a username's start")],
    limit: Annotated[int, Query(ge=1, le=50)] = 20,
) -> list[dict[str, Any]]:
    """Accounts whose username starts with ``q`` (case-insensitive), with their balance."""
    prefix = username_key(q)
    users = session.scalars(
        select(User)
        .where(User.username_key.startswith(prefix, autoescape=True))
        .order_by(User.username_key)
        .limit(limit)
    )
    return [
        {
            "user_id": u.id,
            "username": u.username,
            "role": u.role,
            "disabled": u.disabled,
            "balance": int(wallet.player_balance(session, user_id=u.id)),
        }
        for u in users
    ]


@router.get("/cage/{username}")
def cage_view(username: Username, operator: OperatorUser, session: SessionDep) -> dict[str, Any]:
    """A player at the cage: balance, limits and self-exclusion, the latest cage movements."""
    return _view(session, _player(session, username))


def _move(
    session: Session,
    *,
    operator: User,
    username: str,
    body: CageRequest,
    key: str,
    kind: TransactionKind,
) -> dict[str, Any]:
    user = _player(session, username)
    move_money = wallet.credit if kind is TransactionKind.CREDIT else wallet.debit
    move = move_money(
        session, user_id=user.id, amount=body.amount, idempotency_key=key, memo=body.reason
    )
    if not move.replayed:
        if kind is TransactionKind.CREDIT:
            # A deposit: refused (and rolled back) past a deposit limit or while excluded.
            limits.check_deposit(session, user_id=user.id, amount=int(move.amount), counted=True)
        audit.append(
            session,
            actor=operator.username,
            action=f"cage.{kind.value}",
            subject=f"user:{user.id}",
            details={
                "username": user.username,
                "amount": int(move.amount),
                "reason": body.reason,
                "balance": int(move.balance),
                "transaction_id": move.transaction_id,
            },
        )
    session.commit()
    return {
        "transaction_id": move.transaction_id,
        "kind": move.kind,
        "amount": int(move.amount),
        "balance": int(move.balance),
        "replayed": move.replayed,
        "username": user.username,
        "user_id": user.id,
    }


@router.post("/cage/{username}/credit")
def cage_credit(
    username: Username,
    body: CageRequest,
    operator: OperatorUser,
    session: SessionDep,
    key: KeyHeader,
) -> dict[str, Any]:
    """Pay ``amount`` into the player's account (a deposit at the cage), with a reason."""
    return _move(
        session, operator=operator, username=username, body=body, key=key,
        kind=TransactionKind.CREDIT,
    )  # fmt: skip


@router.post("/cage/{username}/debit")
def cage_debit(
    username: Username,
    body: CageRequest,
    operator: OperatorUser,
    session: SessionDep,
    key: KeyHeader,
) -> dict[str, Any]:
    """Pay ``amount`` out of the player's account (a withdrawal at the cage), with a reason."""
    return _move(
        session, operator=operator, username=username, body=body, key=key,
        kind=TransactionKind.DEBIT,
    )  # fmt: skip
