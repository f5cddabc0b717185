"""scripts/cluster-local.sh as the cluster tests use it: a two-process cluster behind HAProxy
comes up healthy, HAProxy spreads requests (and WebSockets) over both processes, the
processes share one secret key and one database, a dead process's traffic moves to the
other, and ``stop`` leaves nothing behind. None of this needs the cluster code of issue 18
(leases, the bus): it holds for any processes sharing one database."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from conftest import Cluster, ClusterFactory, process_gone  # noqa: E402

pytestmark = pytest.mark.postgres

OPERATOR = ("cluster-operator", "cluster-harbor-violet-77")
TABLES = """
[[tables]]
name = "live"
game = "uth"
title = "Live"
betting_seconds = 15
decision_seconds = 15
pause_seconds = 5

[tables.rules]
shared_hand = true
ante_min = 100
ante_max = 100000
trips_min = 100
trips_max = 50000
"""


def _start(cluster: ClusterFactory) -> Cluster:
    return cluster(
        2,
        tables=TABLES,
        env={
            "CROUPIER_OPERATOR_USERNAME": OPERATOR[0],
            "CROUPIER_OPERATOR_PASSWORD": OPERATOR[1],
        },
    )


def _port_open(url: str) -> bool:
    parts = urlsplit(url)
    with socket.socket() as sock:
        sock.settimeout(1)
        return sock.connect_ex((parts.hostname or "", parts.port or 0)) == 0


def _eventually(check: Callable[[], bool], seconds: float = 10.0) -> bool:
    """``check()`` became true within ``seconds`` (a log line is written just after its
    response is sent)."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def _login(base: str) -> str:
    response = httpx.post(
        f"{base}/api/auth/login",
        json={"username": OPERATOR[0], "password": OPERATOR[1]},
        timeout=30,
    )
    assert response.status_code == 200, response.text
    token: str = response.json()["access_token"]
    return token


def test_two_processes_behind_haproxy_and_stop_leaves_nothing(cluster: ClusterFactory) -> None:
    c = _start(cluster)
    assert len(c.nodes) == len(c.pids) == 2 and c.node_ids == ["node1", "node2"]
    assert len(set(c.nodes)) == 2 and c.url not in c.nodes
    for base in [*c.nodes, c.url]:
        health = httpx.get(f"{base}/healthz", timeout=10)
        assert health.status_code == 200, (base, health.text)
        assert health.json()["database"] == "ok" and "live" in health.json()["tables"]
    assert c.database_url.startswith("postgresql+psycopg://croupier:")
    assert c.redis_url.startswith("redis://127.0.0.1:")

    # HAProxy spreads requests: the header it adds names the process, and each process's own
    # access log shows the requests it served (/api/health: HAProxy's checks use /healthz).
    served = Counter(
        httpx.get(f"{c.url}/api/health", timeout=10).headers["x-croupier-node"] for _ in range(8)
    )
    assert set(served) == {"node1", "node2"}, served
    line = '"GET /api/health HTTP/1.1" 200'
    for i in range(2):
        assert _eventually(lambda i=i: c.log(i).count(line) == served[c.node_ids[i]]), i

    # One secret key: a token issued by one process is accepted by the other.
    token = _login(c.nodes[0])
    me = httpx.get(f"{c.nodes[1]}/api/auth/me", headers={"authorization": f"Bearer {token}"})
    assert me.status_code == 200 and me.json()["username"] == OPERATOR[0]

    # WebSockets go through HAProxy (the upgrade and the frames both ways).
    from websockets.sync.client import connect

    ws_url = c.url.replace("http://", "ws://") + "/ws/tables/live"
    with connect(ws_url, open_timeout=10) as ws:
        assert ws.response is not None
        assert ws.response.headers["x-croupier-node"] in c.node_ids
        ws.send(json.dumps({"type": "auth", "token": token}))
        first = json.loads(ws.recv(timeout=10))
        assert first["type"] == "welcome", first

    # A dead process: HAProxy's checks take it out, and every request reaches the other.
    c.kill(0)
    in_a_row = 0
    deadline = time.monotonic() + 60
    while in_a_row < 6:  # six in a row from node2: node1 is out of the rotation
        response = httpx.get(f"{c.url}/api/health", timeout=10)
        by_node2 = response.status_code == 200 and response.headers["x-croupier-node"] == "node2"
        in_a_row = in_a_row + 1 if by_node2 else 0
        assert time.monotonic() < deadline, "HAProxy still sends requests to the dead node1"
        time.sleep(0.25)
    assert not process_gone(c.pids[1])

    pids = [*c.pids, *(int(c.env[k]) for k in ("POSTGRES_PID", "REDIS_PID", "HAPROXY_PID"))]
    pg_base = Path(c.env["PG_SOCKET_DIR"]).parent
    c.stop()
    assert all(process_gone(pid) for pid in pids), [p for p in pids if not process_gone(p)]
    for url in [c.url, *c.nodes, c.database_url, c.redis_url]:
        assert not _port_open(url), url
    assert not pg_base.exists()  # PostgreSQL's data went with it
    assert not (c.dir / "cluster.env").exists()
    c.stop()  # twice is fine


def test_redis_server_fixture_is_a_private_redis(redis_server: str) -> None:
    import redis

    client = redis.Redis.from_url(redis_server)
    try:
        info = client.info("server")
        assert info["tcp_port"] == int(redis_server.rsplit(":", 1)[1].split("/")[0])
        assert client.config_get("save")["save"] == ""
        assert client.set("croupier:probe", "1") and client.get("croupier:probe") == b"1"
    finally:
        client.delete("croupier:probe")
        client.close()


def test_start_refuses_bad_arguments_and_a_second_start(tmp_path: Path) -> None:
    script = Path(__file__).resolve().parents[2] / "scripts" / "cluster-local.sh"
    bad = subprocess.run(
        ["bash", str(script), "start", "--processes", "0", "--dir", str(tmp_path / "a")],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 1 and "--processes must be a positive integer" in bad.stderr
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "state.env").write_text("")
    again = subprocess.run(
        ["bash", str(script), "start", "--dir", str(tmp_path / "b"), "--python", sys.executable],
        capture_output=True,
        text=True,
        env={**os.environ},
    )
    assert again.returncode == 1 and "already holds a cluster" in again.stderr
    nothing = subprocess.run(
        ["bash", str(script), "stop", "--dir", str(tmp_path / "c")], capture_output=True
    )
    assert nothing.returncode == 0
    unknown = subprocess.run(["bash", str(script), "restart"], capture_output=True)
    assert unknown.returncode == 2
