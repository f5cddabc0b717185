"""A table's escrow credit waits for the commit (:mod:`croupier.server.wallet.ledger`,
``post_many(..., defer=...)``): batches of holds at one table, in concurrent transactions (a
cluster's gateways), wait on the escrow's row for each other's commit only, and the ledger is
exactly what posting at once would have made it -- committed, rolled back, or moved again in
the same transaction."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from croupier.server.db import Database
from croupier.server.tables import rounds
from croupier.server.wallet import service as wallet

BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


def _funded(db: Database, make_user: Any, n: int) -> list[int]:
    users = [make_user(f"waiting{i:02d}") for i in range(n)]
    with db.session() as session:
        for user in users:
            wallet.credit(session, user_id=user, amount=1_000, idempotency_key=f"d{user}")
    return users


def _round(db: Database) -> int:
    with db.session() as session:
        wallet.escrow_account(session, table="live")  # the table's, made at its first stake
        row = rounds.open_round(
            session, table="live", game="uth", commitment="c", salt="s", deck="d"
        )
        return row.id


def _holds(users: list[int], key: str = "k") -> list[wallet.HoldRequest]:
    return [wallet.HoldRequest(user_id=u, amount=100, idempotency_key=key) for u in users]


def _escrow(db: Database) -> int:
    with db.session() as session:
        return int(wallet.escrow_account(session, table="live").balance)


@pytest.mark.parametrize("db_url", BACKENDS, indirect=True)
def test_a_rolled_back_transaction_leaves_no_credit_waiting(db: Database, make_user: Any) -> None:
    users = _funded(db, make_user, 2)
    round_id = _round(db)
    with db.sessions() as session:
        with pytest.raises(RuntimeError), session.begin():
            wallet.hold_many(session, table="live", round_id=round_id, requests=_holds(users))
            raise RuntimeError("the caller failed after the holds")
        # The same session's next transaction does not carry the first one's credit.
        with session.begin():
            wallet.hold_many(session, table="live", round_id=round_id, requests=_holds(users[:1]))
    assert _escrow(db) == 100
    with db.session() as session:
        totals = wallet.check_ledger(session)
    assert totals["escrow"] == 100 and totals["player"] == 1_900


@pytest.mark.parametrize("db_url", BACKENDS, indirect=True)
def test_a_release_in_the_same_transaction_takes_the_waiting_credit_with_it(
    db: Database, make_user: Any
) -> None:
    """The escrow holds nothing committed; a release of a stake just held would overdraw it
    if the waiting credit did not go first."""
    users = _funded(db, make_user, 2)
    round_id = _round(db)
    with db.session() as session:
        held = wallet.hold_many(session, table="live", round_id=round_id, requests=_holds(users))
        ids = [h.transaction_id for h in held if isinstance(h, wallet.Movement)]
        released = wallet.release_holds(session, table="live", round_id=round_id, holds=ids[:1])
        assert [r.user_id for r in released] == users[:1]
    assert _escrow(db) == 100
    with db.session() as session:
        assert wallet.check_ledger(session)["escrow"] == 100


@pytest.mark.parametrize(
    "db_url", [pytest.param("postgres", marks=pytest.mark.postgres)], indirect=True
)
def test_holds_at_one_table_do_not_wait_for_each_others_transactions(
    db: Database, make_user: Any
) -> None:
    """Two gateways' batches at one table: the second commits while the first, its holds
    written, is still open (before, it waited on the escrow's row for the first's commit)."""
    users = _funded(db, make_user, 4)
    round_id = _round(db)
    first_held = threading.Event()
    second_done = threading.Event()
    seen: list[bool] = []

    def first() -> None:
        with db.session() as session:
            wallet.hold_many(session, table="live", round_id=round_id, requests=_holds(users[:2]))
            first_held.set()
            seen.append(second_done.wait(10))  # still open until the second is done

    def second() -> None:
        first_held.wait(10)
        with db.session() as session:
            wallet.hold_many(session, table="live", round_id=round_id, requests=_holds(users[2:]))
        second_done.set()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert seen == [True]
    assert _escrow(db) == 400
    with db.session() as session:
        totals = wallet.check_ledger(session)
    assert totals["escrow"] == 400 and totals["player"] == 3_600
