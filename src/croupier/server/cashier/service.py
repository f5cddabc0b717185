"""The cashier's rules: demo credit (bounded by a balance cap and a wait between credits) and
deposit requests (created and cancelled by their player, approved or refused by an operator;
an approval credits the wallet once, whatever is retried).

Every refusal carries a ``reason`` and ``params`` (money in minor units) for the client to
word (docs/errors.md).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from croupier.server.accounts.models import User
from croupier.server.audit import service as audit
from croupier.server.base import utcnow
from croupier.server.cashier.models import DepositRequest, DepositStatus
from croupier.server.errors import (
    ConflictError,
    InvalidRequestError,
    NotFoundError,
    PermissionDeniedError,
    TooManyRequests,
)
from croupier.server.responsible import limits
from croupier.server.settings import Settings
from croupier.server.wallet import service as wallet

__all__ = [
    "DemoCredits",
    "approve",
    "cancel",
    "create_deposit",
    "deposit_json",
    "my_deposits",
    "pending_deposits",
    "refuse",
]


@dataclass
class DemoCredits:
    """When each player last took demo credit (in memory: a restart forgets it, which only
    lets a player take one credit sooner)."""

    seconds: float
    _last: dict[int, float] | None = None
    _lock: threading.Lock | None = None

    def __post_init__(self) -> None:
        self._last = {}
        self._lock = threading.Lock()

    def take(self, user_id: int) -> None:
        """Note a credit now, or refuse one that comes too soon.

        Raises:
            TooManyRequests: the last credit was less than ``seconds`` ago.
        """
        assert self._last is not None and self._lock is not None
        now = time.monotonic()
        with self._lock:
            last = self._last.get(user_id)
            if last is not None and now - last < self.seconds:
                wait = self.seconds - (now - last)
                raise TooManyRequests(
                    f"demo credit again in {wait:.0f} s",
                    retry_after=wait,
                    reason="demo_too_soon",
                    params={"seconds": max(1, round(wait))},
                )
            self._last[user_id] = now

    def forget(self, user_id: int) -> None:
        """Undo :meth:`take` (the credit it allowed was refused after all)."""
        assert self._last is not None and self._lock is not None
        with self._lock:
            self._last.pop(user_id, None)


def demo_credit(
    session: Session, *, user: User, settings: Settings, credits: DemoCredits, key: str
) -> wallet.Movement:
    """Credit play money up to the demo cap.

    Raises:
        PermissionDeniedError: the server is not in demo mode.
        ConflictError: the balance is at the cap already.
        TooManyRequests: too soon after the last demo credit.
    """
    if not settings.demo:
        raise PermissionDeniedError("demo credit is offered in demo mode only", reason="demo_off")
    balance = int(wallet.player_balance(session, user_id=user.id))
    cap = settings.demo_balance_cap
    if balance >= cap:
        raise ConflictError(
            f"balance {balance} is at the demo cap {cap}",
            reason="demo_balance_full",
            params={"cap": cap, "balance": balance},
        )
    credits.take(user.id)
    try:
        return wallet.credit(
            session,
            user_id=user.id,
            amount=min(settings.demo_credit, cap - balance),
            idempotency_key=f"demo:{user.id}:{key}",
            memo="demo credit",
        )
    except Exception:
        credits.forget(user.id)
        raise


def deposit_json(row: DepositRequest, username: str | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": row.id,
        "amount": row.amount,
        "status": row.status,
        "created_at": row.created_at,
        "decided_at": row.decided_at,
        "note": row.note,
    }
    if username is not None:
        data["user_id"] = row.user_id
        data["username"] = username
    return data


def create_deposit(
    session: Session, *, user: User, amount: int, settings: Settings
) -> DepositRequest:
    """A new pending request of ``amount`` (minor units) for ``user``.

    Raises:
        PermissionDeniedError: in demo mode (take demo credit instead).
        InvalidRequestError: the amount is outside ``deposit_min``..``deposit_max``.
        ConflictError: the player has ``deposit_pending_max`` requests waiting already.
        PermissionDeniedError: the player is self-excluded (``self_excluded``).
        IllegalActionError: the amount would pass a deposit limit (``deposit_limit``).
    """
    if settings.demo:
        raise PermissionDeniedError(
            "this server is in demo mode: take demo credit", reason="deposits_in_demo"
        )
    low, high = settings.deposit_min, settings.deposit_max
    if not low <= amount <= high:
        raise InvalidRequestError(
            f"deposit {amount} is outside {low}..{high}",
            reason="deposit_out_of_range",
            params={"amount": amount, "min": low, "max": high},
        )
    waiting = session.scalars(
        select(DepositRequest.id).where(
            DepositRequest.user_id == user.id,
            DepositRequest.status == DepositStatus.PENDING.value,
        )
    ).all()
    if len(waiting) >= settings.deposit_pending_max:
        raise ConflictError(
            f"{len(waiting)} deposit requests are waiting already",
            reason="deposit_pending_limit",
            params={"max": settings.deposit_pending_max},
        )
    # Responsible gaming (issue 16): no request while self-excluded or past a deposit limit.
    limits.check_deposit(session, user_id=user.id, amount=amount)
    row = DepositRequest(user_id=user.id, amount=amount, status=DepositStatus.PENDING.value)
    session.add(row)
    session.flush()
    return row


def my_deposits(session: Session, *, user: User, limit: int = 20) -> list[DepositRequest]:
    return list(
        session.scalars(
            select(DepositRequest)
            .where(DepositRequest.user_id == user.id)
            .order_by(DepositRequest.id.desc())
            .limit(limit)
        )
    )


def pending_deposits(
    session: Session, *, status: str | None = DepositStatus.PENDING.value, limit: int = 100
) -> list[tuple[DepositRequest, str]]:
    query = select(DepositRequest, User.username).join(User, User.id == DepositRequest.user_id)
    if status is not None:
        query = query.where(DepositRequest.status == status)
    rows = session.execute(query.order_by(DepositRequest.id).limit(limit)).all()
    return [(row, name) for row, name in rows]


def _get(session: Session, request_id: int) -> DepositRequest:
    row = session.get(DepositRequest, request_id)
    if row is None:
        raise NotFoundError(
            f"deposit request {request_id} does not exist", reason="deposit_not_found"
        )
    return row


def _decide(session: Session, row: DepositRequest, status: DepositStatus, **values: Any) -> None:
    """Move ``row`` from pending to ``status`` -- atomically: of two operators deciding at
    once, one wins and the other is refused."""
    done = session.execute(
        update(DepositRequest)
        .where(
            DepositRequest.id == row.id,
            DepositRequest.status == DepositStatus.PENDING.value,
        )
        .values(status=status.value, decided_at=utcnow(), **values)
        .execution_options(synchronize_session=False)
    )
    if getattr(done, "rowcount", 0) != 1:
        session.refresh(row)
        raise ConflictError(
            f"deposit request {row.id} is {row.status}",
            reason="deposit_not_pending",
            params={"status": row.status},
        )
    session.refresh(row)


def cancel(session: Session, *, user: User, request_id: int) -> DepositRequest:
    """The player withdraws a request still waiting."""
    row = _get(session, request_id)
    if row.user_id != user.id:
        raise NotFoundError(
            f"deposit request {request_id} does not exist", reason="deposit_not_found"
        )
    _decide(session, row, DepositStatus.CANCELLED)
    return row


def approve(
    session: Session, *, operator: User, request_id: int
) -> tuple[DepositRequest, wallet.Movement]:
    """Credit the request's amount to its player (idempotency key ``deposit:<id>``: an
    approval retried never credits twice) and mark it approved, in one transaction."""
    row = _get(session, request_id)
    _decide(session, row, DepositStatus.APPROVED, decided_by=operator.id)
    move = wallet.credit(
        session,
        user_id=row.user_id,
        amount=row.amount,
        idempotency_key=f"deposit:{row.id}",
        memo=f"deposit request {row.id}",
    )
    if not move.replayed:
        # The player's deposit limits and self-exclusion as they stand now (issue 16): a
        # refusal rolls the approval back and the request stays pending.
        limits.check_deposit(session, user_id=row.user_id, amount=int(move.amount), counted=True)
    row.transaction_id = move.transaction_id
    _audit_decision(session, operator=operator, row=row)
    session.flush()
    return row, move


def _audit_decision(session: Session, *, operator: User, row: DepositRequest) -> None:
    """An operator's decision on a deposit request, in the audit log (issue 16)."""
    audit.append(
        session,
        actor=operator.username,
        action=f"deposit.{row.status}",
        subject=f"user:{row.user_id}",
        details={
            "request": row.id,
            "amount": int(row.amount),
            "transaction_id": row.transaction_id,
            "note": row.note or "",
        },
    )


def refuse(session: Session, *, operator: User, request_id: int, note: str = "") -> DepositRequest:
    row = _get(session, request_id)
    _decide(session, row, DepositStatus.REFUSED, decided_by=operator.id, note=note[:200])
    _audit_decision(session, operator=operator, row=row)
    return row
