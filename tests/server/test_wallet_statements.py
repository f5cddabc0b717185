"""The wallet's statements of many rows, on SQLite and PostgreSQL (issue 18: a live table's
hundreds of stakes in one transaction, read as rows and written as one JSON parameter).

A batch answers and writes what the rules say whatever the backend: the same refusals, each
writing nothing; each stake its own ledger transaction (ids ascending in the batch's order,
the player's account and the escrow its two legs) and idempotency record; the round's
players counted; the books balanced. Objects the caller's session loaded see the balances
the batch wrote. Two batches of the same players never deadlock nor overdraw, whatever
their order. A request's digest is what it always was (keys stored before still match).
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from croupier.errors import CroupierError, InsufficientFunds
from croupier.server.db import Database
from croupier.server.errors import PermissionDeniedError
from croupier.server.tables import rounds
from croupier.server.tables.models import RoundPlayer
from croupier.server.wallet import service as wallet
from croupier.server.wallet.ledger import Entry, post_many
from croupier.server.wallet.models import (
    IdempotencyKey,
    LedgerAccount,
    LedgerTransaction,
    Posting,
    TransactionKind,
)

UserFactory = Callable[..., int]
TABLE = "live"


def _open(db: Database) -> int:
    with db.session() as session:
        return rounds.open_round(
            session, table=TABLE, game="uth", commitment="c" * 64, salt="s", deck="d"
        ).id


def _players(db: Database, make_user: UserFactory, funds: Sequence[int]) -> list[int]:
    users = [make_user(f"p{i:03d}") for i in range(len(funds))]
    with db.session() as session:
        for user, amount in zip(users, funds, strict=True):
            if amount:
                wallet.credit(session, user_id=user, amount=amount, idempotency_key=f"c{user}")
    return users


def _count(db: Database, model: type[object]) -> int:
    with db.session() as session:
        return int(session.scalar(select(func.count()).select_from(model)) or 0)


def _stake(user: int, amount: int, key: str, seat: int = 0, detail: int = 0) -> rounds.Stake:
    return rounds.Stake(
        user_id=user,
        seat=seat,
        amount=amount,
        idempotency_key=key,
        details={"bets": {"ante": amount}, "detail": detail},
    )


def _said(answer: Any) -> tuple[Any, ...]:
    if isinstance(answer, CroupierError):
        return ("refused", answer.reason)
    return ("held", int(answer.amount), int(answer.balance), answer.replayed)


def test_a_batch_answers_and_writes_what_the_rules_say(
    db: Database, make_user: UserFactory
) -> None:
    funds = [1_000] * 30 + [50] * 5 + [0] * 5
    users = _players(db, make_user, funds)
    round_id = _open(db)
    excluded = users[7]

    def check(_: Session, stakes: Sequence[tuple[int, int]]) -> list[CroupierError | None]:
        return [
            PermissionDeniedError("self-excluded", reason="self_excluded")
            if user == excluded
            else None
            for user, _ in stakes
        ]

    first = [_stake(u, 100 + i, f"bet-{u}", seat=i) for i, u in enumerate(users)]
    first[3] = _stake(users[3], 0, "bet-zero", seat=3)  # not positive
    first.append(_stake(10**6, 100, "bet-nobody", seat=99))  # no such user
    records, transactions = _count(db, IdempotencyKey), _count(db, LedgerTransaction)
    with db.session() as session:
        answers = rounds.stake_many(session, round_id=round_id, stakes=first, check=check)
    expected: list[tuple[Any, ...]] = []
    balances = list(funds)
    for i, (stake, have) in enumerate(zip(first, funds, strict=False)):
        if i == 3:
            expected.append(("refused", "amount_not_positive"))
        elif stake.user_id == excluded:
            expected.append(("refused", "self_excluded"))
        elif have < stake.amount:
            expected.append(("refused", "insufficient_funds"))
        else:
            balances[i] -= stake.amount
            expected.append(("held", stake.amount, balances[i], False))
    expected.append(("refused", "user_not_found"))
    assert [_said(a) for a in answers] == expected
    held = [(s, a) for s, a in zip(first, answers, strict=True) if isinstance(a, wallet.Movement)]
    assert len(held) == 28
    # Each stake taken is one transaction and one record; the refused ones wrote nothing.
    assert _count(db, IdempotencyKey) == records + 28
    assert _count(db, LedgerTransaction) == transactions + 28
    ids = [a.transaction_id for _, a in held]
    assert ids == sorted(ids) and len(set(ids)) == 28
    with db.session() as session:
        escrow = wallet.escrow_account(session, table=TABLE).id
        for stake, answer in held:
            txn = session.get(LedgerTransaction, answer.transaction_id)
            assert txn is not None
            assert (txn.kind, txn.user_id, txn.round_id) == ("hold", stake.user_id, round_id)
            legs = sorted(
                session.execute(
                    select(LedgerAccount.user_id, Posting.amount)
                    .join(LedgerAccount, LedgerAccount.id == Posting.account_id)
                    .where(Posting.transaction_id == txn.id)
                ).all(),
                key=lambda leg: leg[1],
            )
            assert legs == [(stake.user_id, -stake.amount), (None, stake.amount)]
            stored = session.scalars(
                select(IdempotencyKey).where(
                    IdempotencyKey.scope == f"user:{stake.user_id}",
                    IdempotencyKey.key == stake.idempotency_key,
                )
            ).one()
            assert stored.transaction_id == answer.transaction_id
            assert stored.response == answer.to_json()
        assert wallet.account_balance(session, account_id=escrow) == sum(s.amount for s, _ in held)
        assert [int(wallet.player_balance(session, user_id=u)) for u in users] == balances
        wallet.check_ledger(session)

    # Again: replays answer as before, a key with another stake is a conflict, a next stake
    # (a Play bet) adds to the player's stake in the round.
    second = [
        first[0],  # replay
        _stake(users[1], 999, "bet-" + str(users[1]), seat=1),  # conflict: another amount
        _stake(users[2], 102, "bet-" + str(users[2]), seat=2, detail=1),  # conflict: details
        _stake(users[4], 40, "play-4", seat=4),  # Play bet
        _stake(users[3], 25, "bet-three", seat=3),  # first stake after a refusal
    ]
    with db.session() as session:
        again = rounds.stake_many(session, round_id=round_id, stakes=second)
    assert [_said(a) for a in again] == [
        (*_said(answers[0])[:3], True),
        ("refused", "idempotency_conflict"),
        ("refused", "idempotency_conflict"),
        ("held", 40, balances[4] - 40, False),
        ("held", 25, funds[3] - 25, False),
    ]
    assert isinstance(again[0], wallet.Movement) and isinstance(answers[0], wallet.Movement)
    assert again[0].transaction_id == answers[0].transaction_id
    with db.session() as session:
        staked = {
            p.user_id: (p.seat, p.staked)
            for p in session.scalars(select(RoundPlayer).where(RoundPlayer.round_id == round_id))
        }
        wallet.check_ledger(session)
    assert staked[users[4]] == (4, 104 + 40)
    assert staked[users[3]] == (3, 25)
    assert staked[users[0]] == (0, 100)
    assert excluded not in staked and users[35] not in staked
    assert len(staked) == 28 + 1


def test_objects_loaded_in_the_session_see_what_the_batch_wrote(
    db: Database, make_user: UserFactory
) -> None:
    alice, bob = _players(db, make_user, [500, 500])
    round_id = _open(db)
    with db.session() as session:
        rounds.stake_many(session, round_id=round_id, stakes=[_stake(alice, 100, "a1")])
    with db.session() as session:
        account = wallet.player_account(session, user_id=alice)
        player = session.scalars(select(RoundPlayer).where(RoundPlayer.user_id == alice)).one()
        assert (account.balance, player.staked) == (400, 100)
        answers = rounds.stake_many(
            session,
            round_id=round_id,
            stakes=[_stake(alice, 60, "a2"), _stake(bob, 70, "b1", seat=1)],
        )
        assert [_said(a) for a in answers] == [("held", 60, 340, False), ("held", 70, 430, False)]
        assert (account.balance, player.staked) == (340, 160)


def test_an_overdraft_among_many_entries_writes_nothing(
    db: Database, make_user: UserFactory
) -> None:
    users = _players(db, make_user, [300, 300, 300])
    round_id = _open(db)
    before = (_count(db, LedgerTransaction), _count(db, Posting))
    with db.session() as session:
        accounts = [wallet.player_account(session, user_id=u).id for u in users]
        escrow = wallet.escrow_account(session, table=TABLE)
        entries = [
            Entry(
                kind=TransactionKind.HOLD,
                legs=[(account, -amount), (escrow, amount)],
                round_id=round_id,
                user_id=user,
            )
            for user, account, amount in zip(users, accounts, [100, 301, 200], strict=True)
        ]
        with pytest.raises(InsufficientFunds, match=f"player:{users[1]} cannot pay 301"):
            post_many(session, entries)
        assert escrow.balance == 0  # read again after the refusal
    assert (_count(db, LedgerTransaction), _count(db, Posting)) == before
    with db.session() as session:
        assert [int(wallet.player_balance(session, user_id=u)) for u in users] == [300] * 3
        wallet.check_ledger(session)


def test_batches_of_the_same_players_in_opposite_orders(
    db: Database, make_user: UserFactory
) -> None:
    """Each player can pay one of the two stakes asked of them at once: exactly one is
    taken, whichever batch locks them first, and neither batch deadlocks the other."""
    users = _players(db, make_user, [150] * 24)
    round_id = _open(db)
    answers: dict[str, list[Any]] = {}
    errors: list[BaseException] = []
    start = threading.Barrier(2)

    def batch(name: str, order: list[int]) -> None:
        stakes = [_stake(u, 100, f"{name}-{u}", seat=i) for i, u in enumerate(order)]
        try:
            start.wait()
            with db.session() as session:
                answers[name] = rounds.stake_many(session, round_id=round_id, stakes=stakes)
        except BaseException as exc:  # pragma: no cover - what the test fails on
            errors.append(exc)

    threads = [
        threading.Thread(target=batch, args=("up", users)),
        threading.Thread(target=batch, args=("down", users[::-1])),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    taken = {
        name: {s for s, a in zip(order, got, strict=True) if isinstance(a, wallet.Movement)}
        for (name, got), order in zip(sorted(answers.items()), [users[::-1], users], strict=True)
    }
    assert taken["up"] | taken["down"] == set(users)
    assert taken["up"] & taken["down"] == set()
    with db.session() as session:
        assert {int(wallet.player_balance(session, user_id=u)) for u in users} == {50}
        wallet.check_ledger(session)


def _old_digest(request: dict[str, Any]) -> str:
    """The digest as it was computed when keys were first stored."""
    canonical = json.dumps(request, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text() | st.decimals(allow_nan=False),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=12,
)


@given(request=st.dictionaries(st.text(), _values, max_size=6))
def test_request_digests_are_what_they_were(request: dict[str, Any]) -> None:
    assert wallet.request_hash(request) == _old_digest(request)


def test_a_hold_request_digest_is_pinned() -> None:
    """Digests computed by the code that stored the keys live in databases: these two were
    computed by it (commit 6fbfde9)."""
    hold = wallet.hold_request(
        table="live",
        round_id=7,
        amount=200,
        details={"bets": {"ante": 100, "blind": 100}, "seat": 3},
    )
    assert wallet.request_hash(hold) == (
        "a8d5d7bc1c3b437d7661ca54ff399088b38ed68d8a6c54a6b8faa26cd62a2dba"
    )
    credit = {"op": "credit", "user_id": 5, "amount": 1000, "memo": "dépôt €"}
    assert wallet.request_hash(credit) == (
        "40c412a5695917430a976a446a52725fe9d8829fab88a330527525e33ae0840d"
    )
