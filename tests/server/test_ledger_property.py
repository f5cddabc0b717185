"""Property: whatever sequence of movements is asked for, the books balance.

Random credits, debits, stakes, settlements and voids (many of them refused: overdrafts,
replayed keys, closed rounds) are applied to one database; after each step the ledger checks
out and the money inside equals deposits minus withdrawals, tracked independently here.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_testkit import PASSWORD

from croupier.errors import CroupierError
from croupier.server.accounts.service import register
from croupier.server.db import Database
from croupier.server.tables import rounds
from croupier.server.wallet import service as wallet

USERS = 3
step = st.one_of(
    st.tuples(
        st.just("credit"), st.integers(0, USERS - 1), st.integers(-5, 5_000), st.integers(0, 6)
    ),
    st.tuples(
        st.just("debit"), st.integers(0, USERS - 1), st.integers(-5, 5_000), st.integers(0, 6)
    ),
    st.tuples(
        st.just("stake"), st.integers(0, USERS - 1), st.integers(-5, 3_000), st.integers(0, 6)
    ),
    st.tuples(st.just("settle"), st.integers(0, 3), st.integers(0, 20_000), st.integers(0, 6)),
    st.tuples(st.just("void"), st.integers(0, 3), st.integers(0, 0), st.integers(0, 6)),
    st.tuples(st.just("open"), st.integers(0, 0), st.integers(0, 0), st.integers(0, 0)),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(step, min_size=1, max_size=30))
def test_any_sequence_of_movements_keeps_the_books(steps: list[tuple[str, int, int, int]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Database(f"sqlite:///{Path(tmp) / 'p.db'}")
        db.migrate()
        with db.session() as session:
            users = [
                register(session, username=f"user{i}", password=PASSWORD).id for i in range(USERS)
            ]
        round_ids: list[int] = []
        deposits = withdrawals = 0
        for n, (kind, who, amount, key) in enumerate(steps):
            try:
                with db.session() as session:
                    if kind == "open":
                        round_ids.append(
                            rounds.open_round(
                                session, table="t", game="uth", commitment="c", salt="s", deck="d"
                            ).id
                        )
                    elif kind == "credit":
                        move = wallet.credit(
                            session, user_id=users[who], amount=amount, idempotency_key=f"c{key}"
                        )
                        deposits += 0 if move.replayed else amount
                    elif kind == "debit":
                        move = wallet.debit(
                            session, user_id=users[who], amount=amount, idempotency_key=f"d{key}"
                        )
                        withdrawals += 0 if move.replayed else amount
                    elif kind == "stake" and round_ids:
                        rounds.stake(
                            session,
                            round_id=round_ids[-1],
                            user_id=users[who],
                            seat=who,
                            amount=amount,
                            idempotency_key=f"s{key}",
                        )
                    elif kind == "settle" and round_ids:
                        round_id = round_ids[who % len(round_ids)]
                        held = wallet.held_in_round(session, round_id=round_id)
                        # Pay the first staker ``amount``, the others nothing.
                        returns = {u: (amount if i == 0 else 0) for i, u in enumerate(sorted(held))}
                        rounds.settle_round(
                            session, round_id=round_id, returns=returns, record={}, summary={}
                        )
                    elif kind == "void" and round_ids:
                        rounds.void_round(
                            session, round_id=round_ids[who % len(round_ids)], reason=f"step {n}"
                        )
            except CroupierError:
                pass  # refused: nothing may have changed, which the checks below prove
            with db.session() as session:
                totals = wallet.check_ledger(session)
            inside = sum(v for k, v in totals.items() if k != "cashier")
            assert inside == deposits - withdrawals == -totals.get("cashier", 0)
        with db.session() as session:
            rounds.recover_open_rounds(session)
            assert wallet.check_ledger(session).get("escrow", 0) == 0
        db.dispose()
