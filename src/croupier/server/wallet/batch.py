"""Stakes held in bulk: what a live table takes in one transaction when hundreds of bets (or
Play bets) wait in its inbox together. Each stake is still written exactly as
:func:`croupier.server.wallet.service.hold` writes it; see :func:`hold_many`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select, tuple_, update
from sqlalchemy.orm import Session

from croupier.chips import Chips
from croupier.errors import CroupierError, InsufficientFunds
from croupier.server.errors import IdempotencyConflict, InvalidRequestError, LedgerInvariantError
from croupier.server.wallet.models import (
    IdempotencyKey,
    LedgerAccount,
    LedgerTransaction,
    Posting,
    TransactionKind,
)
from croupier.server.wallet.service import (
    Movement,
    check_amount,
    check_idempotency_key,
    escrow_account,
    existing_player_account,
    hold_request,
    request_hash,
)

__all__ = ["HoldRequest", "hold_many"]


@dataclass(frozen=True, slots=True, kw_only=True)
class HoldRequest:
    """One stake of a batch (:func:`hold_many`)."""

    user_id: int
    amount: int
    idempotency_key: str
    details: Mapping[str, Any] | None = None


def hold_many(
    session: Session, *, table: str, round_id: int, requests: Sequence[HoldRequest]
) -> list[Movement | CroupierError]:
    """:func:`hold` for many players at once, in the caller's one transaction: the stakes a
    table accepted while it was busy (a live table takes hundreds of bets in a few seconds).

    Each stake is still its own ledger transaction with its own idempotency record, exactly as
    :func:`hold` writes it; the batch shares the reads and the escrow update and inserts the
    rows in bulk. The answer for each request, in order, is its :class:`Movement` (a replay
    when the key was applied before) or the error that refused it, and a refused request
    writes nothing.

    The players' accounts are read locked (``SELECT ... FOR UPDATE`` in account-id order on
    PostgreSQL, as :func:`post` takes them; SQLite's ``BEGIN IMMEDIATE`` already holds the
    write lock), so each balance is checked and taken in Python and written back in one
    statement; the table's ``CHECK`` constraint still refuses a negative balance.
    A user may appear once per batch.

    Raises:
        InvalidRequestError: a user twice in the batch (a bug in the caller).
    """
    users = [r.user_id for r in requests]
    if len(set(users)) != len(users):
        raise InvalidRequestError("a batch of holds names a user twice")
    answers: list[Movement | CroupierError | None] = [None] * len(requests)
    checked: list[tuple[int, HoldRequest, Chips, dict[str, Any]]] = []
    for i, r in enumerate(requests):
        try:
            chips = check_amount(r.amount, what="stake")
            check_idempotency_key(r.idempotency_key)
        except CroupierError as exc:
            answers[i] = exc
            continue
        checked.append(
            (
                i,
                r,
                chips,
                hold_request(table=table, round_id=round_id, amount=chips, details=r.details),
            )
        )
    if not checked:
        return [a for a in answers if a is not None]
    codes = {f"player:{r.user_id}": r.user_id for _, r, _, _ in checked}
    accounts = {
        a.user_id: a
        for a in session.scalars(
            select(LedgerAccount)
            .where(LedgerAccount.code.in_(codes))
            .order_by(LedgerAccount.id)
            .with_for_update()
        )
    }
    for user_id in set(codes.values()) - set(accounts):
        try:
            accounts[user_id] = existing_player_account(session, user_id=user_id)
        except CroupierError as exc:
            for i, r, _, _ in checked:
                if r.user_id == user_id:
                    answers[i] = exc
    pairs = [(f"user:{r.user_id}", r.idempotency_key) for _, r, _, _ in checked]
    applied = {
        (row.scope, row.key): row
        for row in session.scalars(
            select(IdempotencyKey).where(
                tuple_(IdempotencyKey.scope, IdempotencyKey.key).in_(pairs)
            )
        )
    }
    fresh: list[tuple[int, HoldRequest, Chips, dict[str, Any], int]] = []
    balances = {a.id: int(a.balance) for a in accounts.values()}
    for i, r, chips, request in checked:
        if answers[i] is not None:
            continue
        row = applied.get((f"user:{r.user_id}", r.idempotency_key))
        if row is not None:
            if row.request_hash != request_hash(request):
                answers[i] = IdempotencyConflict(
                    f"idempotency key {r.idempotency_key!r} was already used for a different request"
                )
            else:
                answers[i] = Movement.from_json(row.response, replayed=True)
            continue
        account = accounts[r.user_id]
        have = balances[account.id]
        if have < chips:  # the guard of post(): a player account never goes below zero
            answers[i] = InsufficientFunds(
                f"{account.code} cannot pay {int(chips)}: balance is {have}"
            )
            continue
        balance = balances[account.id] = have - int(chips)
        fresh.append((i, r, chips, request, int(balance)))
    if fresh:
        escrow = escrow_account(session, table=table)
        memo = f"stake at {table}"
        txn_ids = list(
            session.scalars(
                insert(LedgerTransaction).returning(
                    LedgerTransaction.id, sort_by_parameter_order=True
                ),
                [
                    {
                        "kind": TransactionKind.HOLD.value,
                        "round_id": round_id,
                        "user_id": r.user_id,
                        "memo": memo,
                    }
                    for _, r, _, _, _ in fresh
                ],
            )
        )
        postings: list[dict[str, Any]] = []
        keys: list[dict[str, Any]] = []
        for txn_id, (i, r, chips, request, balance) in zip(txn_ids, fresh, strict=True):
            postings.append(
                {
                    "transaction_id": txn_id,
                    "account_id": accounts[r.user_id].id,
                    "amount": -int(chips),
                }
            )
            postings.append(
                {"transaction_id": txn_id, "account_id": escrow.id, "amount": int(chips)}
            )
            move = Movement(
                transaction_id=txn_id, kind="hold", amount=chips, balance=Chips(balance)
            )
            keys.append(
                {
                    "scope": f"user:{r.user_id}",
                    "key": r.idempotency_key,
                    "request_hash": request_hash(request),
                    "response": move.to_json(),
                    "transaction_id": txn_id,
                }
            )
            answers[i] = move
        session.execute(
            update(LedgerAccount),
            [{"id": accounts[r.user_id].id, "balance": balance} for _, r, _, _, balance in fresh],
        )
        session.execute(insert(Posting), postings)
        session.execute(insert(IdempotencyKey), keys)
        total = sum(int(chips) for _, _, chips, _, _ in fresh)
        session.execute(
            update(LedgerAccount)
            .where(LedgerAccount.id == escrow.id)
            .values(balance=LedgerAccount.balance + total)
            .execution_options(synchronize_session=False)
        )
        session.expire(escrow, ["balance"])
    for account in accounts.values():
        session.expire(account, ["balance"])
    done = [a for a in answers if a is not None]
    if len(done) != len(requests):  # pragma: no cover - every branch above answers
        raise LedgerInvariantError("a hold of the batch was left unanswered")
    return done
