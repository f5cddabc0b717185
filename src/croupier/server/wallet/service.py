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
round record it belongs to are written in one transaction or not at all. Every movement is
posted by :mod:`croupier.server.wallet.ledger` and bound to its idempotency key by
:mod:`croupier.server.wallet.idempotency`; stakes have one path, :func:`hold_many`, of which
:func:`hold` is the batch of one.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import column, func, select, table
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from croupier.chips import Chips
from croupier.errors import CroupierError, InsufficientFunds
from croupier.server.errors import (
    InvalidRequestError,
    LedgerInvariantError,
    NotFoundError,
)
from croupier.server.wallet.idempotency import (
    Keyed,
    check_idempotency_key,
    find_replay,
    find_replays,
    idempotent,
    record,
    request_hash,
    stored_keys,
)
from croupier.server.wallet.ledger import AccountBalance, Entry, lock_accounts, post, post_many
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
    "HoldRequest",
    "Keyed",
    "Movement",
    "Released",
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
    "find_replays",
    "held_in_round",
    "hold",
    "hold_many",
    "hold_request",
    "house_account",
    "idempotent",
    "player_account",
    "player_balance",
    "post",
    "rake_account",
    "release_holds",
    "request_hash",
    "round_holds",
    "settle",
    "stored_keys",
    "void",
]

StakeCheck = Callable[[Session, Sequence[tuple[int, int]]], list[CroupierError | None]]
"""Asked, in the staking transaction, about each new (user id, amount) stake: its refusal or
``None`` (see :class:`croupier.server.tables.admission.Admission`)."""

MAX_AMOUNT = 10**12
"""The largest amount one request may move (ten billion in major units)."""


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
    # One statement, one snapshot: on PostgreSQL a transfer committed between two reads
    # made the cache and the postings disagree where they never did.
    of = Posting.account_id == account_id
    postings = select(func.coalesce(func.sum(Posting.amount), 0)).where(of).scalar_subquery()
    row = session.execute(
        select(LedgerAccount.balance, postings).where(LedgerAccount.id == account_id)
    ).one_or_none()
    if row is None:
        raise NotFoundError(f"ledger account {account_id} does not exist")
    cached, derived = row
    if int(derived or 0) != int(cached):
        raise LedgerInvariantError(
            f"account {account_id} caches {cached} but its postings sum to {derived}"
        )
    return Chips(int(cached))


def player_balance(session: Session, *, user_id: int) -> Chips:
    """A player's balance (0 for a player who never had money)."""
    return account_balance(session, account_id=player_account(session, user_id=user_id).id)


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
        txn_id = post(session, kind=kind, legs=legs, user_id=user_id, memo=memo)
        balance = account_balance(session, account_id=player.id)
        move = Movement(transaction_id=txn_id, kind=kind.value, amount=chips, balance=balance)
        return move.to_json(), txn_id

    request = {"op": kind.value, "user_id": user_id, "amount": int(chips), "memo": memo}
    response, replayed = idempotent(
        session, scope="cashier", key=idempotency_key, request=request, apply=apply
    )
    return Movement.from_json(response, replayed=replayed)


_USERS = table("users", column("id"))
"""The users table, as the accounts' foreign key names it: the wallet sits below
:mod:`croupier.server.accounts` (whose service opens a wallet at registration) and knows a
user only as a row there."""


def existing_player_account(session: Session, *, user_id: int) -> LedgerAccount:
    """The wallet account of an existing user (created on first use).

    Raises:
        InvalidRequestError: ``user_id`` is not an integer.
        NotFoundError: no such user.
    """
    if isinstance(user_id, bool) or not isinstance(user_id, int):
        raise InvalidRequestError(f"user id {user_id!r} is not an integer")
    if session.scalar(select(_USERS.c.id).where(_USERS.c.id == user_id)) is None:
        raise NotFoundError(f"user {user_id} does not exist", reason="user_not_found")
    return player_account(session, user_id=user_id)


@dataclass(frozen=True, slots=True, kw_only=True)
class HoldRequest:
    """One stake to hold (:func:`hold_many`): a player's money for an open round."""

    user_id: int
    amount: int
    idempotency_key: str
    details: Mapping[str, Any] | None = None
    """What the stake is for (the spots bet, say): part of the request, so replaying the key
    with other details is a conflict."""


@dataclass(frozen=True, slots=True)
class _Hold:
    """A hold request that passed its checks, waiting for its answer."""

    index: int
    user_id: int
    chips: Chips
    keyed: Keyed


def hold_many(
    session: Session,
    *,
    table: str,
    round_id: int,
    requests: Sequence[HoldRequest],
    check: StakeCheck | None = None,
) -> list[Movement | CroupierError]:
    """Move stakes from players to the table's escrow for an open round, in the caller's one
    transaction: one stake (a lone bet) or hundreds (a live table's inbox full of bets).

    Each stake is its own ledger transaction with its own idempotency record; the stakes
    share the reads and writes (:func:`~croupier.server.wallet.ledger.post_many`). The answer
    for each request, in order, is its :class:`Movement` (a replay when the key was applied
    before to the same request) or the error that refused it -- a bad amount or key, an
    unknown user, :class:`IdempotencyConflict`, :class:`InsufficientFunds` -- and a refused
    request writes nothing.

    The players' accounts are read locked (``SELECT ... FOR UPDATE`` in account-id order on
    PostgreSQL, the order :func:`post_many` updates them in; SQLite's ``BEGIN IMMEDIATE``
    already holds the write lock) before their keys are looked up, so two requests of one
    player never both pass; each balance is checked in Python, and the guarded update of
    :func:`post_many` still refuses an overdraft. A user may appear once per call.

    ``check`` (a responsible-gaming limit, issue 16) is asked about the new stakes once the
    accounts are locked, replays excluded (a stake answered before is answered the same);
    what it refuses is answered with its error and writes nothing.

    Raises:
        InvalidRequestError: a user twice in ``requests`` (a bug in the caller).
    """
    users = [r.user_id for r in requests]
    if len(set(users)) != len(users):
        raise InvalidRequestError("a batch of holds names a user twice")
    session.flush()  # what the caller left pending goes first (the reads below are Core)
    answers: list[Movement | CroupierError | None] = [None] * len(requests)
    pending = _checked(requests, answers, table=table, round_id=round_id)
    accounts = _locked_players(session, pending, answers)
    pending = _not_replayed(session, pending, answers)
    if check is not None and pending:
        pending = _allowed(session, pending, answers, check)
    funded = _funded(pending, accounts, answers)
    if funded:
        escrow = escrow_account(session, table=table)
        entries = [
            Entry(
                kind=TransactionKind.HOLD,
                legs=[(accounts[h.user_id].id, -h.chips), (escrow.id, h.chips)],
                round_id=round_id,
                user_id=h.user_id,
                memo=f"stake at {table}",
            )
            for h, _ in funded
        ]
        applied = []
        # The escrow's credit waits for the commit: concurrent batches of holds at one table
        # (a cluster's gateways) then wait on its row for a commit only (see .ledger).
        # The players' rows are locked and their balances checked (_locked_players, _funded).
        checked = [accounts[h.user_id].id for h, _ in funded]
        posted = post_many(session, entries, defer=escrow.id, checked=checked)
        for txn_id, (h, balance) in zip(posted, funded, strict=True):
            move = Movement(transaction_id=txn_id, kind="hold", amount=h.chips, balance=balance)
            answers[h.index] = move
            applied.append((h.keyed, move.to_json(), txn_id))
        record(session, applied)
    done = [a for a in answers if a is not None]
    if len(done) != len(requests):  # pragma: no cover - every step answers or passes on
        raise LedgerInvariantError("a hold was left unanswered")
    return done


def _checked(
    requests: Sequence[HoldRequest],
    answers: list[Movement | CroupierError | None],
    *,
    table: str,
    round_id: int,
) -> list[_Hold]:
    """The requests whose amount and key are well formed; the others answered refused."""
    pending = []
    for i, r in enumerate(requests):
        try:
            chips = check_amount(r.amount, what="stake")
            key = check_idempotency_key(r.idempotency_key)
        except CroupierError as exc:
            answers[i] = exc
            continue
        request = hold_request(table=table, round_id=round_id, amount=chips, details=r.details)
        pending.append(_Hold(i, r.user_id, chips, Keyed(f"user:{r.user_id}", key, request)))
    return pending


def _locked_players(
    session: Session, pending: Sequence[_Hold], answers: list[Movement | CroupierError | None]
) -> dict[int, AccountBalance]:
    """The players' wallet accounts, read locked in account-id order (rows, not objects); a
    request of an unknown user answered :class:`NotFoundError`."""
    accounts: dict[int, AccountBalance] = {}
    for row in lock_accounts(session, [f"player:{h.user_id}" for h in pending]):
        assert row.user_id is not None
        accounts[row.user_id] = row
    for h in pending:
        if h.user_id not in accounts:
            try:
                new = existing_player_account(session, user_id=h.user_id)
            except CroupierError as exc:
                answers[h.index] = exc
                continue
            accounts[h.user_id] = AccountBalance(new.id, new.code, new.user_id, new.balance)
    return accounts


def _not_replayed(
    session: Session, pending: Sequence[_Hold], answers: list[Movement | CroupierError | None]
) -> list[_Hold]:
    """The requests never applied; the others answered with their replay or conflict."""
    pending = [h for h in pending if answers[h.index] is None]
    fresh = []
    for h, found in zip(pending, find_replays(session, [h.keyed for h in pending]), strict=True):
        if found is None:
            fresh.append(h)
        elif isinstance(found, CroupierError):
            answers[h.index] = found
        else:
            answers[h.index] = Movement.from_json(found, replayed=True)
    return fresh


def _allowed(
    session: Session,
    pending: Sequence[_Hold],
    answers: list[Movement | CroupierError | None],
    check: StakeCheck,
) -> list[_Hold]:
    """The requests ``check`` lets through; the others answered with its refusal."""
    refusals = check(session, [(h.user_id, int(h.chips)) for h in pending])
    allowed = []
    for h, refusal in zip(pending, refusals, strict=True):
        if refusal is None:
            allowed.append(h)
        else:
            answers[h.index] = refusal
    return allowed


def _funded(
    pending: Sequence[_Hold],
    accounts: Mapping[int, AccountBalance],
    answers: list[Movement | CroupierError | None],
) -> list[tuple[_Hold, Chips]]:
    """The requests the players' balances cover, each with the balance after it; the others
    answered :class:`InsufficientFunds` (the guard of :func:`post_many`: a player account
    never goes below zero)."""
    funded = []
    for h in pending:
        account = accounts[h.user_id]
        have = int(account.balance)
        if have < h.chips:
            answers[h.index] = InsufficientFunds(
                f"{account.code} cannot pay {int(h.chips)}: balance is {have}",
                reason="insufficient_funds",
                params={"need": int(h.chips), "balance": have},
            )
            continue
        funded.append((h, Chips(have - h.chips)))
    return funded


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
    """Move one stake from the player to the table's escrow: :func:`hold_many` of one.

    Raises:
        InsufficientFunds: the player has less than ``amount``; nothing is moved.
        IdempotencyConflict: the key was applied to another request.
    """
    request = HoldRequest(
        user_id=user_id, amount=amount, idempotency_key=idempotency_key, details=details
    )
    (answer,) = hold_many(session, table=table, round_id=round_id, requests=[request])
    if isinstance(answer, CroupierError):
        raise answer
    return answer


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
    """What each user has staked in a round (their hold transactions, less the holds
    released), by user id; a user whose every hold was released is not listed."""
    rows = session.execute(
        select(LedgerTransaction.user_id, func.sum(Posting.amount))
        .join(Posting, Posting.transaction_id == LedgerTransaction.id)
        .join(LedgerAccount, LedgerAccount.id == Posting.account_id)
        .where(
            LedgerTransaction.round_id == round_id,
            LedgerTransaction.kind.in_([TransactionKind.HOLD.value, TransactionKind.RELEASE.value]),
            LedgerAccount.kind == AccountKind.ESCROW.value,
        )
        .group_by(LedgerTransaction.user_id)
    ).all()
    return {int(user): Chips(int(total)) for user, total in rows if user is not None and total}


def round_holds(session: Session, *, round_id: int) -> list[int]:
    """The ids of a round's hold transactions, in order."""
    return list(
        session.scalars(
            select(LedgerTransaction.id)
            .where(
                LedgerTransaction.round_id == round_id,
                LedgerTransaction.kind == TransactionKind.HOLD.value,
            )
            .order_by(LedgerTransaction.id)
        )
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class Released:
    """A hold returned: whose, how much, by which transaction."""

    hold_id: int
    user_id: int
    amount: int
    transaction_id: int


def release_holds(
    session: Session, *, table: str, round_id: int, holds: Sequence[int]
) -> list[Released]:
    """Return to their players, in the caller's transaction, the stakes of hold transactions
    ``holds`` of round ``round_id`` that the table did not take (issue 18: a gateway holds a
    bet before its table's owner sees it; the owner refuses it, or betting closed before the
    bet reached it). Each hold is released at most once -- its release is recorded under the
    key ``hold:ID`` in scope ``release:ROUND``, whose uniqueness the database enforces -- so
    asking again (a retry, the sweep at the close of betting after a refusal) moves nothing.

    Raises:
        LedgerInvariantError: an id that is not a hold of that round.
    """
    wanted = sorted(set(holds))
    if not wanted:
        return []
    scope = f"release:{round_id}"
    done = set(
        session.scalars(
            select(IdempotencyKey.key).where(
                IdempotencyKey.scope == scope,
                IdempotencyKey.key.in_([f"hold:{h}" for h in wanted]),
            )
        )
    )
    rows = session.execute(
        select(LedgerTransaction.id, LedgerTransaction.user_id, Posting.amount)
        .join(Posting, Posting.transaction_id == LedgerTransaction.id)
        .join(LedgerAccount, LedgerAccount.id == Posting.account_id)
        .where(
            LedgerTransaction.id.in_(wanted),
            LedgerTransaction.round_id == round_id,
            LedgerTransaction.kind == TransactionKind.HOLD.value,
            LedgerAccount.kind == AccountKind.ESCROW.value,
        )
    ).all()
    found = {int(txn): (int(user), int(amount)) for txn, user, amount in rows if user}
    missing = [h for h in wanted if h not in found]
    if missing:
        raise LedgerInvariantError(f"transactions {missing} are not holds of round {round_id}")
    todo = [h for h in wanted if f"hold:{h}" not in done]
    if not todo:
        return []
    escrow = escrow_account(session, table=table)
    accounts = _player_accounts(session, sorted({found[h][0] for h in todo}))
    entries = [
        Entry(
            kind=TransactionKind.RELEASE,
            legs=[(escrow, -found[h][1]), (accounts[found[h][0]], found[h][1])],
            round_id=round_id,
            user_id=found[h][0],
            memo=f"release hold {h} at {table}: the table did not take the stake",
        )
        for h in todo
    ]
    released = [
        Released(hold_id=h, user_id=found[h][0], amount=found[h][1], transaction_id=txn)
        for h, txn in zip(todo, post_many(session, entries), strict=True)
    ]
    record(
        session,
        [
            (
                Keyed(scope, f"hold:{r.hold_id}", {"hold": r.hold_id}),
                {"released": r.amount},
                r.transaction_id,
            )
            for r in released
        ],
    )
    return released


def settle(
    session: Session,
    *,
    table: str,
    round_id: int,
    returns: Mapping[int, int],
    rake: int = 0,
) -> int | None:
    """Pay a round out of escrow: each user gets ``returns[user]`` (stake included), the rake
    account ``rake``, and the house the difference (negative when players won).

    The caller marks the round settled in the same transaction. Returns the transaction's id,
    or ``None`` when nobody staked anything.

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


def void(session: Session, *, table: str, round_id: int, reason: str) -> int | None:
    """Return every stake of a round from escrow (spec/uth.md "Faults": every bet returned).

    Returns the transaction's id, or ``None`` when nobody staked anything.
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
    # One statement, one snapshot (as in :func:`account_balance`).
    sums = (
        select(Posting.account_id, func.sum(Posting.amount).label("total"))
        .group_by(Posting.account_id)
        .subquery()
    )
    both = select(LedgerAccount, func.coalesce(sums.c.total, 0))
    rows = session.execute(both.outerjoin(sums, sums.c.account_id == LedgerAccount.id)).all()
    totals: dict[str, int] = defaultdict(int)
    for account, derived in rows:
        from_postings = int(derived)
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
