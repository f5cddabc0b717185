"""Nobody but the cluster speaks on the cluster's bus (issue 27), tried from outside against a
real two-process cluster (``scripts/cluster-local.sh``): an attacker who can write to the
cluster's Redis (they have its password) but not the cluster's bus key.

1. a forged ``connect`` + ``submit join`` + ``submit bet`` naming a victim's user id on the
   table's stream: nothing acts (it seated the victim and took the bet on main before this
   test's fix);
2. the same sealed under another key, or a genuine message copied onto another table's
   stream: dropped;
3. a genuine ``join`` replayed on its own stream after the player left: not applied again;
4. forged frames and notices on the gateways' channels: no socket sees them;
5. the drops are logged, without the payload or the key; a process without the key refuses
   to start; Redis itself refuses a client without the password.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from test_cluster import (  # noqa: E402
    CREDIT,
    Cashier,
    _eventually,
    _owner,
    _play_round,
    _query,
    _socket,
    _start,
)

from conftest import Cluster, ClusterFactory  # noqa: E402

pytestmark = [pytest.mark.postgres, pytest.mark.timeout(240)]

STREAM = "croupier:table:felt:in"


def _redis(c: Cluster) -> Any:
    """A client of the cluster's Redis with its credentials (the attacker stole them)."""
    import redis

    return redis.Redis.from_url(
        c.redis_url,
        username=c.env.get("REDIS_USERNAME"),
        password=c.env.get("REDIS_PASSWORD"),
    )


def _forged_session(gateway: str, victim: int, name: str, *, conn: int = 9001) -> list[bytes]:
    """What a gateway would send for a socket of ``victim`` that joins and bets 4,000."""
    bet = {"type": "bet", "key": "forged-bet", "bets": {"ante": 2_000}, "id": "b"}
    return [
        json.dumps(
            {
                "type": "connect",
                "gateway": gateway,
                "conn": conn,
                "user_id": victim,
                "username": name,
            }
        ).encode(),
        json.dumps(
            {
                "type": "submit",
                "gateway": gateway,
                "conn": conn,
                "request": 901,
                "message": json.dumps({"type": "join", "id": "j"}),
            }
        ).encode(),
        json.dumps(
            {
                "type": "submit",
                "gateway": gateway,
                "conn": conn,
                "request": 902,
                "message": json.dumps(bet),
            }
        ).encode(),
    ]


def _victim_rows(c: Cluster, user_id: int) -> list[tuple[Any, ...]]:
    return _query(c, "SELECT round_id, staked FROM round_players WHERE user_id = %s", user_id)


def test_forged_commands_on_a_tables_stream_do_not_act(cluster: ClusterFactory) -> None:
    c = _start(cluster)
    owner, _ = _owner(c)
    gateway = 1 - owner
    cashier = Cashier(c.nodes[gateway])
    bus = _redis(c)
    try:
        victim, token = cashier.player("victim")
        # 1. in clear, as the cluster's messages were before issue 27, for either gateway
        for node in c.node_ids:
            for raw in _forged_session(node, victim, "victim"):
                bus.xadd(STREAM, {"m": raw})
        # Several betting windows pass (betting_seconds = 1): a seated victim's bet would
        # have opened a round and left the wallet.
        time.sleep(6)
        assert cashier.balance(token) == CREDIT
        assert _victim_rows(c, victim) == []
        # 2. sealed, but under a key that is not the cluster's
        from croupier.server.cluster.seal import Purpose, Seal

        wrong = Seal("not-the-cluster-key-" + "x" * 32, max_age=60)
        for raw in _forged_session(c.node_ids[gateway], victim, "victim", conn=9002):
            bus.xadd(STREAM, {"m": wrong.seal(Purpose.COMMAND, STREAM, raw)})
        time.sleep(4)
        assert cashier.balance(token) == CREDIT
        assert _victim_rows(c, victim) == []
        _eventually(
            lambda: (
                "dropped a message on croupier:table:felt:in: not sealed by the cluster"
                in c.log(owner)
            ),
            10,
            "the owner logging the unsealed commands it dropped",
        )
        assert "its seal does not hold" in c.log(owner)
        # The logs name neither the payload nor the key.
        for i in range(2):
            text = c.log(i)
            assert "forged-bet" not in text and c.env["CLUSTER_BUS_KEY"] not in text
            assert c.env["REDIS_PASSWORD"] not in text
        # The table plays on for the cluster's own messages.
        with _socket(c.nodes[gateway], token) as sock:
            assert sock.request({"type": "join"})["type"] == "ack"
            _ack, closed = _play_round(sock, "v1")
            assert closed["status"] == "settled"
        assert cashier.ledger()["escrow"] == 0
    finally:
        bus.close()
        cashier.close()


def _entries(bus: Any, stream: str) -> list[tuple[str, bytes]]:
    return [(i.decode(), f[b"m"]) for i, f in bus.xrange(stream)]


def _submits(entries: list[tuple[str, bytes]], kind: str) -> list[bytes]:
    """The sealed submits of a client message of type ``kind`` (read as the attacker can:
    the payload is in clear, after the seal)."""
    found = []
    for _, raw in entries:
        # A sealed message's payload follows its seal; an unsealed one is all payload. An
        # entry holds the commands a gateway sent together.
        payload = json.loads(raw if raw[:1] in (b"{", b"[") else raw.partition(b":")[2])
        for command in payload if isinstance(payload, list) else [payload]:
            if command.get("type") == "submit" and json.loads(command["message"])["type"] == kind:
                found.append(raw)
                break
    return found


def test_genuine_messages_replayed_or_moved_do_not_act(cluster: ClusterFactory) -> None:
    c = cluster(
        2,
        tables="""
[[tables]]
name = "felt"
game = "uth"
betting_seconds = 1
decision_seconds = 3
pause_seconds = 0
[tables.rules]
max_seats = 6

[[tables]]
name = "baize"
game = "uth"
betting_seconds = 1
decision_seconds = 3
pause_seconds = 0
[tables.rules]
max_seats = 6
""",
        env={
            "CROUPIER_OPERATOR_USERNAME": "cluster-operator",
            "CROUPIER_OPERATOR_PASSWORD": "cluster-harbor-violet-77",
            "CROUPIER_LEASE_SECONDS": "2",
        },
    )
    owner, _ = _owner(c)
    gateway = 1 - owner
    cashier = Cashier(c.nodes[gateway])
    bus = _redis(c)
    try:
        user, token = cashier.player("mover")
        with _socket(c.nodes[gateway], token) as sock:
            assert sock.request({"type": "join"})["result"]["seat"] == 0
            ack, _ = _play_round(sock, "m1")
            assert sock.request({"type": "leave"})["type"] == "ack"
            entries = _entries(bus, STREAM)
            joins, bets = _submits(entries, "join"), _submits(entries, "bet")
            assert joins and bets
            balance = cashier.balance(token)
            # 3. the player's own join, sent again on its stream: they stay up
            start = len(sock.frames)
            for raw in [*joins, *bets]:
                bus.xadd(STREAM, {"m": raw})
            # ... and onto the other table's stream: its seal names the stream it was for
            for raw in [*joins, *bets]:
                bus.xadd("croupier:table:baize:in", {"m": raw})
            time.sleep(5)
            assert sock.request({"type": "ping"})["type"] == "pong"  # reads what came
            seated = [
                f
                for f in sock.frames[start:]
                if f["type"] == "event" and f["event"]["kind"] == "seated"
            ]
            assert seated == []
            assert cashier.balance(token) == balance
        rounds = {
            r[0] for r in _query(c, "SELECT round_id FROM round_players WHERE user_id = %s", user)
        }
        assert rounds == {ack["result"]["round_id"]}
        logs = c.log(0) + c.log(1)
        assert "a message taken before (a replay)" in logs
        assert "dropped a message on croupier:table:baize:in: its seal does not hold" in logs
    finally:
        bus.close()
        cashier.close()


def test_forged_frames_and_notices_reach_no_socket(cluster: ClusterFactory) -> None:
    c = _start(cluster)
    owner, token_number = _owner(c)
    gateway = 1 - owner
    cashier = Cashier(c.nodes[gateway])
    bus = _redis(c)
    try:
        user, token = cashier.player("listener")
        with _socket(c.nodes[gateway], token) as sock:
            assert sock.request({"type": "join"})["type"] == "ack"
            start = len(sock.frames)
            fake = json.dumps({"type": "balance", "balance": 99_999_999})
            frames = {
                "type": "frames",
                "table": "felt",
                "token": token_number + 1000,
                "items": [[fake, None, 0, 0]],
            }
            bus.publish(f"croupier:gateway:{c.node_ids[gateway]}", json.dumps(frames))
            notice = {"type": "user", "origin": "elsewhere", "kind": "frame",
                      "user_id": user, "frame": fake}  # fmt: skip
            bus.publish("croupier:cluster", json.dumps(notice))
            revoke = {"type": "user", "origin": "elsewhere", "kind": "revoke_user",
                      "user_id": user, "reason": "forged"}  # fmt: skip
            bus.publish("croupier:cluster", json.dumps(revoke))
            time.sleep(2)
            # The socket is open, its session alive, and it heard nothing forged.
            assert sock.request({"type": "ping"})["type"] == "pong"
            assert not any("99999999" in json.dumps(f) for f in sock.frames[start:])
            # The owner's genuine frames for this gateway, captured as a round is played...
            channel = f"croupier:gateway:{c.node_ids[gateway]}"
            listen = bus.pubsub(ignore_subscribe_messages=True)
            listen.subscribe(channel)
            _ack, closed = _play_round(sock, "l1")
            assert closed["status"] == "settled"
            captured = []
            deadline = time.monotonic() + 2
            while time.monotonic() < deadline:
                message = listen.get_message(timeout=0.2)
                if message is not None:
                    captured.append(message["data"])
            listen.close()
            assert captured
            # ... and published again: the player does not hear the round twice.
            before = len(sock.frames)
            for raw in captured:
                bus.publish(channel, raw)
            time.sleep(1)
            assert sock.request({"type": "ping"})["type"] == "pong"
            again = [
                f
                for f in sock.frames[before:]
                if f["type"] == "event" and f["event"]["kind"] in ("round_closed", "round_opened")
            ]
            assert again == []
        _eventually(
            lambda: (
                f"dropped a message on croupier:gateway:{c.node_ids[gateway]}" in c.log(gateway)
            ),
            10,
            "the gateway logging the frames it dropped",
        )
        assert "dropped a message on croupier:cluster" in c.log(gateway)
        assert "a message taken before (a replay)" in c.log(gateway)
    finally:
        bus.close()
        cashier.close()


def test_without_the_password_or_the_key_nothing_joins(cluster: ClusterFactory) -> None:
    import redis

    c = _start(cluster)
    anonymous = redis.Redis.from_url(c.redis_url)
    try:
        with pytest.raises(redis.AuthenticationError):
            anonymous.xadd(STREAM, {"m": b"{}"})
    finally:
        anonymous.close()
    # A process started with the cluster's Redis but without the bus key refuses to start,
    # saying why; so does one with another key.
    env = {k: v for k, v in os.environ.items() if not k.startswith("CROUPIER_")}
    env.update(
        {
            "CROUPIER_DATABASE_URL": c.database_url,
            "CROUPIER_REDIS_URL": c.redis_url,
            "CROUPIER_REDIS_USERNAME": c.env["REDIS_USERNAME"],
            "CROUPIER_REDIS_PASSWORD": c.env["REDIS_PASSWORD"],
            "CROUPIER_PORT": "0",
        }
    )
    command = [sys.executable, "-m", "croupier.cli", "serve"]
    refused = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
    assert refused.returncode != 0
    assert "CROUPIER_BUS_KEY" in refused.stderr + refused.stdout
    env["CROUPIER_BUS_KEY"] = "another-key-than-the-clusters-" + "y" * 20
    other = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
    assert other.returncode != 0
    said = other.stderr + other.stdout
    assert "seal their messages with another key" in said
    assert c.env["REDIS_PASSWORD"] not in said
