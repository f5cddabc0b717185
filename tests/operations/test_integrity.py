"""The self-checking install (issue 30, GLI-19): a manifest of SHA-256 digests made at install,
checked at start and on a schedule; on a mismatch the tables close and a significant event
says what differs.

The whole-server tests run ``croupier serve`` from a copy of the installed package (its
``PYTHONPATH``), so that a test can change an installed file for real: one edited before the
start, one edited while the server runs (its check every couple of seconds here).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_testkit import (
    OPERATOR,
    PASSWORD,
    ShoeStack,
    TestClient,
    free_port,
    make_settings,
    start_serve,
)

import croupier
from croupier.server.app import create_app
from croupier.server.integrity.manifest import MANIFEST_NAME, build, check_files, load, write
from croupier.server.tables.clock import ManualClock
from croupier.server.tables.config import TableConfig

pytestmark = pytest.mark.timeout(180)

TABLES = """
[[tables]]
name = "casino"
game = "uth"
[tables.rules]
max_seats = 6

[[tables]]
name = "russian"
game = "russian"
"""


def _install_copy(site: Path) -> Path:
    """The package as installed into ``site`` (its companion modules too), with the
    manifest ``croupier verify --write`` makes there; the package's directory."""
    source = Path(croupier.__file__).resolve().parent
    target = site / "croupier"
    shutil.copytree(
        source, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", MANIFEST_NAME)
    )
    for companion in source.parent.glob("croupier_*"):
        if companion.is_file():
            shutil.copy2(companion, site / companion.name)
    done = _croupier(site, "verify", "--write")
    assert done.returncode == 0, done.stderr
    return target


def _croupier(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(site)}
    return subprocess.run(
        [sys.executable, "-m", "croupier.cli", *args], capture_output=True, text=True, env=env,
        cwd=site, check=False,
    )  # fmt: skip


def test_verify_names_each_changed_missing_and_added_file(tmp_path: Path) -> None:
    package = _install_copy(tmp_path)
    manifest = load(package / MANIFEST_NAME)
    assert manifest.editable is False and "games/uth/rules.py" in manifest.files
    assert (
        "../croupier_holdem_native__mypyc.cpython-311-x86_64-linux-gnu.so" in manifest.files
        or not list(tmp_path.glob("croupier_*"))
    )
    assert manifest.tables["uth-casino"]["game"] == "uth"
    ok = _croupier(tmp_path, "verify")
    assert ok.returncode == 0 and "as installed" in ok.stdout
    with (package / "games" / "uth" / "rules.py").open("a") as rules:
        rules.write("\n# pays 2:1 now\n")
    (package / "analysis" / "uth" / "data" / "preflop.json").unlink()
    (package / "server" / "backdoor.py").write_text("print('hello')\n")
    bad = _croupier(tmp_path, "verify", "--json")
    assert bad.returncode == 1
    report = json.loads(bad.stdout)
    assert report["files"] == {
        "changed": ["games/uth/rules.py"],
        "missing": ["analysis/uth/data/preflop.json"],
        "added": ["server/backdoor.py"],
    }
    differences = check_files(manifest, package)
    assert not differences.ok and "games/uth/rules.py" in str(differences)


def test_a_manifest_is_written_atomically_and_refused_when_not_one(tmp_path: Path) -> None:
    package = Path(croupier.__file__).resolve().parent
    path = write(build(package), tmp_path / "m.json")
    assert load(path).files == build(package).files
    (tmp_path / "bad.json").write_text('{"format": 99}')
    with pytest.raises(ValueError, match="not a croupier manifest"):
        load(tmp_path / "bad.json")


@contextlib.contextmanager
def _serving(site: Path, tmp: Path, url: str, **env: str) -> Iterator[str]:
    port = free_port()
    environment = {"PYTHONPATH": str(site), "CROUPIER_INTEGRITY_CHECK_HOURS": "0.0005", **env}
    proc = start_serve(
        tmp, url=url, port=port, tables=TABLES, secret="s", env=environment, cheap_hashing=True
    )
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.kill()
        proc.wait(timeout=10)


def _operator(client: httpx.Client) -> dict[str, str]:
    token = client.post(
        "/api/auth/login", json={"username": OPERATOR[0], "password": OPERATOR[1]}
    ).json()["access_token"]
    return {"Authorization": f"Bearer {token}"}


def _statuses(client: httpx.Client) -> dict[str, str]:
    tables = client.get("/api/operator/tables", headers=_operator(client)).json()
    return {t["name"]: t["status"] for t in tables}


def _integrity_events(client: httpx.Client) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = client.get(
        "/api/operator/events?kind=integrity", headers=_operator(client)
    ).json()["events"]
    return events


def test_an_installed_file_changed_while_the_server_runs_closes_the_tables(tmp_path: Path) -> None:
    package = _install_copy(tmp_path / "site")
    url = f"sqlite:///{tmp_path / 'casino.db'}"
    with (
        _serving(tmp_path / "site", tmp_path, url) as base,
        httpx.Client(base_url=base, timeout=30) as client,
    ):
        assert _statuses(client) == {"casino": "open", "russian": "open"}
        (first,) = _integrity_events(client)
        assert first["details"]["ok"] is True and first["details"]["when"] == "start"
        with (package / "games" / "uth" / "rules.py").open("a") as rules:
            rules.write("\n# tampered\n")
        deadline = time.monotonic() + 60
        while _statuses(client) != {"casino": "closed", "russian": "closed"}:
            assert time.monotonic() < deadline, "the tables did not close"
            time.sleep(0.5)
        failed = next(e for e in _integrity_events(client) if not e["details"]["ok"])
        assert failed["details"]["files"]["changed"] == ["games/uth/rules.py"]
        assert sorted(failed["details"]["closed"]) == ["casino", "russian"]
        closed = client.get("/api/operator/events?kind=table_closed", headers=_operator(client))
        assert {e["table"] for e in closed.json()["events"]} == {"casino", "russian"}
        # A player is refused a seat at a closed table.
        client.post("/api/auth/register", json={"username": "dora", "password": PASSWORD})
        token = client.post(
            "/api/auth/login", json={"username": "dora", "password": PASSWORD}
        ).json()["access_token"]
        from server_testkit import table_socket

        with table_socket(f"{base.replace('http', 'ws')}/ws/tables/casino", token) as ws:
            ws.send('{"type": "join", "id": "j"}')
            refusal: dict[str, Any] = {}
            while refusal.get("ref") != "j":
                refusal = json.loads(ws.recv(timeout=10))
        assert refusal["type"] == "error" and refusal["reason"] == "table_closed", refusal


def test_a_file_changed_before_the_start_closes_the_tables_from_the_start(tmp_path: Path) -> None:
    package = _install_copy(tmp_path / "site")
    (package / "server" / "default_tables.toml").write_text("# emptied\n")
    url = f"sqlite:///{tmp_path / 'casino.db'}"
    with (
        _serving(tmp_path / "site", tmp_path, url) as base,
        httpx.Client(base_url=base, timeout=30) as client,
    ):
        assert _statuses(client) == {"casino": "closed", "russian": "closed"}
        (event,) = _integrity_events(client)
        assert event["details"]["files"]["changed"] == ["server/default_tables.toml"]
        health = client.get("/healthz").json()
        assert health["status"] == "ok"  # the server runs; its tables are closed


def _rig(path: Path) -> None:
    with contextlib.closing(sqlite3.connect(path)) as con:
        (config,) = con.execute("SELECT config FROM casino_tables WHERE name='casino'").fetchone()
        data = json.loads(config)
        data["rules"]["blind_paytable"] = {"royal_flush": "500:1", "straight": "5:1"}
        con.execute("UPDATE casino_tables SET config=? WHERE name='casino'", (json.dumps(data),))
        con.commit()


def test_a_pay_table_changed_in_the_database_closes_that_table(tmp_path: Path) -> None:
    path = tmp_path / "rig.db"
    url = f"sqlite:///{path}"
    tables = [
        TableConfig(name="casino", game="uth", rules={"max_seats": 6}),
        TableConfig(name="other", game="uth", rules={"max_seats": 6}),
    ]
    settings = make_settings(url).model_copy(update={"integrity_check": True})
    app = create_app(settings, tables=tables, clock=ManualClock(), shoe_factory=ShoeStack())
    with TestClient(app):
        assert app.state.integrity["ok"] is True
    _rig(path)
    verify = subprocess.run(
        [sys.executable, "-m", "croupier.cli", "verify", "--database", url],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert verify.returncode == 1
    assert "table casino: blind.straight: approved 1:1, running 5:1" in verify.stdout
    app = create_app(settings, tables=tables, clock=ManualClock(), shoe_factory=ShoeStack())
    with TestClient(app):
        report = app.state.integrity
        assert report["ok"] is False and report["files"]["changed"] == []
        assert report["tables"] == {
            "casino": [
                "blind.flush: approved 3:2, running None",
                "blind.four_of_a_kind: approved 10:1, running None",
                "blind.full_house: approved 3:1, running None",
                "blind.straight: approved 1:1, running 5:1",
                "blind.straight_flush: approved 50:1, running None",
            ]
        }
        assert app.state.tables.tables["casino"].closed
        assert not app.state.tables.tables["other"].closed
        # closed with its approved pay tables back: an operator who opens it opens those
        running = app.state.tables.tables["casino"].describe()["rules"]["blind_paytable"]
        assert running["straight"] == "1:1" and running["flush"] == "3:2"
    with contextlib.closing(sqlite3.connect(path)) as con:
        (config,) = con.execute("SELECT config FROM casino_tables WHERE name='casino'").fetchone()
        (details,) = con.execute(
            "SELECT details FROM audit_log WHERE action='table.close' ORDER BY seq DESC LIMIT 1"
        ).fetchone()
    assert "blind_paytable" not in json.loads(config)["rules"]
    assert json.loads(details)["changed"]["restored"]["from"]["blind_paytable"]["straight"] == "5:1"
    ok = subprocess.run(
        [sys.executable, "-m", "croupier.cli", "verify", "--database", url],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert ok.returncode == 0, ok.stdout
