"""The owner's check of a gateway's holds (issue 26, defect 3), on each backend, one claim
at a time changed: a claim is believed only when the hold is recorded under that stake's own
key, user, table, round, amount and details, and a hold returned since is said so.

The check looks every claim up in one statement (the stakes' keys with the releases' keys);
these cases pin what it must still tell apart."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest
from sqlalchemy import text

from croupier.server.db import Database
from croupier.server.rounds import store as rounds
from croupier.server.tables import stakes, window
from croupier.server.wallet import service as wallet

HELD, RETURNED, UNKNOWN = window.Verdict.HELD, window.Verdict.RETURNED, window.Verdict.UNKNOWN


def _round(db: Database, table: str) -> int:
    with db.session() as session:
        return rounds.open_round(
            session, table=table, game="uth", commitment="0" * 64, salt="00", deck=""
        ).id


@pytest.fixture
def held(db: Database, make_user: Callable[..., int]) -> tuple[list[window.Claim], int]:
    """Three players' holds at table ``t`` (one of them a decision's, with details), and a
    second round at table ``u``: the claims as a gateway would send them, and that round."""
    users = [make_user(name) for name in ("ann", "bob", "cyd")]
    with db.session() as session:
        for uid in users:
            wallet.credit(session, user_id=uid, amount=10_000, idempotency_key=f"c{uid}")
    round_id, other = _round(db, "t"), _round(db, "u")
    many = [
        rounds.Stake(user_id=users[0], seat=0, amount=300, idempotency_key="ante-0"),
        rounds.Stake(user_id=users[1], seat=1, amount=500, idempotency_key="ante-1"),
        rounds.Stake(
            user_id=users[2],
            seat=2,
            amount=200,
            idempotency_key="play-2",
            details={"decision": "d7", "seat": 2},
        ),
    ]
    answers = stakes.hold(db, round_id=round_id, stakes=many)
    assert all(isinstance(a, wallet.Movement) for a in answers), answers
    claims = [
        window.Claim(round_id, a.transaction_id, s)  # type: ignore[union-attr]
        for a, s in zip(answers, many, strict=True)
    ]
    return claims, other


def test_true_claims_are_held(db: Database, held: tuple[list[window.Claim], int]) -> None:
    claims, _ = held
    assert stakes.verify_holds(db, claims, table="t") == [HELD, HELD, HELD]
    assert stakes.verify_holds(db, [], table="t") == []


def test_every_false_part_of_a_claim_is_unknown(
    db: Database, held: tuple[list[window.Claim], int]
) -> None:
    claims, other = held
    ann, bob, cy = claims
    forged = [
        dataclasses.replace(ann, hold=bob.hold),  # another player's hold
        dataclasses.replace(ann, hold=ann.hold + 1000),  # no such hold
        dataclasses.replace(ann, stake=dataclasses.replace(ann.stake, user_id=bob.stake.user_id)),
        dataclasses.replace(ann, stake=dataclasses.replace(ann.stake, amount=301)),
        dataclasses.replace(ann, stake=dataclasses.replace(ann.stake, idempotency_key="ante-1")),
        dataclasses.replace(ann, round_id=other),  # the same key, another round
        dataclasses.replace(cy, stake=dataclasses.replace(cy.stake, details={"decision": "d8"})),
        dataclasses.replace(cy, stake=dataclasses.replace(cy.stake, details=None)),
        dataclasses.replace(ann, stake=dataclasses.replace(ann.stake, idempotency_key="")),
        dataclasses.replace(ann, stake=dataclasses.replace(ann.stake, idempotency_key="é" * 3)),
    ]
    # Each false claim beside the true ones: one statement answers them all, each its own.
    verdicts = stakes.verify_holds(db, [*forged, *claims], table="t")
    assert verdicts == [UNKNOWN] * len(forged) + [HELD, HELD, HELD]
    # A true claim checked as another table's is not that table's hold.
    assert stakes.verify_holds(db, claims, table="u") == [UNKNOWN] * 3


def test_a_returned_hold_is_returned_and_only_that_one(
    db: Database, held: tuple[list[window.Claim], int]
) -> None:
    claims, _ = held
    released = stakes.release(db, round_id=claims[1].round_id, holds=[claims[1].hold])
    assert [r.hold_id for r in released] == [claims[1].hold]
    assert stakes.verify_holds(db, claims, table="t") == [HELD, RETURNED, HELD]
    # Returned, then claimed by another player: still nobody's but its own.
    thief = dataclasses.replace(claims[0], hold=claims[1].hold)
    assert stakes.verify_holds(db, [thief], table="t") == [UNKNOWN]


def test_the_check_reads_outside_a_transaction_and_leaves_the_pool_transactional(
    db: Database, make_user: Callable[..., int]
) -> None:
    """The check is one statement, read on PostgreSQL without ``BEGIN``/``COMMIT`` (each
    statement its own transaction: two round trips fewer while the owner's table waits);
    the connection goes back to the pool as it came, so a later session's writes are still
    one transaction that an error rolls back whole."""
    same = text("SELECT transaction_timestamp() = statement_timestamp()")
    if db.engine.dialect.name == "postgresql":
        with db.statement() as session:
            assert [session.execute(same).scalar() for _ in range(2)] == [True, True]
        with db.session() as session:  # the control: a transaction began before them
            assert [session.execute(same).scalar() for _ in range(2)] == [False, False]
    uid = make_user("dan")
    with pytest.raises(RuntimeError), db.session() as session:
        wallet.credit(session, user_id=uid, amount=100, idempotency_key="credit-dan")
        raise RuntimeError("after the credit")
    with db.statement() as session:
        assert wallet.player_balance(session, user_id=uid) == 0
