"""Faults at a Hold'em cash table: a SIGKILL in the middle of a hand loses no chip.

``croupier serve`` runs in a child process on a SQLite file. Four players buy in at a
Hold'em table and play hands over real WebSockets, one thread each, taking random but legal
actions from the ``options`` the server sends them. Once some hands have been settled the
players stop acting as soon as a hand in play reaches the flop, and the server is killed with
SIGKILL while that hand waits for its actor. It is restarted on the same database; the books
must show every settled hand kept and the interrupted one voided, every stack as it stood
when that hand was dealt and then back in its player's wallet (cash.py: "At the next start
the open hand is voided ... and the table's first act is to return every stack account left
by the crash to its wallet").
"""

from __future__ import annotations

import json
import random
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_testkit import PASSWORD, free_port, start_serve, table_socket
from sqlalchemy import select

from croupier.history import holdem_phh as phh
from croupier.server.db import Database
from croupier.server.tables.models import Round, RoundPlayer, RoundStatus, RoundVoid
from croupier.server.wallet import service as wallet
from croupier.server.wallet.models import LedgerAccount, LedgerTransaction, Posting

pytestmark = pytest.mark.timeout(60)

TABLE = "holdem"
CREDIT = 100_000
BUY_IN = 5_000
PLAYERS = 4
SETTLED_BEFORE_KILL = 4
"""Hands settled (and seen by the players) before the kill is prepared."""

_TABLES = f"""
[[tables]]
name = "{TABLE}"
game = "holdem"
decision_seconds = 20
pause_seconds = 0

[tables.rules]
small_blind = 50
big_blind = 100
max_seats = 6
min_buy_in = 2000
max_buy_in = 10000
rake_percent = 5
rake_cap = 200
"""


def _start(tmp_path: Path, url: str, port: int) -> subprocess.Popen[bytes]:
    return start_serve(tmp_path, url=url, port=port, tables=_TABLES, secret="holdem-crash-test")


@dataclass
class _Player:
    """One player's thread and what it saw: its own record, independent of the server's."""

    name: str
    user_id: int
    token: str
    seat: int
    bought_in: int = 0
    """Chips moved from the wallet to the table by acknowledged buy-ins."""
    stack: int = 0
    """The chips at the table as last announced: a buy-in ack, the ``stacks`` of the last
    ``round_opened`` or ``round_closed`` that deals this seat in."""
    opened: dict[int, dict[str, Any]] = field(default_factory=dict)
    closed: dict[int, dict[str, Any]] = field(default_factory=dict)
    state: dict[str, Any] | None = None
    """The last ``state`` frame."""
    actions: int = 0
    refused: list[dict[str, Any]] = field(default_factory=list)
    failure: str | None = None
    """What stopped the thread before the kill, if anything did."""


@dataclass
class _Control:
    freeze: threading.Event = field(default_factory=threading.Event)
    """Set: stop acting once the hand in play has reached the flop."""
    holding: threading.Event = field(default_factory=threading.Event)
    """Set by the player who is to act in such a hand and waits."""
    held: dict[str, Any] = field(default_factory=dict)
    """The holder's last state frame."""
    killed: threading.Event = field(default_factory=threading.Event)
    """Set just before the SIGKILL: from then on a broken connection is expected."""
    stop: threading.Event = field(default_factory=threading.Event)


def _choose(rng: random.Random, options: dict[str, Any]) -> dict[str, Any]:
    """A random decision among the legal ones the server lists."""
    actions = options["actions"]
    passive = "check" if "check" in actions else "call"
    roll = rng.random()
    word = next((w for w in ("raise", "bet") if w in actions), None)
    if word is not None and roll < 0.25:
        low, high = options["min_raise_to"], options["max_raise_to"]
        return {"action": word, "amount": rng.randint(low, max(low, min(high, 3 * low)))}
    if "all_in" in actions and roll < 0.28:
        return {"action": "all_in"}
    if passive == "call" and roll < 0.45:
        return {"action": "fold"}
    return {"action": passive}


def _play(port: int, player: _Player, control: _Control, seed: int) -> None:
    """Sit down, buy in, then act whenever the server offers this seat options."""
    rng = random.Random(seed)
    ids = 0
    pending: str | None = None
    buys: dict[str, int] = {}

    def send(ws: Any, message: dict[str, Any]) -> str:
        nonlocal ids
        ids += 1
        ref = f"{player.name}-{ids}"
        ws.send(json.dumps({**message, "id": ref}))
        return ref

    def buy(ws: Any) -> None:
        nonlocal pending
        pending = send(ws, {"type": "buy_in", "key": f"{player.name}-in-{ids}", "amount": BUY_IN})
        buys[pending] = BUY_IN

    def take(frame: dict[str, Any]) -> None:
        nonlocal pending
        kind = frame["type"]
        if kind in ("ack", "error") and frame.get("ref") == pending:
            pending = None
            if kind == "error":
                player.refused.append(frame)
            elif frame["ref"] in buys:
                result = frame["result"]
                assert not result["replayed"]
                player.bought_in += result["amount"]
                player.stack = result["stack"]
        elif kind == "state":
            player.state = frame
        elif kind == "event":
            event = frame["event"]
            seat = str(player.seat)
            if event["kind"] == "round_opened":
                player.opened[event["round_id"]] = event
                player.stack = event["stacks"].get(seat, player.stack)
            elif event["kind"] == "round_closed":
                player.closed[event["round_id"]] = event
                player.stack = event["stacks"].get(seat, player.stack)

    url = f"ws://127.0.0.1:{port}/ws/tables/{TABLE}"
    try:
        with table_socket(url, player.token) as ws:
            pending = send(ws, {"type": "join", "seat": player.seat})
            while not control.stop.is_set():
                try:
                    take(json.loads(ws.recv(timeout=0.05)))
                    while True:  # everything already here, before deciding
                        take(json.loads(ws.recv(timeout=0)))
                except TimeoutError:
                    pass
                state = player.state
                if pending is not None or state is None:
                    continue
                mine = next((s for s in state["table"]["seats"] if s["seat"] == player.seat), None)
                if mine is not None and mine["stack"] == 0 and not mine["in_hand"]:
                    buy(ws)  # busted (or just seated): buy in between hands
                    continue
                view = state["view"]
                options = view and view["options"]
                if not options:
                    continue
                if control.freeze.is_set() and view["board"]:
                    # The hand in play has reached the flop: wait here, the table waits on us.
                    control.held.update(state)
                    control.holding.set()
                    continue
                pending = send(ws, {"type": "act", **_choose(rng, options)})
                player.actions += 1
    except Exception as exc:
        if not control.killed.is_set():  # else the server was killed under us: the point
            player.failure = repr(exc)


def _settled(players: list[_Player]) -> dict[int, dict[str, Any]]:
    """Every ``round_closed`` the players saw with status settled, by round id."""
    return {
        rid: event
        for p in players
        for rid, event in dict(p.closed).items()  # a copy: the player's thread adds to it
        if event["status"] == "settled"
    }


def _escrow(session: Any, user_id: int) -> int:
    code = f"escrow:{TABLE}:u{user_id}"
    balance = session.scalar(select(LedgerAccount.balance).where(LedgerAccount.code == code))
    return int(balance or 0)


def _money(totals: dict[str, int]) -> int:
    """Everything inside the casino: wallets, stacks at tables, house and rake."""
    return sum(totals.get(kind, 0) for kind in ("player", "escrow", "house", "rake"))


def test_sigkill_mid_hand_restores_every_stack(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'holdem.db'}"
    port = free_port()
    proc = _start(tmp_path, url, port)
    base = f"http://127.0.0.1:{port}"
    players: list[_Player] = []
    try:
        with httpx.Client(base_url=base, timeout=10) as client:
            op = client.post(
                "/api/auth/login", json={"username": "boss", "password": "operator-password"}
            )
            op_headers = {"Authorization": f"Bearer {op.json()['access_token']}"}
            for i in range(PLAYERS):
                name = f"player{i}"
                user = client.post(
                    "/api/auth/register", json={"username": name, "password": PASSWORD}
                )
                assert user.status_code == 201, user.text
                credited = client.post(
                    f"/api/operator/accounts/{user.json()['id']}/credit",
                    json={"amount": CREDIT},
                    headers={**op_headers, "Idempotency-Key": f"dep-{i}"},
                )
                assert credited.status_code == 200, credited.text
                login = client.post(
                    "/api/auth/login", json={"username": name, "password": PASSWORD}
                )
                token = login.json()["access_token"]
                players.append(_Player(name, user.json()["id"], token, seat=i))
        deposits = PLAYERS * CREDIT
        control = _Control()
        threads = [
            threading.Thread(target=_play, args=(port, p, control, 1000 + i), daemon=True)
            for i, p in enumerate(players)
        ]
        for thread in threads:
            thread.start()

        # Play until some hands have been settled with chips changing hands.
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            settled = _settled(players)
            moved = any(any(e["summary"]["net"].values()) for e in settled.values())
            if len(settled) >= SETTLED_BEFORE_KILL and moved:
                break
            time.sleep(0.05)
        else:
            pytest.fail(f"only {len(_settled(players))} hands settled in 20 seconds")
        # Then stop at the flop of a hand and kill the server while it waits for its actor.
        control.freeze.set()
        assert control.holding.wait(timeout=15), "no hand reached the flop"
        time.sleep(0.3)  # let the frames already sent arrive
        control.killed.set()
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        control.stop.set()
        for thread in threads:
            thread.join(timeout=5)
        assert [p.failure for p in players] == [None] * PLAYERS
        assert not any(p.refused for p in players), [p.refused for p in players]

        held = control.held
        interrupted = held["table"]["round_id"]
        view = held["view"]
        opened = next(p.opened[interrupted] for p in players if interrupted in p.opened)
        start = {int(seat): chips for seat, chips in opened["stacks"].items()}
        # The kill landed in a hand with chips in the pot: the stacks in the engine are
        # below those the hand started with.
        assert view["board"] and view["pot"] > 0
        assert sum(p["stack"] for p in view["players"]) + view["pot"] == sum(start.values())
        assert all(interrupted not in p.closed for p in players)
        settled = _settled(players)
        assert settled and max(settled) < interrupted
        user_of = {p.seat: p.user_id for p in players}

        # The database the crash left: the hand open, every stack still as it was at the
        # start of the hand (chips move only when a hand ends), the ledger consistent.
        db = Database(url)
        with db.session() as session:
            open_ids = list(
                session.scalars(select(Round.id).where(Round.status == RoundStatus.OPEN.value))
            )
            assert open_ids == [interrupted]
            totals = wallet.check_ledger(session)
            assert _money(totals) == deposits == -totals["cashier"]
            for p in players:
                assert _escrow(session, p.user_id) == p.stack, p
            for seat, chips in start.items():
                assert _escrow(session, user_of[seat]) == chips
            touched = session.scalars(
                select(LedgerTransaction.id).where(LedgerTransaction.round_id == interrupted)
            ).all()
            assert touched == []
        db.dispose()

        proc = _start(tmp_path, url, port)
        # The table returns the stacks as its first act, in the server's background.
        db = Database(url)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with db.session() as session:
                if wallet.check_ledger(session).get("escrow", 0) == 0:
                    break
            time.sleep(0.05)
        with db.session() as session:
            totals = wallet.check_ledger(session)
            assert totals.get("escrow", 0) == 0, "the stacks were not returned to the wallets"
            assert totals.get("house", 0) == 0  # a cash game: the house only rakes
            assert _money(totals) == deposits == -totals["cashier"]
            # The interrupted hand is voided, the void recorded, nothing staked or returned.
            row = session.get(Round, interrupted)
            assert row is not None and row.status == RoundStatus.VOIDED.value
            void = session.scalars(select(RoundVoid).where(RoundVoid.round_id == interrupted))
            assert "restarted" in void.one().reason
            dealt = session.scalars(select(RoundPlayer).where(RoundPlayer.round_id == interrupted))
            assert {(r.user_id, r.staked, r.returned) for r in dealt} == {
                (user_of[seat], 0, 0) for seat in start
            }
            # Every settled hand is kept: its record, its result as the players saw it, and
            # its settlement in the ledger (each stack's net, the rake).
            rows = session.scalars(select(Round).where(Round.id != interrupted)).all()
            assert {r.id: r.status for r in rows} == dict.fromkeys(
                settled, RoundStatus.SETTLED.value
            )
            raked = 0
            for r in rows:
                seen = settled[r.id]["summary"]
                assert r.summary is not None and r.summary["net"] == seen["net"]
                assert r.record is not None
                replayed = phh.replay(phh.loads(r.record["phh"])).state
                assert list(replayed.stacks) == r.record["finishing_stacks"]
                posted = dict(
                    session.execute(
                        select(LedgerAccount.code, Posting.amount)
                        .join(Posting, Posting.account_id == LedgerAccount.id)
                        .join(LedgerTransaction, LedgerTransaction.id == Posting.transaction_id)
                        .where(LedgerTransaction.round_id == r.id)
                    ).all()
                )
                expected = {
                    f"escrow:{TABLE}:u{user_of[int(seat)]}": net
                    for seat, net in seen["net"].items()
                    if net
                }
                if seen["rake"]:
                    expected["rake"] = seen["rake"]
                assert posted == expected
                raked += seen["rake"]
            assert totals.get("rake", 0) == raked
        db.dispose()

        # The players log in again: what they had at the table is in their wallet, which
        # holds their deposit plus the results of the settled hands and nothing of the
        # interrupted one.
        with httpx.Client(base_url=base, timeout=10) as client:
            for p in players:
                login = client.post(
                    "/api/auth/login", json={"username": p.name, "password": PASSWORD}
                )
                assert login.status_code == 200
                headers = {"Authorization": f"Bearer {login.json()['access_token']}"}
                balance = client.get("/api/wallet", headers=headers).json()["balance"]
                assert balance == CREDIT - p.bought_in + p.stack
                results = sum(e["summary"]["net"].get(str(p.seat), 0) for e in settled.values())
                assert balance == CREDIT + results
                p.token = login.json()["access_token"]

        # Nobody is seated after the restart, and the table deals again.
        def frames(ws: Any, kind: str, ref: str | None = None) -> dict[str, Any]:
            """The next frame of type ``kind`` (an event's kind for events); for a request's
            answer (``ref``), the ack or the error."""
            while True:
                frame: dict[str, Any] = json.loads(ws.recv(timeout=10))
                if ref is not None and frame.get("ref") == ref:
                    assert frame["type"] == kind, frame
                    return frame
                if ref is None and kind in (frame["type"], frame.get("event", {}).get("kind")):
                    return frame

        first, second = players[0], players[1]
        with (
            table_socket(f"ws://127.0.0.1:{port}/ws/tables/{TABLE}", first.token) as a,
            table_socket(f"ws://127.0.0.1:{port}/ws/tables/{TABLE}", second.token) as b,
        ):
            assert frames(a, "welcome")["seat"] is None
            assert frames(a, "state")["table"]["seats"] == []
            for ws in (a, b):
                ws.send(json.dumps({"type": "join", "id": "j"}))
                assert frames(ws, "ack", "j")
                ws.send(json.dumps({"type": "buy_in", "id": "b", "key": "again", "amount": 2000}))
                assert frames(ws, "ack", "b")["result"]["stack"] == 2000
            again = frames(a, "round_opened")["event"]
            assert again["round_id"] > interrupted
            assert list(again["stacks"].values()) == [2000, 2000]
    finally:
        proc.kill()
        proc.wait(timeout=10)
