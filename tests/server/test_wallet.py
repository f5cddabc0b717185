"""Ledger services on SQLite and PostgreSQL: balances, idempotency, holds, settlement, voids."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from sqlalchemy import func, select

from croupier.errors import InsufficientFunds
from croupier.server.db import Database
from croupier.server.errors import (
    ConflictError,
    IdempotencyConflict,
    InvalidRequestError,
    LedgerInvariantError,
    NotFoundError,
)
from croupier.server.tables import rounds
from croupier.server.tables.models import Round, RoundPlayer, RoundStatus, RoundVoid
from croupier.server.wallet import service as wallet
from croupier.server.wallet.models import LedgerAccount, LedgerTransaction, Posting, TransactionKind

UserFactory = Callable[..., int]


def _count(db: Database, model: type[object]) -> int:
    with db.session() as session:
        return int(session.scalar(select(func.count()).select_from(model)) or 0)


def _balance(db: Database, user_id: int) -> int:
    with db.session() as session:
        return wallet.player_balance(session, user_id=user_id)


def _credit(db: Database, user_id: int, amount: int, key: str) -> wallet.Movement:
    with db.session() as session:
        return wallet.credit(session, user_id=user_id, amount=amount, idempotency_key=key)


def _open(db: Database, table: str = "t1") -> int:
    with db.session() as session:
        return rounds.open_round(
            session, table=table, game="uth", commitment="c" * 64, salt="s", deck="d"
        ).id


def _stake(db: Database, round_id: int, user: int, amount: int, key: str) -> wallet.Movement:
    with db.session() as session:
        return rounds.stake(
            session, round_id=round_id, user_id=user, seat=0, amount=amount, idempotency_key=key
        )


def test_new_player_has_an_empty_balanced_wallet(db: Database, make_user: UserFactory) -> None:
    alice = make_user("alice")
    assert _balance(db, alice) == 0
    with db.session() as session:
        assert wallet.check_ledger(session) == {"player": 0}


def test_credit_and_debit_move_money_through_the_cashier(
    db: Database, make_user: UserFactory
) -> None:
    alice = make_user("alice")
    move = _credit(db, alice, 10_000, "dep-1")
    assert (move.amount, move.balance, move.replayed) == (10_000, 10_000, False)
    with db.session() as session:
        out = wallet.debit(session, user_id=alice, amount=2_500, idempotency_key="wd-1")
    assert out.balance == 7_500
    with db.session() as session:
        totals = wallet.check_ledger(session)
    # Money inside the system is exactly deposits minus withdrawals, held against the cashier.
    assert totals == {"player": 7_500, "cashier": -7_500}


def test_a_replayed_key_applies_once(db: Database, make_user: UserFactory) -> None:
    alice = make_user("alice")
    first = _credit(db, alice, 500, "k")
    again = _credit(db, alice, 500, "k")
    assert again.replayed and again.transaction_id == first.transaction_id
    assert _balance(db, alice) == 500
    assert _count(db, LedgerTransaction) == 1


def test_a_key_replayed_with_another_body_is_refused(db: Database, make_user: UserFactory) -> None:
    alice = make_user("alice")
    _credit(db, alice, 500, "k")
    with pytest.raises(IdempotencyConflict, match="different request"):
        _credit(db, alice, 501, "k")
    with pytest.raises(IdempotencyConflict), db.session() as session:
        wallet.debit(session, user_id=alice, amount=500, idempotency_key="k")
    assert _balance(db, alice) == 500
    assert _count(db, LedgerTransaction) == 1


def test_an_overdraft_is_refused_and_changes_nothing(db: Database, make_user: UserFactory) -> None:
    alice = make_user("alice")
    _credit(db, alice, 100, "dep")
    with pytest.raises(InsufficientFunds, match="cannot pay 101"), db.session() as session:
        wallet.debit(session, user_id=alice, amount=101, idempotency_key="wd")
    assert _balance(db, alice) == 100
    assert _count(db, LedgerTransaction) == 1
    # The failed request did not burn its key: the corrected retry applies.
    with db.session() as session:
        assert wallet.debit(session, user_id=alice, amount=100, idempotency_key="wd").balance == 0


@pytest.mark.parametrize(
    ("amount", "message"),
    [
        (0, "not positive"),
        (-5, "not positive"),
        (10**12 + 1, "above the maximum"),
        (2**70, "above the maximum"),
        (1.5, "not a whole number"),
        (10.0, "not a whole number"),
        ("10", "not a whole number"),
        (True, "not a whole number"),
        (None, "not a whole number"),
    ],
)
def test_bad_amounts_are_refused(
    db: Database, make_user: UserFactory, amount: object, message: str
) -> None:
    alice = make_user("alice")
    with pytest.raises(InvalidRequestError, match=message), db.session() as session:
        wallet.credit(session, user_id=alice, amount=amount, idempotency_key="k")  # type: ignore[arg-type]
    assert _count(db, LedgerTransaction) == 0
    assert _balance(db, alice) == 0


@pytest.mark.parametrize("key", ["", "x" * 129, "caf\u00e9", "tab\there", 7])
def test_bad_idempotency_keys_are_refused(
    db: Database, make_user: UserFactory, key: object
) -> None:
    alice = make_user("alice")
    with pytest.raises(InvalidRequestError, match="idempotency key"), db.session() as session:
        wallet.credit(session, user_id=alice, amount=5, idempotency_key=key)  # type: ignore[arg-type]
    assert _count(db, LedgerTransaction) == 0


def test_unknown_user_is_not_found(db: Database) -> None:
    with pytest.raises(NotFoundError, match="user 999"), db.session() as session:
        wallet.credit(session, user_id=999, amount=5, idempotency_key="k")
    assert _count(db, LedgerAccount) == 0 or _count(db, LedgerTransaction) == 0


def test_hold_and_settle_a_winning_and_a_losing_player(
    db: Database, make_user: UserFactory
) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    _credit(db, alice, 1_000, "a")
    _credit(db, bob, 1_000, "b")
    round_id = _open(db)
    assert _stake(db, round_id, alice, 300, "bet-1").balance == 700
    assert _stake(db, round_id, bob, 200, "bet-1").balance == 800  # keys are per user
    with db.session() as session:
        assert wallet.held_in_round(session, round_id=round_id) == {alice: 300, bob: 200}
        assert wallet.check_ledger(session)["escrow"] == 500
    with db.session() as session:
        rounds.settle_round(
            session,
            round_id=round_id,
            returns={alice: 750, bob: 0},
            record={"r": 1},
            summary={"s": 1},
        )
    assert (_balance(db, alice), _balance(db, bob)) == (1_450, 800)
    with db.session() as session:
        totals = wallet.check_ledger(session)
        assert totals == {"player": 2_250, "cashier": -2_000, "escrow": 0, "house": -250}
        row = session.get(Round, round_id)
        assert row is not None and row.status == RoundStatus.SETTLED.value


def test_a_stake_larger_than_the_balance_is_refused(db: Database, make_user: UserFactory) -> None:
    alice = make_user("alice")
    _credit(db, alice, 100, "a")
    round_id = _open(db)
    with pytest.raises(InsufficientFunds):
        _stake(db, round_id, alice, 101, "bet")
    with db.session() as session:
        assert wallet.held_in_round(session, round_id=round_id) == {}
    assert _balance(db, alice) == 100


def test_replayed_stake_is_held_once(db: Database, make_user: UserFactory) -> None:
    alice = make_user("alice")
    _credit(db, alice, 1_000, "a")
    round_id = _open(db)
    _stake(db, round_id, alice, 100, "bet")
    assert _stake(db, round_id, alice, 100, "bet").replayed
    with pytest.raises(IdempotencyConflict):
        _stake(db, round_id, alice, 200, "bet")
    assert _balance(db, alice) == 900


def _returned(db: Database, round_id: int) -> dict[int, int | None]:
    with db.session() as session:
        players = session.scalars(select(RoundPlayer).where(RoundPlayer.round_id == round_id))
        return {p.user_id: p.returned for p in players}


@pytest.mark.parametrize("in_most", [900, 2])
def test_a_settlement_records_what_each_player_got_back(
    db: Database, make_user: UserFactory, monkeypatch: pytest.MonkeyPatch, in_most: int
) -> None:
    """Each player's return, shared amounts and distinct ones, 0 for a loss (statements per
    amount, in chunks of ``IN_MOST`` ids); another round's players untouched; a player's row
    loaded in the settling session reads the new value."""
    monkeypatch.setattr(rounds, "IN_MOST", in_most)
    users = [make_user(name) for name in ("alice", "bob", "carol", "dave", "erin")]
    for i, user in enumerate(users):
        _credit(db, user, 1_000, f"d{i}")
    round_id, other = _open(db), _open(db, "t2")
    for i, user in enumerate(users):
        _stake(db, round_id, user, 100 + i, "bet")
    _stake(db, other, users[0], 50, "other")
    alice, bob, carol, dave, erin = users
    returns = {alice: 750, bob: 0, carol: 750, dave: 303, erin: 750}
    with db.session() as session:
        loaded = session.scalars(
            select(RoundPlayer).where(RoundPlayer.round_id == round_id, RoundPlayer.user_id == dave)
        ).one()
        assert loaded.returned is None
        rounds.settle_round(session, round_id=round_id, returns=returns, record={}, summary={})
        assert loaded.returned == 303
    assert _returned(db, round_id) == returns
    assert _returned(db, other) == {alice: None}


def test_void_returns_every_stake_and_is_recorded(db: Database, make_user: UserFactory) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    _credit(db, alice, 1_000, "a")
    _credit(db, bob, 1_000, "b")
    round_id = _open(db)
    _stake(db, round_id, alice, 300, "x")
    _stake(db, round_id, alice, 100, "y")
    _stake(db, round_id, bob, 50, "x")
    with db.session() as session:
        rounds.void_round(session, round_id=round_id, reason="shuffler fault")
    assert (_balance(db, alice), _balance(db, bob)) == (1_000, 1_000)
    assert _returned(db, round_id) == {alice: 400, bob: 50}  # each stake, recorded returned
    with db.session() as session:
        void = session.scalars(select(RoundVoid)).one()
        assert void.reason == "shuffler fault" and void.transaction_id is not None
        assert wallet.check_ledger(session)["escrow"] == 0


def test_a_round_closes_once(db: Database, make_user: UserFactory) -> None:
    alice = make_user("alice")
    _credit(db, alice, 1_000, "a")
    round_id = _open(db)
    _stake(db, round_id, alice, 100, "x")
    with db.session() as session:
        rounds.settle_round(session, round_id=round_id, returns={alice: 0}, record={}, summary={})
    with pytest.raises(ConflictError, match="settled, not open"), db.session() as session:
        rounds.settle_round(session, round_id=round_id, returns={alice: 200}, record={}, summary={})
    with pytest.raises(ConflictError), db.session() as session:
        rounds.void_round(session, round_id=round_id, reason="late")
    with pytest.raises(ConflictError), db.session() as session:
        rounds.stake(
            session, round_id=round_id, user_id=alice, seat=0, amount=5, idempotency_key="z"
        )
    assert _balance(db, alice) == 900


def test_settling_a_user_who_did_not_stake_is_refused(db: Database, make_user: UserFactory) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    _credit(db, alice, 1_000, "a")
    round_id = _open(db)
    _stake(db, round_id, alice, 100, "x")
    with pytest.raises(LedgerInvariantError), db.session() as session:
        rounds.settle_round(session, round_id=round_id, returns={bob: 100}, record={}, summary={})
    with db.session() as session:
        row = session.get(Round, round_id)
        assert row is not None and row.status == RoundStatus.OPEN.value


def test_recovery_voids_open_rounds_and_returns_the_escrow(
    db: Database, make_user: UserFactory
) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    _credit(db, alice, 1_000, "a")
    _credit(db, bob, 1_000, "b")
    settled, open_a, open_b = _open(db), _open(db), _open(db, "t2")
    _stake(db, settled, alice, 100, "1")
    with db.session() as session:
        rounds.settle_round(session, round_id=settled, returns={alice: 200}, record={}, summary={})
    _stake(db, open_a, alice, 100, "2")
    _stake(db, open_a, bob, 400, "2")
    _stake(db, open_b, bob, 30, "3")
    with db.session() as session:
        assert rounds.recover_open_rounds(session) == [open_a, open_b]
    with db.session() as session:
        assert rounds.recover_open_rounds(session) == []
        totals = wallet.check_ledger(session)
    assert (_balance(db, alice), _balance(db, bob)) == (1_100, 1_000)
    assert totals["escrow"] == 0
    assert totals["player"] == 2_100 == -totals["cashier"] + 100


def test_unbalanced_postings_are_a_bug_not_a_movement(db: Database, make_user: UserFactory) -> None:
    alice = make_user("alice")
    with pytest.raises(LedgerInvariantError, match="unbalanced"), db.session() as session:
        account = wallet.player_account(session, user_id=alice)
        wallet.post(session, kind=TransactionKind.TRANSFER, legs=[(account, 5)])
    assert _count(db, Posting) == 0


def test_check_ledger_detects_a_tampered_balance(db: Database, make_user: UserFactory) -> None:
    alice = make_user("alice")
    _credit(db, alice, 100, "a")
    with db.session() as session:
        account = wallet.player_account(session, user_id=alice)
        account.balance = 1_000_000
    with pytest.raises(LedgerInvariantError, match="caches 1000000"), db.session() as session:
        wallet.check_ledger(session)
    with pytest.raises(LedgerInvariantError), db.session() as session:
        wallet.player_balance(session, user_id=alice)


def test_concurrent_debits_never_overdraw(db: Database, make_user: UserFactory) -> None:
    alice = make_user("alice")
    _credit(db, alice, 100, "a")
    outcomes: list[str] = []

    def withdraw(i: int) -> None:
        try:
            with db.session() as session:
                wallet.debit(session, user_id=alice, amount=30, idempotency_key=f"w{i}")
            outcomes.append("ok")
        except InsufficientFunds:
            outcomes.append("refused")

    threads = [threading.Thread(target=withdraw, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["ok"] * 3 + ["refused"] * 5
    assert _balance(db, alice) == 10


def test_concurrent_replays_of_one_key_apply_once(db: Database, make_user: UserFactory) -> None:
    alice = make_user("alice")
    results: list[wallet.Movement] = []

    def deposit() -> None:
        results.append(_credit(db, alice, 250, "same-key"))

    threads = [threading.Thread(target=deposit) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 6
    assert sum(not r.replayed for r in results) == 1
    assert len({r.transaction_id for r in results}) == 1
    assert _balance(db, alice) == 250


def test_an_overdraft_of_a_balance_its_caller_checked_is_a_bug_and_writes_nothing(
    db: Database, make_user: UserFactory
) -> None:
    """``post_many(checked=...)`` skips the lock and the savepoint for accounts the caller
    locked and checked: if one would still go negative, that is a bug, raised, and the
    caller's transaction rolls back whole."""
    from croupier.server.wallet.ledger import Entry, post_many

    alice = make_user("alice")
    _credit(db, alice, 100, "a")
    with pytest.raises(LedgerInvariantError, match="checked"), db.session() as session:
        player = wallet.player_account(session, user_id=alice)
        escrow = wallet.escrow_account(session, table="t1")
        entry = Entry(
            kind=TransactionKind.HOLD, legs=[(player.id, -200), (escrow.id, 200)], user_id=alice
        )
        post_many(session, [entry], defer=escrow.id, checked=[player.id])
    assert _balance(db, alice) == 100
    with db.session() as session:
        assert wallet.check_ledger(session).get("escrow", 0) == 0
        kinds = session.scalars(select(LedgerTransaction.kind))
        assert TransactionKind.HOLD.value not in set(kinds)
