"""Batched stakes (a live table's bets taken together) against the one-at-a-time oracle.

``rounds.stake_many`` must answer and write exactly what ``rounds.stake`` does when the same
stakes are applied one by one, each in its own transaction: the same acceptances, refusals
and replays, the same balances, the same idempotency records, and books that balance.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_testkit import PASSWORD
from sqlalchemy import select

from croupier.errors import CroupierError
from croupier.server.accounts.service import register
from croupier.server.db import Database
from croupier.server.errors import InvalidRequestError
from croupier.server.tables import rounds
from croupier.server.tables.models import RoundPlayer
from croupier.server.wallet import service as wallet
from croupier.server.wallet.models import IdempotencyKey

USERS = 6

# One stake: (user, amount, key, detail); amounts include refused ones (0, negative, too big
# for the balance), keys repeat so earlier stakes are replayed or conflict.
stake = st.tuples(
    st.integers(0, USERS - 1), st.integers(-2, 900), st.integers(0, 3), st.integers(0, 1)
)


def _fresh(tmp: str, name: str, funds: list[int]) -> tuple[Database, list[int], int]:
    db = Database(f"sqlite:///{Path(tmp) / name}")
    db.migrate()
    with db.session() as session:
        users = [register(session, username=f"user{i}", password=PASSWORD).id for i in range(USERS)]
        for user, amount in zip(users, funds, strict=True):
            if amount:
                wallet.credit(session, user_id=user, amount=amount, idempotency_key=f"c{user}")
        round_id = rounds.open_round(
            session, table="t", game="uth", commitment="c", salt="s", deck="d"
        ).id
    return db, users, round_id


def _outcome(answer: Any, *, said: bool = False) -> tuple[Any, ...]:
    """What a stake answered; with ``said``, a refusal's reason and params too (what the
    player is told: the batch must word it as the single stake does)."""
    if isinstance(answer, CroupierError):
        if said:
            return ("refused", type(answer).__name__, answer.reason, answer.params)
        return ("refused", type(answer).__name__)
    return ("held", int(answer.amount), int(answer.balance), answer.replayed)


def _books(db: Database, users: list[int]) -> tuple[Any, ...]:
    with db.session() as session:
        totals = wallet.check_ledger(session)
        balances = [int(wallet.player_balance(session, user_id=u)) for u in users]
        staked = sorted(
            (users.index(p.user_id), p.seat, p.staked) for p in session.scalars(select(RoundPlayer))
        )
        keys = sorted(
            (k.scope, k.key, k.request_hash) for k in session.scalars(select(IdempotencyKey))
        )
    return totals, balances, staked, [(s.split(":")[0], k, h) for s, k, h in keys]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    funds=st.lists(st.integers(0, 2_000), min_size=USERS, max_size=USERS),
    batches=st.lists(
        st.lists(stake, min_size=1, max_size=USERS, unique_by=lambda s: s[0]),
        min_size=1,
        max_size=4,
    ),
)
def test_a_batch_does_what_one_stake_at_a_time_does(
    funds: list[int], batches: list[list[tuple[int, int, int, int]]]
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        batched, users, round_id = _fresh(tmp, "batched.db", funds)
        single, users_1, round_1 = _fresh(tmp, "single.db", funds)
        assert (users, round_id) == (users_1, round_1)
        for batch in batches:
            stakes = [
                rounds.Stake(
                    user_id=users[who],
                    seat=who,
                    amount=amount,
                    idempotency_key=f"k{key}",
                    details={"detail": detail},
                )
                for who, amount, key, detail in batch
            ]
            with batched.session() as session:
                many = rounds.stake_many(session, round_id=round_id, stakes=stakes)
            one_by_one: list[Any] = []
            for s in stakes:
                try:
                    with single.session() as session:
                        one_by_one.append(
                            rounds.stake(
                                session,
                                round_id=round_id,
                                user_id=s.user_id,
                                seat=s.seat,
                                amount=s.amount,
                                idempotency_key=s.idempotency_key,
                                details=s.details,
                            )
                        )
                except CroupierError as exc:
                    one_by_one.append(exc)
            assert [_outcome(a, said=True) for a in many] == [
                _outcome(a, said=True) for a in one_by_one
            ]
        assert _books(batched, users) == _books(single, users)
        batched.dispose()
        single.dispose()


def test_a_user_twice_in_one_batch_is_a_caller_bug(tmp_path: Path) -> None:
    db, users, round_id = _fresh(str(tmp_path), "twice.db", [1_000] * USERS)
    twice = [
        rounds.Stake(user_id=users[0], seat=0, amount=10, idempotency_key=k) for k in ("a", "b")
    ]
    with pytest.raises(InvalidRequestError, match="twice"), db.session() as session:
        rounds.stake_many(session, round_id=round_id, stakes=twice)
    assert _books(db, users)[1] == [1_000] * USERS  # nothing held


def _model(
    funds: list[int], batches: list[list[tuple[int, int, int, int]]]
) -> tuple[list[tuple[Any, ...]], list[int]]:
    """An independent oracle: the rules of a stake written out in plain Python (a refused
    stake changes nothing; a key replayed with the same stake answers what it answered; with
    another stake it is a conflict; a balance never goes below zero)."""
    balances = list(funds)
    applied: dict[tuple[int, int], tuple[int, int, int]] = {}
    outcomes: list[tuple[Any, ...]] = []
    for batch in batches:
        for who, amount, key, detail in batch:
            if amount <= 0:
                outcomes.append(("refused", "InvalidRequestError"))
            elif (who, key) in applied:
                first_amount, first_detail, balance = applied[(who, key)]
                if (first_amount, first_detail) == (amount, detail):
                    outcomes.append(("held", amount, balance, True))
                else:
                    outcomes.append(("refused", "IdempotencyConflict"))
            elif balances[who] < amount:
                outcomes.append(("refused", "InsufficientFunds"))
            else:
                balances[who] -= amount
                applied[(who, key)] = (amount, detail, balances[who])
                outcomes.append(("held", amount, balances[who], False))
    return outcomes, balances


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    funds=st.lists(st.integers(0, 2_000), min_size=USERS, max_size=USERS),
    batches=st.lists(
        st.lists(stake, min_size=1, max_size=USERS, unique_by=lambda s: s[0]),
        min_size=1,
        max_size=4,
    ),
)
def test_batches_follow_the_rules_written_out(
    funds: list[int], batches: list[list[tuple[int, int, int, int]]]
) -> None:
    expected, balances = _model(funds, batches)
    with tempfile.TemporaryDirectory() as tmp:
        db, users, round_id = _fresh(tmp, "model.db", funds)
        answers: list[Any] = []
        for batch in batches:
            stakes = [
                rounds.Stake(
                    user_id=users[who],
                    seat=who,
                    amount=amount,
                    idempotency_key=f"k{key}",
                    details={"detail": detail},
                )
                for who, amount, key, detail in batch
            ]
            with db.session() as session:
                answers += rounds.stake_many(session, round_id=round_id, stakes=stakes)
        assert [_outcome(a) for a in answers] == expected
        assert _books(db, users)[1] == balances
        db.dispose()
