"""Posting: the one routine that writes ledger transactions and updates cached balances.

A movement of money is an :class:`Entry` (a kind and its legs, signed amounts that sum to
zero). :func:`post_many` writes any number of entries in the caller's transaction -- a lone
credit, a settlement paying hundreds of players, or the hundreds of stakes a live table
accepted together -- with the same few statements whatever the count: the balance updates of
every account touched, in account-id order (so concurrent transactions lock accounts in one
order), each guarded so that an account without ``allow_negative`` never goes below zero;
the transactions inserted in bulk; their postings inserted in bulk. :func:`post` is one
entry. :func:`lock_accounts` reads many accounts' balances locked, as rows (no ORM objects):
a leg names its account by object or by id.

The statements are the database's cheapest for many rows. On PostgreSQL each is one
statement whatever the count, the rows passed as one JSON parameter
(:func:`croupier.server.db.json_rows`): the accounts locked by one ``SELECT ... ORDER BY id
FOR UPDATE``, then updated by one guarded ``UPDATE ... FROM``, the transactions and postings
inserted from the rows. On SQLite, whose transaction holds the database's write lock from
``BEGIN IMMEDIATE``, an ``executemany`` runs in the driver. Transaction ids are taken before
the insert -- from the table's sequence on PostgreSQL, after the largest under SQLite's write
lock (what SQLite itself would assign) -- so no ``RETURNING`` has to come back in the rows'
order.

One account may wait: ``post_many(..., defer=account)`` -- a table's escrow, which every
stake at that table credits -- has its credit added at the end of the caller's transaction,
just before it commits (a ``before_commit`` hook of the session), not with the others. On
PostgreSQL a balance update locks its row until the commit, so the hundreds of stakes a live
table's gateways hold at once, each batch in its own transaction, would otherwise wait for
each other's whole transaction on that one row, not only for its commit. A credit cannot
overdraw, so the guard loses nothing; a later posting of the same transaction that moves
the account takes what waits with it.
"""

from __future__ import annotations

import contextlib
from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, cast

from sqlalchemy import (
    BigInteger,
    Integer,
    String,
    Table,
    bindparam,
    event,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.orm import Session, SessionTransaction

from croupier.errors import InsufficientFunds
from croupier.server.base import UtcDateTime, utcnow
from croupier.server.db import is_postgres, json_rows
from croupier.server.errors import LedgerInvariantError
from croupier.server.wallet.models import (
    LedgerAccount,
    LedgerTransaction,
    Posting,
    TransactionKind,
)

__all__ = ["AccountBalance", "Entry", "lock_accounts", "post", "post_many"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Entry:
    """One balanced movement to post: legs on the same account are merged, zero legs
    dropped. A leg's account is a :class:`LedgerAccount` or its id."""

    kind: TransactionKind
    legs: Sequence[tuple[LedgerAccount | int, int]]
    round_id: int | None = None
    user_id: int | None = None
    memo: str = ""


class AccountBalance(NamedTuple):
    """An account's row as :func:`lock_accounts` read it."""

    id: int
    code: str
    user_id: int | None
    balance: int


_ACCOUNTS = cast(Table, LedgerAccount.__table__)
_TRANSACTIONS = cast(Table, LedgerTransaction.__table__)
_POSTINGS = cast(Table, Posting.__table__)
_BALANCES = (_ACCOUNTS.c.id, _ACCOUNTS.c.code, _ACCOUNTS.c.user_id, _ACCOUNTS.c.balance)


@dataclass(frozen=True, slots=True)
class _Statements:
    """One database's statements of many rows, each taking them as one JSON parameter
    (:func:`croupier.server.db.json_rows`)."""

    find: Any
    """The accounts of the codes ``codes``, in account-id order (locked on PostgreSQL)."""
    lock: Any
    """Lock the accounts ``accounts`` in account-id order (PostgreSQL)."""
    guarded: Any
    """Add each of ``deltas``' delta to its account's balance, where the account may go
    negative or stays at zero or above."""
    transactions: Any
    postings: Any


def _statements(postgres: bool) -> _Statements:
    codes = json_rows("codes", postgres=postgres, code=String())
    accounts = json_rows("accounts", postgres=postgres, id=Integer())
    deltas = json_rows("deltas", postgres=postgres, id=Integer(), delta=BigInteger())
    rows = json_rows(
        "transactions",
        postgres=postgres,
        id=Integer(),
        kind=String(),
        round_id=Integer(),
        user_id=Integer(),
        memo=String(),
    )
    legs = json_rows(
        "legs",
        postgres=postgres,
        transaction_id=Integer(),
        account_id=Integer(),
        amount=BigInteger(),
    )
    find = select(*_BALANCES).where(_ACCOUNTS.c.code.in_(select(codes.c.code)))
    lock = select(_ACCOUNTS.c.id).where(_ACCOUNTS.c.id.in_(select(accounts.c.id)))
    guarded = (
        update(_ACCOUNTS)
        .where(_ACCOUNTS.c.id == deltas.c.id)
        .where(or_(_ACCOUNTS.c.allow_negative, _ACCOUNTS.c.balance + deltas.c.delta >= 0))
        .values(balance=_ACCOUNTS.c.balance + deltas.c.delta)
    )
    created = bindparam("created_at", type_=UtcDateTime())
    return _Statements(
        find=find.order_by(_ACCOUNTS.c.id).with_for_update(),
        lock=lock.order_by(_ACCOUNTS.c.id).with_for_update(),
        guarded=guarded,
        transactions=insert(_TRANSACTIONS).from_select(
            [*rows.c.keys(), "created_at"], select(*rows.c, created)
        ),
        postings=insert(_POSTINGS).from_select(list(legs.c.keys()), select(*legs.c)),
    )


_SQLITE, _POSTGRES = _statements(postgres=False), _statements(postgres=True)
_NEXT_ID = select(func.coalesce(func.max(_TRANSACTIONS.c.id), 0))
_PG_IDS = select(
    func.nextval(func.pg_get_serial_sequence(_TRANSACTIONS.name, "id")).label("id")
).select_from(func.generate_series(1, bindparam("n", type_=Integer())))


def lock_accounts(session: Session, codes: Sequence[str]) -> list[AccountBalance]:
    """The accounts with these codes (those that exist), read locked in account-id order:
    ``SELECT ... FOR UPDATE`` on PostgreSQL; SQLite's transaction holds the write lock."""
    if not codes:
        return []
    find = (_POSTGRES if is_postgres(session) else _SQLITE).find
    rows = session.execute(find, {"codes": [{"code": code} for code in codes]})
    return [AccountBalance._make(row) for row in rows]


def _merged(entry: Entry) -> dict[int, int]:
    """The entry's non-zero amount per account id.

    Raises:
        LedgerInvariantError: the legs do not sum to zero, or all are zero (a caller's bug).
    """
    merged: dict[int, int] = {}
    for account, amount in entry.legs:
        key = account if isinstance(account, int) else account.id
        merged[key] = merged.get(key, 0) + int(amount)
    if sum(merged.values()) != 0:
        raise LedgerInvariantError(f"unbalanced {entry.kind.value} transaction: {merged}")
    nonzero = {account: amount for account, amount in merged.items() if amount != 0}
    if not nonzero:
        raise LedgerInvariantError(f"empty {entry.kind.value} transaction")
    return nonzero


class _Overdraft(Exception):
    """A guarded balance update did not apply (raised inside the savepoint to roll it back)."""


def _update_balances(
    session: Session, deltas: dict[int, int], *, postgres: bool, lock: bool = True
) -> None:
    """Add each account's delta to its cached balance, guarded, the accounts locked first in
    account-id order (PostgreSQL, unless ``lock`` is false: the caller locked them; SQLite's
    transaction holds the write lock).

    Raises:
        _Overdraft: an account that may not go negative would have.
    """
    accounts = sorted(deltas)
    statements = _POSTGRES if postgres else _SQLITE
    if postgres and lock:
        session.execute(statements.lock, {"accounts": [{"id": a} for a in accounts]})
    rows = [{"id": a, "delta": deltas[a]} for a in accounts]
    changed = session.execute(statements.guarded, {"deltas": rows}).rowcount  # type: ignore[attr-defined]
    if changed != len(accounts):
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


def _expire_balances(session: Session, accounts: Collection[int]) -> None:
    """Forget the balance of any of these accounts loaded as an object in the session: the
    updates went past the ORM (its next read of ``balance`` asks the database)."""
    for loaded in session.identity_map.values():
        if isinstance(loaded, LedgerAccount) and loaded.__dict__.get("id") in accounts:
            session.expire(loaded, ["balance"])


def post_many(
    session: Session,
    entries: Sequence[Entry],
    *,
    defer: int | None = None,
    checked: Collection[int] = (),
) -> list[int]:
    """Record balanced transactions and update the cached balances; return their ids, in order.

    All or nothing: the writes happen in a savepoint, so a refusal leaves the caller's
    transaction as it was. ``defer``: an account whose credit is added just before the
    caller's transaction commits (see the module's text). ``checked``: accounts the caller
    has locked in this transaction and whose balances it has checked cover the deltas
    (:func:`croupier.server.wallet.service.hold_many`): when every account moved now is one,
    they are not locked again and no savepoint is taken -- three statements fewer, each a
    wait on a loaded database -- and an overdraft is the caller's bug.

    Raises:
        LedgerInvariantError: an entry's legs do not sum to zero, or an account of
            ``checked`` would go negative (bugs in the caller).
        InsufficientFunds: an account would go negative; nothing is written.
    """
    if not entries:
        return []
    legs = [_merged(entry) for entry in entries]
    deltas: dict[int, int] = defaultdict(int)
    for merged in legs:
        for account_id, amount in merged.items():
            deltas[account_id] += amount
    moving = {account: delta for account, delta in deltas.items() if delta != 0}
    waiting: dict[int, int] = session.info.get(_WAITING, {})
    for account in moving.keys() & waiting.keys():  # moved now: what waits goes with it
        moving[account] += waiting.pop(account)
    later = moving.pop(defer, 0) if defer is not None and moving.get(defer, 0) > 0 else 0
    locked = bool(checked) and moving.keys() <= set(checked)
    try:
        with contextlib.nullcontext() if locked else session.begin_nested():
            ids = _write(session, entries, legs, moving, locked=locked)
    except _Overdraft:
        if locked:
            raise LedgerInvariantError("a balance checked under its lock was overdrawn") from None
        raise _overdrawn(session, moving) from None
    finally:
        _expire_balances(session, deltas)
    if later:
        assert defer is not None
        _wait(session, defer, later)
    return ids


_WAITING = "croupier.ledger.waiting"
"""``session.info`` key: the credits waiting for the transaction's commit (account -> sum)."""
_HOOKED = "croupier.ledger.hooked"
"""``session.info`` key: the session calls :func:`_add_waiting` before it commits."""


def _wait(session: Session, account: int, credit: int) -> None:
    """Add ``credit`` to ``account``'s cached balance just before the transaction commits."""
    if not session.info.get(_HOOKED):
        session.info[_HOOKED] = True
        event.listen(session, "before_commit", _add_waiting)
        event.listen(session, "after_soft_rollback", _forget_waiting)
    waiting = session.info.setdefault(_WAITING, {})
    waiting[account] = waiting.get(account, 0) + credit


def _forget_waiting(session: Session, previous: SessionTransaction) -> None:
    """The transaction rolled back (not a savepoint): what waited goes with it."""
    if previous.parent is None:
        session.info.pop(_WAITING, None)


def _add_waiting(session: Session) -> None:
    """The credits waiting, added as the transaction commits (not a savepoint's release)."""
    if session.in_nested_transaction():
        return
    waiting = session.info.pop(_WAITING, None)
    if waiting:
        rows = [{"id": a, "delta": waiting[a]} for a in sorted(waiting)]
        statements = _POSTGRES if is_postgres(session) else _SQLITE
        changed = session.execute(statements.guarded, {"deltas": rows}).rowcount  # type: ignore[attr-defined]
        if changed != len(rows):  # pragma: no cover - a credit passes the guard
            raise LedgerInvariantError("a credit waiting for the commit did not apply")
        _expire_balances(session, waiting)


def _new_ids(session: Session, count: int, *, postgres: bool) -> list[int]:
    """``count`` new transaction ids, ascending: from the table's sequence (PostgreSQL), or
    after the largest (SQLite: its transaction holds the write lock, so no other can take
    them; what SQLite itself assigns to a row without one)."""
    if postgres:
        return sorted(session.scalars(_PG_IDS, {"n": count}))
    last = int(session.scalar(_NEXT_ID) or 0)
    return list(range(last + 1, last + 1 + count))


def _write(
    session: Session,
    entries: Sequence[Entry],
    legs: list[dict[int, int]],
    deltas: dict[int, int],
    *,
    locked: bool = False,
) -> list[int]:
    """The balance updates (``locked``: the accounts are locked already), the transactions
    and their postings."""
    postgres = is_postgres(session)
    if deltas:
        _update_balances(session, deltas, postgres=postgres, lock=not locked)
    ids = _new_ids(session, len(entries), postgres=postgres)
    rows = [
        {
            "id": txn_id,
            "kind": entry.kind.value,
            "round_id": entry.round_id,
            "user_id": entry.user_id,
            "memo": entry.memo,
        }
        for txn_id, entry in zip(ids, entries, strict=True)
    ]
    postings = [
        {"transaction_id": txn_id, "account_id": account, "amount": amount}
        for txn_id, merged in zip(ids, legs, strict=True)
        for account, amount in sorted(merged.items())
    ]
    statements = _POSTGRES if postgres else _SQLITE
    session.execute(statements.transactions, {"transactions": rows, "created_at": utcnow()})
    session.execute(statements.postings, {"legs": postings})
    return ids


def post(
    session: Session,
    *,
    kind: TransactionKind,
    legs: Sequence[tuple[LedgerAccount | int, int]],
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
