"""Double-entry ledger services: keyword-only functions taking the caller's session.

Every movement is one :class:`LedgerTransaction` whose :class:`Posting` amounts sum to zero.
Balances are the sums of postings; each account also caches its balance, updated by a guarded
``UPDATE`` in the same transaction (the guard is what refuses an overdraft atomically, on
SQLite and PostgreSQL alike), and :func:`check_ledger` proves the cache equals the postings.

Money flows (issue 5, Wallet)::

    credit  cashier -> player          debit   player -> cashier
    hold    player  -> escrow:<table>  (a stake accepted for an open round)
    settle  escrow  -> players (returns), house (the difference), rake
    void    escrow  -> players (exactly what each held; spec/uth.md "Faults")

None of these commit: the caller's ``with db.session()`` block does, so a settlement and the
round record it belongs to are written in one transaction or not at all.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Table, bindparam, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from croupier.chips import Chips
from croupier.errors import InsufficientFunds
from croupier.server.errors import (
    IdempotencyConflict,
    InvalidRequestError,
    LedgerInvariantError,
    NotFoundError,
)
from croupier.server.wallet.models import (
    AccountKind,
    IdempotencyKey,
    LedgerAccount,
    LedgerTransaction,
    Posting,
    TransactionKind,
)

__all__ = [
    "MAX_AMOUNT",
    "Movement",
    "account_balance",
    "cashier_account",
    "check_amount",
    "check_idempotency_key",
    "check_ledger",
    "credit",
    "debit",
    "escrow_account",
    "existing_player_account",
    "find_replay",
    "held_in_round",
    "hold",
    "hold_request",
    "house_account",
    "idempotent",
    "player_account",
    "player_balance",
    "post",
    "rake_account",
    "request_hash",
    "settle",
    "void",
]

MAX_AMOUNT = 10**12
"""The largest amount one request may move (ten billion in major units)."""

_MAX_KEY = 128


@dataclass(frozen=True, slots=True, kw_only=True)
class Movement:
    """The answer to a money-moving request (also what a replayed request gets back)."""

    transaction_id: int
    kind: str
    amount: Chips
    balance: Chips
    """The player's balance right after the movement."""
    replayed: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "transaction_id": self.transaction_id,
            "kind": self.kind,
            "amount": int(self.amount),
            "balance": int(self.balance),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], *, replayed: bool) -> Movement:
        return cls(
            transaction_id=int(data["transaction_id"]),
            kind=str(data["kind"]),
            amount=Chips(int(data["amount"])),
            balance=Chips(int(data["balance"])),
            replayed=replayed,
        )


def check_amount(amount: object, *, what: str = "amount") -> Chips:
    """Return ``amount`` as :class:`Chips` if it is a whole positive number within limits.

    Raises:
        InvalidRequestError: not an ``int`` (floats and bools are refused), not positive, or
            above :data:`MAX_AMOUNT`.
    """
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise InvalidRequestError(
            f"{what} {amount!r} is not a whole number of minor units", reason="amount_not_whole"
        )
    if amount <= 0:
        raise InvalidRequestError(
            f"{what} {amount} is not positive",
            reason="amount_not_positive",
            params={"amount": amount},
        )
    if amount > MAX_AMOUNT:
        raise InvalidRequestError(
            f"{what} {amount} is above the maximum {MAX_AMOUNT}",
            reason="amount_too_large",
            params={"amount": amount, "max": MAX_AMOUNT},
        )
    return Chips(amount)


def check_idempotency_key(key: object) -> str:
    """Return ``key`` if it is a usable idempotency key (1..128 printable ASCII characters)."""
    if not isinstance(key, str) or not 1 <= len(key) <= _MAX_KEY:
        raise InvalidRequestError(
            f"idempotency key {key!r} must be 1 to {_MAX_KEY} characters",
            reason="idempotency_key_invalid",
        )
    if not key.isascii() or not key.isprintable():
        raise InvalidRequestError(
            f"idempotency key {key!r} must be printable ascii", reason="idempotency_key_invalid"
        )
    return key


# -- accounts ------------------------------------------------------------------------------


def _get_or_create(
    session: Session,
    *,
    code: str,
    kind: AccountKind,
    user_id: int | None = None,
    allow_negative: bool = False,
) -> LedgerAccount:
    account = session.scalars(select(LedgerAccount).where(LedgerAccount.code == code)).first()
    if account is not None:
        return account
    try:
        with session.begin_nested():
            account = LedgerAccount(
                code=code,
                kind=kind.value,
                user_id=user_id,
                balance=0,
                allow_negative=allow_negative,
            )
            session.add(account)
    except IntegrityError:
        # Created concurrently by another transaction: read theirs.
        account = session.scalars(select(LedgerAccount).where(LedgerAccount.code == code)).one()
    return account


def player_account(session: Session, *, user_id: int) -> LedgerAccount:
    """The player's wallet account (created on first use)."""
    return _get_or_create(
        session, code=f"player:{user_id}", kind=AccountKind.PLAYER, user_id=user_id
    )


def escrow_account(session: Session, *, table: str) -> LedgerAccount:
    """The table's escrow account: stakes of its open rounds."""
    return _get_or_create(session, code=f"escrow:{table}", kind=AccountKind.ESCROW)


def house_account(session: Session) -> LedgerAccount:
    """The casino's bankroll (may go negative: the house pays wins it has not yet won back)."""
    return _get_or_create(session, code="house", kind=AccountKind.HOUSE, allow_negative=True)


def rake_account(session: Session) -> LedgerAccount:
    """Commission taken from Hold'em pots."""
    return _get_or_create(session, code="rake", kind=AccountKind.RAKE)


def cashier_account(session: Session) -> LedgerAccount:
    """Where deposits come from and withdrawals go (its balance is minus the money inside)."""
    return _get_or_create(session, code="cashier", kind=AccountKind.CASHIER, allow_negative=True)


def _player_accounts(session: Session, users: Sequence[int]) -> dict[int, LedgerAccount]:
    """The wallet accounts of many players, read together (created where missing)."""
    codes = [f"player:{user}" for user in users]
    found: dict[int, LedgerAccount] = {}
    for start in range(0, len(codes), 1000):
        chunk = codes[start : start + 1000]
        for account in session.scalars(select(LedgerAccount).where(LedgerAccount.code.in_(chunk))):
            assert account.user_id is not None
            found[account.user_id] = account
    for user in users:
        if user not in found:
            found[user] = player_account(session, user_id=user)
    return found


def account_balance(session: Session, *, account_id: int) -> Chips:
    """The balance of an account, derived from its postings and checked against the cache.

    Raises:
        NotFoundError: no such account.
        LedgerInvariantError: the cached balance disagrees with the postings.
    """
    cached = session.scalar(select(LedgerAccount.balance).where(LedgerAccount.id == account_id))
    if cached is None:
        raise NotFoundError(f"ledger account {account_id} does not exist")
    derived = session.scalar(
        select(func.coalesce(func.sum(Posting.amount), 0)).where(Posting.account_id == account_id)
    )
    if int(derived or 0) != int(cached):
        raise LedgerInvariantError(
            f"account {account_id} caches {cached} but its postings sum to {derived}"
        )
    return Chips(int(cached))


def player_balance(session: Session, *, user_id: int) -> Chips:
    """A player's balance (0 for a player who never had money)."""
    return account_balance(session, account_id=player_account(session, user_id=user_id).id)


# -- posting -------------------------------------------------------------------------------


def post(
    session: Session,
    *,
    kind: TransactionKind,
    legs: Sequence[tuple[LedgerAccount, int]],
    round_id: int | None = None,
    user_id: int | None = None,
    memo: str = "",
) -> LedgerTransaction:
    """Record one balanced transaction and update the cached balances.

    Legs on the same account are merged and zero legs dropped. Balances are updated in
    account-id order (so concurrent transactions lock in one order), each by a guarded
    ``UPDATE`` that refuses to take an account without ``allow_negative`` below zero.

    Raises:
        LedgerInvariantError: the legs do not sum to zero (a bug in the caller).
        InsufficientFunds: an account would go negative; nothing is written.
    """
    merged: dict[int, int] = defaultdict(int)
    by_id: dict[int, LedgerAccount] = {}
    for account, amount in legs:
        merged[account.id] += int(amount)
        by_id[account.id] = account
    if sum(merged.values()) != 0:
        raise LedgerInvariantError(f"unbalanced {kind.value} transaction: {dict(merged)}")
    nonzero = {acc: amt for acc, amt in merged.items() if amt != 0}
    if not nonzero:
        raise LedgerInvariantError(f"empty {kind.value} transaction")
    with session.begin_nested():
        credits: list[dict[str, int]] = []
        for account_id in sorted(nonzero):
            delta = nonzero[account_id]
            if delta > 0:
                # Money in cannot overdraw: consecutive credits go in one statement (a
                # settlement pays hundreds of players), still in account-id order.
                credits.append({"account": account_id, "delta": delta})
                continue
            _credit(session, credits)
            stmt = (
                update(LedgerAccount)
                .where(LedgerAccount.id == account_id)
                .where(or_(LedgerAccount.allow_negative, LedgerAccount.balance + delta >= 0))
                .values(balance=LedgerAccount.balance + delta)
                .execution_options(synchronize_session=False)
            )
            if session.execute(stmt).rowcount != 1:  # type: ignore[attr-defined]
                code = by_id[account_id].code
                have = session.scalar(
                    select(LedgerAccount.balance).where(LedgerAccount.id == account_id)
                )
                raise InsufficientFunds(
                    f"{code} cannot pay {-delta}: balance is {have}",
                    reason="insufficient_funds",
                    params={"need": -delta, "balance": have},
                )
        _credit(session, credits)
        txn = LedgerTransaction(kind=kind.value, round_id=round_id, user_id=user_id, memo=memo)
        session.add(txn)
        session.flush()
        session.add_all(
            Posting(transaction_id=txn.id, account_id=acc, amount=amt)
            for acc, amt in sorted(nonzero.items())
        )
        session.flush()
    for account in by_id.values():
        session.expire(account, ["balance"])
    return txn


_ACCOUNTS = cast(Table, LedgerAccount.__table__)
_CREDIT = (
    update(_ACCOUNTS)
    .where(_ACCOUNTS.c.id == bindparam("account"))
    .values(balance=_ACCOUNTS.c.balance + bindparam("delta"))
)


def _credit(session: Session, credits: list[dict[str, int]]) -> None:
    """Add each ``delta`` to its ``account`` (one executemany), and empty ``credits``."""
    if credits:
        session.execute(_CREDIT, credits)
        credits.clear()


# -- idempotency ---------------------------------------------------------------------------


def request_hash(request: Mapping[str, Any]) -> str:
    """The SHA-256 of a request's defining fields (what an idempotency key is bound to)."""
    canonical = json.dumps(request, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def idempotent(
    session: Session,
    *,
    scope: str,
    key: str,
    request: Mapping[str, Any],
    apply: Callable[[], tuple[dict[str, Any], int | None]],
) -> tuple[dict[str, Any], bool]:
    """Apply ``apply`` once per ``(scope, key)``; return its response and whether it was a replay.

    ``request`` is every field that defines the request: a replay with the same fields gets
    the stored response; with other fields, :class:`IdempotencyConflict` and nothing applied.
    A request that fails is not recorded (its transaction rolls back), so it may be retried.
    """
    key = check_idempotency_key(key)
    digest = request_hash(request)

    def replay(row: IdempotencyKey) -> tuple[dict[str, Any], bool]:
        if row.request_hash != digest:
            raise IdempotencyConflict(
                f"idempotency key {key!r} was already used for a different request",
                reason="idempotency_conflict",
            )
        return dict(row.response), True

    query = select(IdempotencyKey).where(IdempotencyKey.scope == scope, IdempotencyKey.key == key)
    existing = session.scalars(query).first()
    if existing is not None:
        return replay(existing)
    row = IdempotencyKey(scope=scope, key=key, request_hash=digest, response={})
    try:
        with session.begin_nested():
            session.add(row)
    except IntegrityError:
        # Another transaction applied the same key first (PostgreSQL waits for it to commit).
        return replay(session.scalars(query).one())
    response, transaction_id = apply()
    row.response = response
    row.transaction_id = transaction_id
    session.flush()
    return response, False


def find_replay(
    session: Session, *, scope: str, key: str, request: Mapping[str, Any]
) -> dict[str, Any] | None:
    """The stored response of ``key`` if it was applied to this same request, else ``None``.

    Raises:
        IdempotencyConflict: the key was applied to a different request.
    """
    key = check_idempotency_key(key)
    row = session.scalars(
        select(IdempotencyKey).where(IdempotencyKey.scope == scope, IdempotencyKey.key == key)
    ).first()
    if row is None:
        return None
    if row.request_hash != request_hash(request):
        raise IdempotencyConflict(
            f"idempotency key {key!r} was already used for a different request",
            reason="idempotency_conflict",
        )
    return dict(row.response)


# -- movements -----------------------------------------------------------------------------


def credit(
    session: Session,
    *,
    user_id: int,
    amount: int,
    idempotency_key: str,
    memo: str = "",
) -> Movement:
    """Pay money into a player's account from the cashier (an operator's credit)."""
    return _cashier_move(
        session,
        kind=TransactionKind.CREDIT,
        user_id=user_id,
        amount=amount,
        idempotency_key=idempotency_key,
        memo=memo,
    )


def debit(
    session: Session,
    *,
    user_id: int,
    amount: int,
    idempotency_key: str,
    memo: str = "",
) -> Movement:
    """Take money out of a player's account to the cashier (an operator's debit).

    Raises:
        InsufficientFunds: the player has less than ``amount``.
    """
    return _cashier_move(
        session,
        kind=TransactionKind.DEBIT,
        user_id=user_id,
        amount=amount,
        idempotency_key=idempotency_key,
        memo=memo,
    )


def _cashier_move(
    session: Session,
    *,
    kind: TransactionKind,
    user_id: int,
    amount: int,
    idempotency_key: str,
    memo: str,
) -> Movement:
    chips = check_amount(amount)
    player = existing_player_account(session, user_id=user_id)
    cashier = cashier_account(session)

    def apply() -> tuple[dict[str, Any], int | None]:
        sign = 1 if kind is TransactionKind.CREDIT else -1
        legs = [(player, sign * chips), (cashier, -sign * chips)]
        txn = post(session, kind=kind, legs=legs, user_id=user_id, memo=memo)
        balance = account_balance(session, account_id=player.id)
        move = Movement(transaction_id=txn.id, kind=kind.value, amount=chips, balance=balance)
        return move.to_json(), txn.id

    request = {"op": kind.value, "user_id": user_id, "amount": int(chips), "memo": memo}
    response, replayed = idempotent(
        session, scope="cashier", key=idempotency_key, request=request, apply=apply
    )
    return Movement.from_json(response, replayed=replayed)


def existing_player_account(session: Session, *, user_id: int) -> LedgerAccount:
    """The wallet account of an existing user (created on first use).

    Raises:
        InvalidRequestError: ``user_id`` is not an integer.
        NotFoundError: no such user.
    """
    from croupier.server.accounts.models import User

    if isinstance(user_id, bool) or not isinstance(user_id, int):
        raise InvalidRequestError(f"user id {user_id!r} is not an integer")
    if session.get(User, user_id) is None:
        raise NotFoundError(f"user {user_id} does not exist", reason="user_not_found")
    return player_account(session, user_id=user_id)


def hold(
    session: Session,
    *,
    user_id: int,
    table: str,
    round_id: int,
    amount: int,
    idempotency_key: str,
    details: Mapping[str, Any] | None = None,
) -> Movement:
    """Move a stake from the player to the table's escrow for an open round.

    ``details`` (the spots bet, say) is part of the request: replaying the key with other
    details is a conflict.

    Raises:
        InsufficientFunds: the player has less than ``amount``; nothing is moved.
    """
    chips = check_amount(amount, what="stake")
    player = existing_player_account(session, user_id=user_id)
    escrow = escrow_account(session, table=table)

    def apply() -> tuple[dict[str, Any], int | None]:
        txn = post(
            session,
            kind=TransactionKind.HOLD,
            legs=[(player, -chips), (escrow, chips)],
            round_id=round_id,
            user_id=user_id,
            memo=f"stake at {table}",
        )
        balance = account_balance(session, account_id=player.id)
        move = Movement(transaction_id=txn.id, kind="hold", amount=chips, balance=balance)
        return move.to_json(), txn.id

    request = hold_request(table=table, round_id=round_id, amount=chips, details=details)
    response, replayed = idempotent(
        session, scope=f"user:{user_id}", key=idempotency_key, request=request, apply=apply
    )
    return Movement.from_json(response, replayed=replayed)


def hold_request(
    *, table: str, round_id: int, amount: int, details: Mapping[str, Any] | None
) -> dict[str, Any]:
    """The fields that identify a hold request (what its idempotency key is bound to)."""
    return {
        "op": "hold",
        "table": table,
        "round_id": round_id,
        "amount": int(amount),
        "details": dict(details or {}),
    }


def held_in_round(session: Session, *, round_id: int) -> dict[int, Chips]:
    """What each user has staked in a round (their hold transactions), by user id."""
    rows = session.execute(
        select(LedgerTransaction.user_id, func.sum(Posting.amount))
        .join(Posting, Posting.transaction_id == LedgerTransaction.id)
        .join(LedgerAccount, LedgerAccount.id == Posting.account_id)
        .where(
            LedgerTransaction.round_id == round_id,
            LedgerTransaction.kind == TransactionKind.HOLD.value,
            LedgerAccount.kind == AccountKind.ESCROW.value,
        )
        .group_by(LedgerTransaction.user_id)
    ).all()
    return {int(user): Chips(int(total)) for user, total in rows if user is not None}


def settle(
    session: Session,
    *,
    table: str,
    round_id: int,
    returns: Mapping[int, int],
    rake: int = 0,
) -> LedgerTransaction | None:
    """Pay a round out of escrow: each user gets ``returns[user]`` (stake included), the rake
    account ``rake``, and the house the difference (negative when players won).

    The caller marks the round settled in the same transaction. Returns ``None`` when nobody
    staked anything.

    Raises:
        LedgerInvariantError: a return for a user who staked nothing, or a negative amount.
    """
    held = held_in_round(session, round_id=round_id)
    for user, amount in returns.items():
        if user not in held or amount < 0:
            raise LedgerInvariantError(f"return of {amount} to user {user} in round {round_id}")
    if rake < 0:
        raise LedgerInvariantError(f"negative rake {rake}")
    total_held = sum(held.values())
    if total_held == 0:
        return None
    escrow = escrow_account(session, table=table)
    legs: list[tuple[LedgerAccount, int]] = [(escrow, -total_held)]
    paid = sorted(user for user, amount in returns.items() if amount)
    accounts = _player_accounts(session, paid)
    for user in paid:
        legs.append((accounts[user], returns[user]))
    if rake:
        legs.append((rake_account(session), rake))
    house_delta = total_held - sum(returns.values()) - rake
    if house_delta:
        legs.append((house_account(session), house_delta))
    return post(
        session,
        kind=TransactionKind.SETTLE,
        legs=legs,
        round_id=round_id,
        memo=f"settle round {round_id} at {table}",
    )


def void(session: Session, *, table: str, round_id: int, reason: str) -> LedgerTransaction | None:
    """Return every stake of a round from escrow (spec/uth.md "Faults": every bet returned).

    Returns ``None`` when nobody staked anything.
    """
    held = held_in_round(session, round_id=round_id)
    total = sum(held.values())
    if total == 0:
        return None
    legs: list[tuple[LedgerAccount, int]] = [(escrow_account(session, table=table), -total)]
    accounts = _player_accounts(session, sorted(held))
    legs += [(accounts[user], held[user]) for user in sorted(held)]
    return post(
        session,
        kind=TransactionKind.VOID,
        legs=legs,
        round_id=round_id,
        memo=f"void round {round_id} at {table}: {reason}"[:255],
    )


def check_ledger(session: Session) -> dict[str, int]:
    """Prove the ledger consistent; return a few totals.

    Checks: every transaction's postings sum to zero; every cached balance equals the sum
    of its postings; no account that may not go negative is negative.

    Raises:
        LedgerInvariantError: naming the first broken rule.
    """
    unbalanced = session.execute(
        select(Posting.transaction_id, func.sum(Posting.amount))
        .group_by(Posting.transaction_id)
        .having(func.sum(Posting.amount) != 0)
    ).first()
    if unbalanced is not None:
        raise LedgerInvariantError(f"transaction {unbalanced[0]} sums to {unbalanced[1]}")
    derived = dict(
        session.execute(
            select(Posting.account_id, func.sum(Posting.amount)).group_by(Posting.account_id)
        ).all()
    )
    totals: dict[str, int] = defaultdict(int)
    for account in session.scalars(select(LedgerAccount)):
        from_postings = int(derived.get(account.id, 0))
        if from_postings != account.balance:
            raise LedgerInvariantError(
                f"{account.code} caches {account.balance} but its postings sum to {from_postings}"
            )
        if account.balance < 0 and not account.allow_negative:
            raise LedgerInvariantError(f"{account.code} is negative: {account.balance}")
        totals[account.kind] += account.balance
    if sum(totals.values()) != 0:
        raise LedgerInvariantError(f"balances sum to {sum(totals.values())}, not zero")
    return dict(totals)
