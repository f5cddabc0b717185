"""Posting: the one routine that writes ledger transactions and updates cached balances.

A movement of money is an :class:`Entry` (a kind and its legs, signed amounts that sum to
zero). :func:`post_many` writes any number of entries in the caller's transaction -- a lone
credit, a settlement paying hundreds of players, or the hundreds of stakes a live table
accepted together -- with the same statements whatever the count: the balance updates of
every account touched as one ``executemany`` in account-id order (so concurrent transactions
lock accounts in one order), each guarded so that an account without ``allow_negative``
never goes below zero; the transactions inserted in bulk; their postings inserted in bulk.
:func:`post` is one entry.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Table, bindparam, insert, or_, select, update
from sqlalchemy.orm import Session

from croupier.errors import InsufficientFunds
from croupier.server.errors import LedgerInvariantError
from croupier.server.wallet.models import (
    LedgerAccount,
    LedgerTransaction,
    Posting,
    TransactionKind,
)

__all__ = ["Entry", "post", "post_many"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Entry:
    """One balanced movement to post: legs on the same account are merged, zero legs
    dropped."""

    kind: TransactionKind
    legs: Sequence[tuple[LedgerAccount, int]]
    round_id: int | None = None
    user_id: int | None = None
    memo: str = ""


_ACCOUNTS = cast(Table, LedgerAccount.__table__)
_TRANSACTIONS = cast(Table, LedgerTransaction.__table__)
_POSTINGS = cast(Table, Posting.__table__)
# Core inserts (the columns' Python defaults still apply): bulk rows need no ORM bookkeeping.
_INSERT_TRANSACTIONS = insert(_TRANSACTIONS).returning(
    _TRANSACTIONS.c.id, sort_by_parameter_order=True
)
_GUARDED = (
    update(_ACCOUNTS)
    .where(_ACCOUNTS.c.id == bindparam("account"))
    .where(or_(_ACCOUNTS.c.allow_negative, _ACCOUNTS.c.balance + bindparam("delta") >= 0))
    .values(balance=_ACCOUNTS.c.balance + bindparam("delta"))
)


def _merged(entry: Entry) -> dict[int, int]:
    """The entry's non-zero amount per account id.

    Raises:
        LedgerInvariantError: the legs do not sum to zero, or all are zero (a caller's bug).
    """
    merged: dict[int, int] = defaultdict(int)
    for account, amount in entry.legs:
        merged[account.id] += int(amount)
    if sum(merged.values()) != 0:
        raise LedgerInvariantError(f"unbalanced {entry.kind.value} transaction: {dict(merged)}")
    nonzero = {account: amount for account, amount in merged.items() if amount != 0}
    if not nonzero:
        raise LedgerInvariantError(f"empty {entry.kind.value} transaction")
    return nonzero


class _Overdraft(Exception):
    """A guarded balance update did not apply (raised inside the savepoint to roll it back)."""


def _update_balances(session: Session, deltas: dict[int, int]) -> None:
    """Add each account's delta to its cached balance, in account-id order, guarded.

    Raises:
        _Overdraft: an account that may not go negative would have.
    """
    params = [{"account": account, "delta": deltas[account]} for account in sorted(deltas)]
    changed = session.execute(_GUARDED, params).rowcount  # type: ignore[attr-defined]
    if changed != len(params):
        raise _Overdraft


def _overdrawn(session: Session, deltas: dict[int, int]) -> InsufficientFunds:
    """The refusal naming the first account the deltas would overdraw (read after the
    rollback, so balances are as before)."""
    taking = sorted(account for account, delta in deltas.items() if delta < 0)
    rows = session.execute(
        select(_ACCOUNTS.c.id, _ACCOUNTS.c.code, _ACCOUNTS.c.balance, _ACCOUNTS.c.allow_negative)
        .where(_ACCOUNTS.c.id.in_(taking))
        .order_by(_ACCOUNTS.c.id)
    )
    for row in rows:
        if not row.allow_negative and row.balance + deltas[row.id] < 0:
            return InsufficientFunds(
                f"{row.code} cannot pay {-deltas[row.id]}: balance is {row.balance}",
                reason="insufficient_funds",
                params={"need": -deltas[row.id], "balance": int(row.balance)},
            )
    raise LedgerInvariantError("a guarded balance update failed with no account overdrawn")


def post_many(session: Session, entries: Sequence[Entry]) -> list[int]:
    """Record balanced transactions and update the cached balances; return their ids, in order.

    All or nothing: the writes happen in a savepoint, so a refusal leaves the caller's
    transaction as it was.

    Raises:
        LedgerInvariantError: an entry's legs do not sum to zero (a bug in the caller).
        InsufficientFunds: an account would go negative; nothing is written.
    """
    if not entries:
        return []
    legs = [_merged(entry) for entry in entries]
    deltas: dict[int, int] = defaultdict(int)
    touched: dict[int, LedgerAccount] = {}
    for entry, merged in zip(entries, legs, strict=True):
        for account, _ in entry.legs:
            touched[account.id] = account
        for account_id, amount in merged.items():
            deltas[account_id] += amount
    moving = {account: delta for account, delta in deltas.items() if delta != 0}
    try:
        with session.begin_nested():
            ids = _write(session, entries, legs, moving)
    except _Overdraft:
        raise _overdrawn(session, moving) from None
    finally:
        for account in touched.values():
            session.expire(account, ["balance"])
    return ids


def _write(
    session: Session, entries: Sequence[Entry], legs: list[dict[int, int]], deltas: dict[int, int]
) -> list[int]:
    """The balance updates, the transactions and their postings."""
    if deltas:
        _update_balances(session, deltas)
    rows = [
        {
            "kind": entry.kind.value,
            "round_id": entry.round_id,
            "user_id": entry.user_id,
            "memo": entry.memo,
        }
        for entry in entries
    ]
    ids = list(session.execute(_INSERT_TRANSACTIONS, rows).scalars())
    postings: list[dict[str, Any]] = [
        {"transaction_id": txn_id, "account_id": account, "amount": amount}
        for txn_id, merged in zip(ids, legs, strict=True)
        for account, amount in sorted(merged.items())
    ]
    session.execute(insert(_POSTINGS), postings)
    return ids


def post(
    session: Session,
    *,
    kind: TransactionKind,
    legs: Sequence[tuple[LedgerAccount, int]],
    round_id: int | None = None,
    user_id: int | None = None,
    memo: str = "",
) -> int:
    """Record one balanced transaction (:func:`post_many` of one); return its id.

    Raises:
        LedgerInvariantError: the legs do not sum to zero (a bug in the caller).
        InsufficientFunds: an account would go negative; nothing is written.
    """
    entry = Entry(kind=kind, legs=legs, round_id=round_id, user_id=user_id, memo=memo)
    return post_many(session, [entry])[0]
