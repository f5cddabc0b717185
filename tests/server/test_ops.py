"""Operations: /healthz, Prometheus /metrics, JSON logs without secrets, documented settings."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import httpx
import pytest
from server_testkit import (
    OPERATOR,
    Seat,
    Server,
    free_port,
    make_settings,
    start_serve,
    table_ws,
    test_tables,
)

from croupier.server.app import create_app
from croupier.server.db import Database
from croupier.server.settings import Settings
from croupier.server.tables.clock import ManualClock

ONE_SEAT = "As 2c Ah 7d 3s Ad Kc 9h 4s Jc"
REPO = Path(__file__).resolve().parents[2]


def _metric(text: str, name: str, **labels: str) -> float:
    for line in text.splitlines():
        if line.startswith((name + "{", name + " ")):
            found = dict(re.findall(r'(\w+)="([^"]*)"', line.split(" ")[0]))
            if all(found.get(k) == v for k, v in labels.items()):
                return float(line.rsplit(" ", 1)[1])
    raise AssertionError(f"{name} {labels} not in metrics")


def test_healthz_names_what_failed(server: Server) -> None:
    ok = server.client.get("/healthz")
    assert ok.status_code == 200
    assert ok.json()["tables"] == {"casino": "running", "live": "running"}
    task = server.app.state.tables.tables["live"]._task
    server.client.portal.call(task.cancel)  # type: ignore[union-attr]
    deadline = time.monotonic() + 10
    while not task.done():
        assert time.monotonic() < deadline
        time.sleep(0.05)
    stopped = server.client.get("/healthz")
    assert stopped.status_code == 503
    assert stopped.json()["failed"] == ["table live: stopped"]
    real = server.app.state.db
    server.app.state.db = Database("sqlite:////nonexistent-dir/nothing/croupier.db")
    try:
        down = server.client.get("/healthz").json()
    finally:
        server.app.state.db = real
    assert down["database"] == "unreachable"
    assert down["failed"][0].startswith("database: unreachable")


def test_metrics_count_rounds_bets_frames_and_latency(server: Server) -> None:
    _, token = server.player("alice", credit=100_000)
    server.shoes.push(ONE_SEAT)
    with table_ws(server.client, "casino", token) as ws:
        seat = Seat(ws)
        seat.welcome()
        seat.request({"type": "join"})
        during = server.client.get("/metrics").text
        assert _metric(during, "croupier_open_sockets", table="casino") == 1
        seat.request({"type": "bet", "key": "b1", "bets": {"ante": 1_000}})
        seat.request({"type": "bet", "key": "b2", "bets": {"ante": 1}})  # below the minimum
        seat.request({"type": "act", "action": "play", "multiple": 4})
        seat.seen("round_closed")
    time.sleep(0.2)
    text = server.client.get("/metrics").text
    assert _metric(text, "croupier_rounds_total", table="casino", status="settled") == 1
    assert _metric(text, "croupier_requests_total", type="bet", outcome="ack") == 1
    assert _metric(text, "croupier_requests_total", type="bet", outcome="error") == 1
    assert _metric(text, "croupier_ack_latency_seconds_count", type="bet") == 2
    assert _metric(text, "croupier_frames_sent_total", table="casino") >= len(seat.frames)
    assert _metric(text, "croupier_open_sockets", table="casino") == 0


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_each_app_has_its_own_registry(db_url: str, tmp_path: Path) -> None:
    from server_testkit import TestClient

    first = create_app(make_settings(db_url), tables=test_tables(), clock=ManualClock())
    other = f"sqlite:///{tmp_path / 'other.db'}"
    second = create_app(make_settings(other), tables=test_tables(), clock=ManualClock())
    with TestClient(first) as a, TestClient(second) as b:
        first.state.metrics.sockets.labels(table="casino").inc(5)
        assert _metric(a.get("/metrics").text, "croupier_open_sockets", table="casino") == 5
        assert "croupier_open_sockets{" not in b.get("/metrics").text
    hidden = create_app(
        make_settings(other).model_copy(update={"metrics_enabled": False}), tables=[]
    )
    with TestClient(hidden) as c:
        assert c.get("/metrics").status_code == 404


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_json_logs_hold_no_secret(
    db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CROUPIER_LOG_JSON", "true")
    port = free_port()
    proc = start_serve(tmp_path, url=db_url, port=port, tables=_TABLES, secret="logs-test")
    base = f"http://127.0.0.1:{port}"
    try:
        password = "a-very-secret-password"
        # a password hash on a loaded machine may take seconds: a long timeout
        http = httpx.Client(base_url=base, timeout=30)
        http.post("/api/auth/register", json={"username": "alice", "password": password})
        token = http.post(
            "/api/auth/login", json={"username": "alice", "password": password}
        ).json()["access_token"]
        http.get("/api/wallet", headers={"Authorization": f"Bearer {token}"})
        http.get(f"/ws/tables/uth?token={token}")  # the token in a URL, as sockets do
        http.get(f"/api/wallet?access_token={token}")
        http.close()
        time.sleep(0.5)
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    (log,) = tmp_path.glob(f"server-{port}-*.log")
    lines = [line for line in log.read_text().splitlines() if line.strip()]
    objects = [json.loads(line) for line in lines if line.startswith("{")]
    assert len(objects) >= 5 and {"time", "level", "logger", "message"} <= set(objects[0])
    text = log.read_text()
    assert token not in text and password not in text and OPERATOR[1] not in text
    assert any("token=[redacted]" in o["message"] for o in objects)
    assert all(line.startswith("{") for line in lines)  # the banner too
    assert any("croupier serving on" in o["message"] for o in objects)


_TABLES = """
[[tables]]
name = "uth"
game = "uth"
"""


def test_every_setting_is_documented() -> None:
    readme = (REPO / "README.md").read_text()
    for name in Settings.model_fields:
        assert f"CROUPIER_{name.upper()}" in readme, name
