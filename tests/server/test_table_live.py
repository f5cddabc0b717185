"""A live UTH table driven directly (no sockets): hundreds of players on one dealer hand."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import func, select

from croupier.server.db import Database
from croupier.server.rng import live_shoe
from croupier.server.tables.clock import ManualClock
from croupier.server.tables.config import TableConfig
from croupier.server.tables.models import RoundPlayer
from croupier.server.tables.protocol import ActMessage, BetMessage, JoinMessage
from croupier.server.tables.table import Connection, Table
from croupier.server.tables.uth import UthFactory
from croupier.server.wallet import service as wallet

UserFactory = Callable[..., int]
PLAYERS = 240


def _drain(conn: Connection) -> list[dict[str, Any]]:
    frames = []
    while not conn.outbox.empty():
        frame = conn.outbox.get_nowait()
        if frame is not None:
            frames.append(frame)
    return frames


async def _settle_down(table: Table, *, rounds: int) -> None:
    for _ in range(2_000):
        if table.rounds_played >= rounds and table.status == "idle":
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"table stuck in {table.status}")


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_hundreds_of_players_share_one_dealer_hand(db: Database, make_user: UserFactory) -> None:
    users = [make_user(f"player{i:03d}") for i in range(PLAYERS)]
    with db.session() as session:
        for user in users:
            wallet.credit(session, user_id=user, amount=10_000, idempotency_key=f"d{user}")
    config = TableConfig(
        name="live",
        game="uth",
        betting_seconds=10,
        decision_seconds=20,
        pause_seconds=0,
        rules={"shared_hand": True},
    )
    clock = ManualClock()

    async def scenario() -> list[list[dict[str, Any]]]:
        table = Table(config, UthFactory(config), db=db, clock=clock, shoe_factory=live_shoe)
        table.start()
        conns = [table.connect(user_id=u, username=f"u{u}") for u in users]
        for conn in conns:
            await table.submit(conn, JoinMessage(type="join"))
        for i, conn in enumerate(conns):
            bets = {"ante": 100} if i % 3 else {"ante": 100, "trips": 100}
            await table.submit(conn, BetMessage(type="bet", key="b", bets=bets))
        assert table.status == "playing"
        for conn in conns[::2]:
            await table.submit(conn, ActMessage(type="act", action="4x"))
        # The odd seats never act: each decision phase times out (check, check, fold).
        for _ in range(3):
            clock.advance(config.decision_seconds)
            await asyncio.sleep(0.05)
        await _settle_down(table, rounds=1)
        frames = [_drain(conn) for conn in conns]
        await table.stop()
        return frames

    frames = asyncio.run(scenario())
    with db.session() as session:
        totals = wallet.check_ledger(session)
        seated = session.scalar(select(func.count()).select_from(RoundPlayer))
    assert seated == PLAYERS
    assert totals["escrow"] == 0
    assert totals["player"] + totals["house"] == 10_000 * PLAYERS
    for seat_frames in frames[:5] + frames[-5:]:
        text = [json.dumps(f) for f in seat_frames]
        revealed = next(i for i, t in enumerate(text) if '"dealer_revealed"' in t)
        dealer = json.loads(text[revealed])["event"]["cards"]
        assert not any(f'"{card}"' in t for t in text[:revealed] for card in dealer)
        timeouts = [
            f["event"]
            for f in seat_frames
            if f["type"] == "event" and f["event"].get("timeout") is True
        ]
        # 120 odd seats check twice and fold once by timeout.
        assert len(timeouts) == 3 * (PLAYERS // 2)
