"""A balance read sees one snapshot of the ledger (found by a flaky cluster test): on
PostgreSQL each statement of a transaction sees what had committed when it began, and
``account_balance`` read the cached balance and the postings in two statements, so a transfer
committed between them made a consistent ledger look broken -- a player's balance read was
answered ``ledger_invariant``. The read now takes both in one statement."""

from __future__ import annotations

from typing import Any

import pytest

from croupier.server.db import Database
from croupier.server.wallet import service as wallet

# SQLite has one writer, whose transaction a read holds: no commit can come between.
pytestmark = [
    pytest.mark.postgres,
    pytest.mark.parametrize("db_url", ["postgres"], indirect=True),
]


def _credit_after(db: Database, reader: Any, user: int, statements: int) -> list[int]:
    """Make ``reader`` commit a credit of 500 to ``user`` in another transaction right after
    its ``statements``-th statement; the list counts the statements it ran."""
    ran = [0]

    def wrap(method: Any) -> Any:
        def run(*args: Any, **kwargs: Any) -> Any:
            answer = method(*args, **kwargs)
            ran[0] += 1
            if ran[0] == statements:
                with db.session() as other:
                    wallet.credit(other, user_id=user, amount=500, idempotency_key="more")
            return answer

        return run

    for name in ("scalar", "scalars", "execute"):
        setattr(reader, name, wrap(getattr(reader, name)))
    return ran


def test_a_balance_read_while_a_credit_commits_sees_one_snapshot(
    db: Database, make_user: Any
) -> None:
    user = make_user("ann")
    with db.session() as session:
        wallet.credit(session, user_id=user, amount=1_000, idempotency_key="first")
        account = wallet.player_account(session, user_id=user).id
    with db.session() as reader:
        ran = _credit_after(db, reader, user, 1)  # between the read's statements
        balance = wallet.account_balance(reader, account_id=account)
    assert ran[0] >= 1
    assert balance in (1_000, 1_500)
    with db.session() as session:
        assert wallet.account_balance(session, account_id=account) == 1_500
        wallet.check_ledger(session)


def test_the_whole_ledgers_check_while_a_credit_commits_sees_one_snapshot(
    db: Database, make_user: Any
) -> None:
    """The operator's check of the whole ledger, the same way: it read the postings' sums and
    the accounts' cached balances in two statements."""
    user = make_user("bea")
    with db.session() as session:
        wallet.credit(session, user_id=user, amount=1_000, idempotency_key="first")
    with db.session() as reader:
        ran = _credit_after(db, reader, user, 2)  # after the transactions' sums
        totals = wallet.check_ledger(reader)
    assert ran[0] >= 2
    assert totals["player"] in (1_000, 1_500)
    with db.session() as session:
        assert wallet.check_ledger(session)["player"] == 1_500
