"""A cluster's banked table records its next round before anyone bets, for its gateways to
hold the first bets too (issue 18; :mod:`croupier.server.tables.nextround`). Driven directly:
the gateway's part is a hold taken in the database (:func:`.window.hold_in_window`) and the
bet it sends with that hold (:class:`.connection.Prepaid`)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from server_testkit import test_tables

from croupier.server.db import Database
from croupier.server.rng import live_shoe
from croupier.server.tables import rounds, window
from croupier.server.tables.clock import ManualClock
from croupier.server.tables.connection import GatewayLost, Prepaid, Request
from croupier.server.tables.fairness import commit
from croupier.server.tables.models import Round, RoundVoid
from croupier.server.tables.protocol import BetMessage, JoinMessage, PingMessage
from croupier.server.tables.stats import operator_stats
from croupier.server.tables.table import Connection, Table
from croupier.server.tables.uth import UthFactory
from croupier.server.tables.wire import as_json
from croupier.server.wallet import service as wallet

UserFactory = Callable[..., int]
BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


def _hold(db: Database, user: int, seat: int, key: str) -> Prepaid:
    """What a gateway does with a bet of an Ante of 100 (its stake, 200, with the Blind)."""
    stake = rounds.Stake(
        user_id=user,
        seat=seat,
        amount=200,
        idempotency_key=key,
        details={"bets": {"ante": 100}, "seat": seat},
    )
    with db.session() as session:
        round_id, (answer,) = window.hold_in_window(session, table="live", stakes=[stake])
    assert round_id is not None and isinstance(answer, wallet.Movement), answer
    return Prepaid.of(round_id, answer, seat=seat)


async def _send(table: Table, conn: Connection, key: str, paid: Prepaid) -> dict[str, Any]:
    """The bet a gateway sends with its hold; the table's answer to it."""
    done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    message = BetMessage(key=key, bets={"ante": 100})
    await table.core.inbox.put(Request(conn, message, done, paid))
    await done
    answers = []
    while not conn.outbox.empty():
        frame = conn.outbox.get_nowait()
        if frame is not None:
            answers.append(as_json(frame))
    return [f for f in answers if f["type"] in ("ack", "error")][-1]


def _balance(db: Database, user: int) -> int:
    with db.session() as session:
        return int(wallet.player_balance(session, user_id=user))


def _row(db: Database, round_id: int) -> tuple[str, bool, str, str, str]:
    with db.session() as session:
        row = session.get(Round, round_id)
        assert row is not None
        return row.status, row.betting_open, row.commitment, row.salt, row.deck


@pytest.mark.parametrize("db_url", BACKENDS, indirect=True)
def test_the_next_round_is_recorded_before_any_bet_and_played_from_a_gateways_hold(
    db: Database, make_user: UserFactory
) -> None:
    users = [make_user(f"nextround{i}") for i in range(2)]
    with db.session() as session:
        for user in users:
            wallet.credit(session, user_id=user, amount=10_000, idempotency_key=f"d{user}")
    config = next(c for c in test_tables() if c.name == "live")  # betting 10 s, decisions 20 s
    clock = ManualClock()

    async def scenario() -> tuple[int, int]:
        table = Table(  # a cluster's table
            config, UthFactory(config), db=db, clock=clock, shoe_factory=live_shoe, windowed=True
        )
        table.start()
        conns = [table.connect(user_id=u, username=f"u{u}") for u in users]
        for conn in conns:
            await table.submit(conn, JoinMessage())
        ready = table.driver.next.ready  # type: ignore[attr-defined]
        assert ready is not None and table.status == "idle"
        first = ready.round_id
        # Open for bets, with no deck yet (none is shuffled before a bet needs one).
        assert _row(db, first) == ("open", True, "", "", "")
        # A hold for a seat the player no longer has: refused, its stake back at once, and
        # its resend (the same hold, replayed) refused too; the round is still not in play.
        stale = _hold(db, users[0], 5, "stale")
        assert _balance(db, users[0]) == 9_800
        refused = await _send(table, conns[0], "stale", stale)
        assert refused["type"] == "error" and refused["reason"] == "not_your_seat", refused
        assert _balance(db, users[0]) == 10_000 and table.status == "idle"
        resent = _hold(db, users[0], 5, "stale")
        assert resent.replayed and resent.transaction_id == stale.transaction_id
        again = await _send(table, conns[0], "stale", resent)
        assert again["reason"] == "idempotency_conflict", again
        # The first bet placed puts the round in play: its deck is recorded, then published.
        placed = await _send(table, conns[1], "b", _hold(db, users[1], 1, "b"))
        assert placed["type"] == "ack" and placed["result"]["round_id"] == first, placed
        assert table.status == "betting" and table.driver.next.ready is None  # type: ignore[attr-defined]
        status, betting, commitment, salt, deck = _row(db, first)
        assert (status, betting) == ("open", True)
        assert commitment == commit(salt=salt, deck=deck) == table.core.commitment
        # What was refused before the round was in play stays refused in it.
        late = await _send(table, conns[0], "stale", resent)
        assert late["reason"] == "idempotency_conflict", late
        # Betting, then three decision phases, time out: the clock moves 20 s at a time until
        # the round is settled and the next one recorded (on a loaded machine a phase's
        # writes may outlast a fixed pause, and an advance made before its timer is set is
        # lost: four advances 50 ms apart left the round unfinished once, at 37880cd).
        for _ in range(200):
            if table.rounds_played == 1 and table.driver.next.ready is not None:  # type: ignore[attr-defined]
                break
            clock.advance(20)
            await asyncio.sleep(0.05)
        second = table.driver.next.ready.round_id  # type: ignore[attr-defined]
        await table.stop()
        return first, second

    first, second = asyncio.run(scenario())
    assert second > first
    assert _row(db, first)[0] == "settled"
    # The round recorded for the next bets, never played: voided when the table stopped.
    assert _row(db, second)[0] == "voided"
    with db.session() as session:
        reason = session.query(RoundVoid.reason).filter(RoundVoid.round_id == second).scalar()
        totals = wallet.check_ledger(session)
    assert reason is not None and reason.startswith("never played")
    # An operator's figures count the round played, not the one never dealt.
    with db.session() as session:
        (live,) = operator_stats(session)["tables"]
    assert (live["rounds"], live["voided"], live["open"]) == (1, 0, 0)
    assert totals["escrow"] == 0
    assert totals["player"] + totals.get("house", 0) == 20_000
    assert _balance(db, users[0]) == 10_000


@pytest.mark.parametrize("db_url", BACKENDS, indirect=True)
def test_a_dead_gateways_stake_in_the_next_round_is_returned(
    db: Database, make_user: UserFactory
) -> None:
    """A gateway that held a stake for the round recorded and died before sending the bet:
    told of it (its heartbeat stopped), the table voids that round, which no bet put in
    play, returning the stake, and records a new one. With no stake held, nothing changes."""
    (user,) = [make_user("orphaned")]
    with db.session() as session:
        wallet.credit(session, user_id=user, amount=10_000, idempotency_key="d")
    config = next(c for c in test_tables() if c.name == "live")

    async def scenario() -> tuple[int, int, int]:
        table = Table(
            config,
            UthFactory(config),
            db=db,
            clock=ManualClock(),
            shoe_factory=live_shoe,
            windowed=True,
        )
        table.start()
        conn = table.connect(user_id=user, username="orphaned")
        await table.submit(conn, JoinMessage())
        first = table.driver.next.ready.round_id  # type: ignore[attr-defined]
        await _lost(table, conn)
        unchanged = table.driver.next.ready.round_id  # type: ignore[attr-defined]
        _hold(db, user, 0, "never-sent")
        assert _balance(db, user) == 9_800
        await _lost(table, conn)
        second = table.driver.next.ready.round_id  # type: ignore[attr-defined]
        await table.stop()
        return first, unchanged, second

    first, unchanged, second = asyncio.run(scenario())
    assert unchanged == first  # nothing was held: the round stays
    assert second > first and _row(db, first)[0] == "voided"
    assert _balance(db, user) == 10_000
    with db.session() as session:
        assert wallet.check_ledger(session)["escrow"] == 0


async def _lost(table: Table, conn: Connection) -> None:
    """A gateway's heartbeat stopped: the table is told, and has handled it (a ping queued
    after it is answered)."""
    await table.core.inbox.put(GatewayLost("gateway-2"))
    await table.submit(conn, PingMessage())
