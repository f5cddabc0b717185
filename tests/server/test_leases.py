"""Table leases and fencing tokens in PostgreSQL (issue 18): one owner at a time, and a stale
owner's writes refused by the database itself."""

from __future__ import annotations

import threading
import time

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from croupier.server.cluster import lease as leases
from croupier.server.db import Database
from croupier.server.tables import rounds
from croupier.server.tables.models import Round, RoundStatus
from croupier.server.wallet import service as wallet

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.parametrize("db_url", ["postgres"], indirect=True),
]


def _expire(db: Database, table: str) -> None:
    with db.session() as session:
        session.execute(
            text("UPDATE table_leases SET expires_at = now() - interval '1 second' "
                 "WHERE table_name = :t"),
            {"t": table},
        )  # fmt: skip


def _take(db: Database, table: str, owner: str) -> leases.Lease | None:
    with db.session() as session:
        return leases.acquire(session, table=table, owner=owner, seconds=30)


def test_one_owner_at_a_time_and_the_token_grows_at_each_change(db: Database) -> None:
    first = _take(db, "live", "a")
    assert first is not None and first.token == 1
    assert _take(db, "live", "b") is None  # a live lease is nobody else's
    with db.session() as session:
        renewed = leases.renew(session, lease=first, seconds=30)
    assert renewed is not None and renewed.expires_at >= first.expires_at
    _expire(db, "live")
    second = _take(db, "live", "b")
    assert second is not None and second.token == 2 and second.owner == "b"
    with db.session() as session:
        assert leases.renew(session, lease=first, seconds=30) is None  # a's lease is gone
        assert leases.leases(session)["live"].owner == "b"
    with db.session() as session:
        assert leases.release(session, lease=second)
    third = _take(db, "live", "c")  # released: taken at once
    assert third is not None and third.token == 3


def _open_round(session: Session, table: str) -> int:
    return rounds.open_round(
        session, table=table, game="uth", commitment="c" * 64, salt="s" * 32, deck="As Ks"
    ).id


def test_a_stale_owner_cannot_open_settle_or_void_a_round(db: Database) -> None:
    old = _take(db, "live", "a")
    assert old is not None
    fenced_calls: list[str] = []
    stale = leases.FencedDatabase(
        db, table="live", token=old.token, on_fenced=lambda: fenced_calls.append("x")
    )
    with stale.session() as session:
        round_id = _open_round(session, "live")
    _expire(db, "live")
    new = _take(db, "live", "b")
    assert new is not None
    # The old owner: every transaction refused at the fence, nothing written.
    with (
        pytest.raises(leases.Fenced, match="no longer this server's"),
        stale.session() as session,
    ):
        _open_round(session, "live")
    with pytest.raises(leases.Fenced), stale.session() as session:
        rounds.void_round(session, round_id=round_id, reason="stale")
    assert len(fenced_calls) == 2
    # Code that forgot the fence altogether: the trigger on rounds refuses it.
    with pytest.raises(DBAPIError) as raised, db.session() as session:
        rounds.void_round(session, round_id=round_id, reason="no fence")
    assert leases.is_fenced(raised.value)
    with db.session() as session:
        assert session.scalar(select(func.count()).select_from(Round)) == 1
        assert session.get(Round, round_id).status == RoundStatus.OPEN.value  # type: ignore[union-attr]
    # The new owner voids it.
    current = leases.FencedDatabase(db, table="live", token=new.token, on_fenced=lambda: None)
    with current.session() as session:
        rounds.void_round(session, round_id=round_id, reason="taken over")
    with db.session() as session:
        assert session.get(Round, round_id).status == RoundStatus.VOIDED.value  # type: ignore[union-attr]
        wallet.check_ledger(session)  # raises on an inconsistent ledger


def test_a_takeover_waits_for_the_old_owners_transaction_in_flight(db: Database) -> None:
    """The fence holds the lease row until the transaction ends: a takeover cannot slip in
    between the check and the commit."""
    old = _take(db, "live", "a")
    assert old is not None
    _expire(db, "live")
    fenced = leases.FencedDatabase(db, table="live", token=old.token, on_fenced=lambda: None)
    inside, release = threading.Event(), threading.Event()

    def old_owner() -> None:
        with fenced.session() as session:
            _open_round(session, "live")
            inside.set()
            release.wait(10)

    worker = threading.Thread(target=old_owner)
    worker.start()
    assert inside.wait(10)
    taken: list[leases.Lease | None] = []
    thief = threading.Thread(target=lambda: taken.append(_take(db, "live", "b")))
    thief.start()
    time.sleep(0.5)
    assert not taken and thief.is_alive()  # waiting for the old owner's transaction
    release.set()
    worker.join(10)
    thief.join(10)
    assert taken and taken[0] is not None and taken[0].token == 2
    with db.session() as session:  # the old owner's round committed before the change
        assert session.scalar(select(func.count()).select_from(Round)) == 1


def test_a_table_without_a_lease_is_not_fenced(db: Database) -> None:
    """One process (no lease rows): rounds are written as before."""
    with db.session() as session:
        round_id = _open_round(session, "casino")
        rounds.void_round(session, round_id=round_id, reason="test")
