"""The restore drill's parts (issue 30): a real server, players over real WebSockets who note
every bet the server acknowledged, and the checks of a restored database.

A player (a thread) sits at a table and, four times a second, bets with a fresh idempotency
key and decides at once; each ``ack`` of a bet is noted with the wall-clock time it arrived.
The server acknowledges a bet only once its stake is committed, so a bet acknowledged before
a backup's recovery point must be in the restored database.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
import uuid
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx
from server_testkit import OPERATOR, PASSWORD, table_socket
from sqlalchemy import func, select

from croupier.server.audit.service import verify
from croupier.server.db import Database
from croupier.server.tables.models import Round, RoundPlayer, RoundStatus, RoundVoid
from croupier.server.wallet import service as wallet
from croupier.server.wallet.models import IdempotencyKey, LedgerTransaction

__all__ = ["TABLES", "Ack", "Casino", "Figures", "check_restored", "playing"]

TABLES = """
[[tables]]
name = "casino-a"
game = "uth"
betting_seconds = 0.3
decision_seconds = 3
pause_seconds = 0
[tables.rules]
max_seats = 6

[[tables]]
name = "casino-b"
game = "uth"
betting_seconds = 0.3
decision_seconds = 3
pause_seconds = 0
[tables.rules]
max_seats = 6

[[tables]]
name = "live"
game = "uth"
betting_seconds = 0.3
decision_seconds = 3
pause_seconds = 0
[tables.rules]
shared_hand = true
"""
"""Several tables: two casino tables and a live one (short timers: the drill plays fast)."""


@dataclass(frozen=True, slots=True)
class Ack:
    """A bet the server acknowledged."""

    user_id: int
    key: str
    amount: int
    at: float
    """``time.time()`` when the acknowledgement arrived."""


@dataclass(slots=True)
class Casino:
    """The players of a drill and what they were credited."""

    base: str
    players: list[tuple[int, str, str]] = field(default_factory=list)
    """(user id, token, table)."""
    deposits: dict[int, int] = field(default_factory=dict)

    def operator(self, client: httpx.Client) -> dict[str, str]:
        login = client.post(
            "/api/auth/login", json={"username": OPERATOR[0], "password": OPERATOR[1]}
        )
        return {"Authorization": f"Bearer {login.json()['access_token']}"}

    def credit(self, client: httpx.Client, user_id: int, amount: int, key: str) -> None:
        response = client.post(
            f"/api/operator/accounts/{user_id}/credit",
            json={"amount": amount},
            headers={**self.operator(client), "Idempotency-Key": key},
        )
        assert response.status_code == 200, response.text
        self.deposits[user_id] = self.deposits.get(user_id, 0) + amount

    def seat_players(self, tables: Mapping[str, int], *, credit: int = 1_000_000) -> None:
        """Register ``tables[t]`` players for each table ``t`` and credit each."""
        with httpx.Client(base_url=self.base, timeout=30) as client:
            for table, count in tables.items():
                for i in range(count):
                    name = f"{table}-{i}"
                    user = client.post(
                        "/api/auth/register", json={"username": name, "password": PASSWORD}
                    ).json()
                    self.credit(client, user["id"], credit, f"deposit-{name}")
                    login = client.post(
                        "/api/auth/login", json={"username": name, "password": PASSWORD}
                    )
                    self.players.append((user["id"], login.json()["access_token"], table))


def _player(
    port: int, user_id: int, token: str, table: str, stop: threading.Event, acks: list[Ack]
) -> None:
    url = f"ws://127.0.0.1:{port}/ws/tables/{table}"
    # The server is killed under the players: that is the point.
    with contextlib.suppress(Exception), table_socket(url, token) as ws:
        ws.send('{"type": "join"}')
        sent: dict[str, str] = {}  # ref -> key of every bet not answered yet
        while not stop.is_set():
            key, ref = uuid.uuid4().hex, f"b{len(sent) + len(acks)}-{uuid.uuid4().hex[:6]}"
            sent[ref] = key
            ws.send(json.dumps({"type": "bet", "id": ref, "key": key, "bets": {"ante": 100}}))
            ws.send('{"type": "act", "action": "4x"}')
            until = time.monotonic() + 0.25
            with contextlib.suppress(TimeoutError):
                while True:
                    frame = json.loads(ws.recv(timeout=max(0.0, until - time.monotonic())))
                    answered = sent.pop(frame.get("ref"), None) if frame.get("ref") else None
                    if answered is not None and frame.get("type") == "ack":
                        acks.append(Ack(user_id, answered, 100, time.time()))


@contextlib.contextmanager
def playing(port: int, casino: Casino) -> Iterator[list[Ack]]:
    """Every player playing until the block ends; yields the acknowledgements so far."""
    stop, acks = threading.Event(), []
    threads = [
        threading.Thread(target=_player, args=(port, user, token, table, stop, acks), daemon=True)
        for user, token, table in casino.players
    ]
    for thread in threads:
        thread.start()
    try:
        yield acks
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=10)


def settled_rounds(db: Database) -> int:
    with db.session() as session:
        count = session.scalar(
            select(func.count()).select_from(Round).where(Round.status == "settled")
        )
    return int(count or 0)


@dataclass(frozen=True, slots=True, kw_only=True)
class Figures:
    """What a restore kept and lost."""

    acks_before: int
    """Bets acknowledged before the recovery point: every one is there."""
    acks_after: int
    acks_after_kept: int
    """Of those acknowledged after the recovery point, how many the restore still has."""
    voided_at_start: int
    """Rounds the restore point caught in play, voided by the restarted server."""
    settled: int
    audit_entries: int


def check_restored(
    db: Database,
    *,
    acks: list[Ack],
    recovery_point: float,
    deposits: Mapping[int, int],
    in_play: set[int],
    audit_head: str | None = None,
) -> Figures:
    """The restored casino after its restart: crash voids, ledger, audit chain, every bet
    acknowledged before ``recovery_point`` (``time.time()``) there and closed, balances equal
    deposits plus settled results. ``in_play``: the rounds the restore point held open."""
    with db.session() as session:
        totals = wallet.check_ledger(session)
        assert totals.get("escrow", 0) == 0, totals
        assert totals["player"] + totals.get("house", 0) == sum(deposits.values()), (
            totals,
            sum(deposits.values()),
        )
        assert -totals["cashier"] == sum(deposits.values())
        statuses = dict(session.execute(select(Round.id, Round.status)).all())
        assert RoundStatus.OPEN.value not in statuses.values()
        for round_id in in_play:
            assert statuses[round_id] == RoundStatus.VOIDED.value, round_id
            reason = session.scalar(select(RoundVoid.reason).where(RoundVoid.round_id == round_id))
            assert reason is not None and "restarted" in reason, reason
        chain = verify(session, expected_head=audit_head)
        assert chain.ok, chain.broken
        kept = _kept(session, acks)
        before = [a for a in acks if a.at < recovery_point]
        missing = [a for a in before if a.key not in kept]
        assert not missing, f"{len(missing)} bets acknowledged before the recovery point lost"
        for ack in before:
            assert kept[ack.key] in (RoundStatus.SETTLED.value, RoundStatus.VOIDED.value)
        _balances(session, deposits)
        after = [a for a in acks if a.at >= recovery_point]
        return Figures(
            acks_before=len(before),
            acks_after=len(after),
            acks_after_kept=sum(1 for a in after if a.key in kept),
            voided_at_start=len(in_play),
            settled=sum(1 for s in statuses.values() if s == RoundStatus.SETTLED.value),
            audit_entries=chain.entries,
        )


def _kept(session: Any, acks: list[Ack]) -> dict[str, str]:
    """Each acknowledged bet's key found in the database -> the status of its round."""
    rows = session.execute(
        select(IdempotencyKey.key, Round.status)
        .join(LedgerTransaction, LedgerTransaction.id == IdempotencyKey.transaction_id)
        .join(Round, Round.id == LedgerTransaction.round_id)
        .where(IdempotencyKey.key.in_([a.key for a in acks]))
    )
    return {str(key): str(status) for key, status in rows}


def _balances(session: Any, deposits: Mapping[int, int]) -> None:
    results = dict(
        session.execute(
            select(
                RoundPlayer.user_id,
                func.coalesce(func.sum(RoundPlayer.returned - RoundPlayer.staked), 0),
            )
            .join(Round, Round.id == RoundPlayer.round_id)
            .where(Round.status == RoundStatus.SETTLED.value)
            .group_by(RoundPlayer.user_id)
        ).all()
    )
    for user_id, deposited in deposits.items():
        balance = wallet.player_balance(session, user_id=user_id)
        assert balance == deposited + int(results.get(user_id, 0)), user_id
