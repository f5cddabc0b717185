"""The audit log: entries written with every account change, the chain checked, tampering
named, concurrent writers (separate processes on PostgreSQL) kept on one chain."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
import typer
from server_testkit import OPERATOR, PASSWORD, Server
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError
from typer.testing import CliRunner

from croupier.cli.audit import app as audit_app
from croupier.server.audit import service as audit
from croupier.server.audit.chain import GENESIS
from croupier.server.audit.models import AuditEntry
from croupier.server.db import Database
from croupier.server.errors import InvalidRequestError


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _fill(db: Database, count: int) -> None:
    for i in range(count):
        with db.session() as session:
            audit.append(
                session,
                actor="boss",
                action="account.credit",
                subject=f"user:{i}",
                details={"amount": 100 * (i + 1), "memo": "café"},
            )


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(audit_app, list(args))
    return result.exit_code, result.output


def test_an_intact_chain_verifies(db: Database, db_url: str) -> None:
    _fill(db, 5)
    with db.session() as session:
        result = audit.verify(session)
        rows = list(audit.entries(session))
    assert result.ok and result.entries == 5 and result.head == rows[-1].hash
    assert rows[0].prev_hash == GENESIS
    assert [r.prev_hash for r in rows[1:]] == [r.hash for r in rows[:-1]]
    code, out = _cli("verify", "--database", db_url)
    assert code == 0 and "intact" in out and "5 entries" in out and rows[-1].hash in out


@pytest.mark.parametrize(
    ("tamper", "named"),
    [
        ("UPDATE audit_log SET actor = 'mallory' WHERE seq = 3", 3),
        ("UPDATE audit_log SET details = '{\"amount\": 1}' WHERE seq = 4", 4),
        ("UPDATE audit_log SET at = '2020-01-01T00:00:00.000000+00:00' WHERE seq = 2", 2),
        ("DELETE FROM audit_log WHERE seq = 3", 4),
        # two entries swap places: the one now third does not chain from the second
        ("UPDATE audit_log SET seq = CASE seq WHEN 3 THEN 4 ELSE 3 END WHERE seq IN (3, 4)", 3),
    ],
    ids=["field", "details", "time", "delete", "reorder"],
)
def test_tampering_is_named(db: Database, db_url: str, tamper: str, named: int) -> None:
    _fill(db, 6)
    with db.session() as session:
        if tamper.startswith("UPDATE audit_log SET seq"):
            # Unique keys would refuse a direct swap: go through a free number.
            session.execute(text("UPDATE audit_log SET seq = 100 WHERE seq = 3"))
            session.execute(text("UPDATE audit_log SET seq = 3 WHERE seq = 4"))
            session.execute(text("UPDATE audit_log SET seq = 4 WHERE seq = 100"))
        else:
            session.execute(text(tamper))
    with db.session() as session:
        result = audit.verify(session)
    assert not result.ok and result.broken is not None
    assert result.broken.seq == named
    code, out = _cli("verify", "--database", db_url)
    assert code == 1
    assert f"entry {named} " in out and "BROKEN" in out


def test_entries_cut_from_the_end_need_the_noted_head(db: Database, db_url: str) -> None:
    _fill(db, 4)
    with db.session() as session:
        head = audit.verify(session).head
        session.execute(text("DELETE FROM audit_log WHERE seq = 4"))
    with db.session() as session:
        assert audit.verify(session).ok  # the chain alone cannot tell
        cut = audit.verify(session, expected_head=head)
    assert not cut.ok and cut.broken is not None and "not in the chain" in cut.broken.reason
    code, out = _cli("verify", "--database", db_url, "--head", head)
    assert code == 1 and head in out


def test_a_fork_is_refused_by_the_database(db: Database) -> None:
    _fill(db, 2)
    with db.session() as session:
        first = session.get(AuditEntry, 1)
        assert first is not None
        fork = AuditEntry(
            seq=3,
            at="2026-01-01T00:00:00.000000+00:00",
            actor="x",
            action="y",
            subject="z",
            details="{}",
            prev_hash=first.hash,  # chains from entry 1 a second time
            hash="f" * 64,
        )
    with pytest.raises(IntegrityError), db.session() as session:
        session.add(fork)
        session.flush()


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("details", {"password": "hunter22"}),
        ("details", {"api_token": "x"}),
        ("details", {"when": object()}),
        ("actor", ""),
        ("subject", "s" * 129),
    ],
)
def test_bad_entries_are_refused(db: Database, field: str, value: object) -> None:
    fields: dict[str, object] = {"actor": "a", "action": "b", "subject": "c", "details": {}}
    fields[field] = value
    with pytest.raises(InvalidRequestError, match=field), db.session() as session:
        audit.append(session, **fields)  # type: ignore[arg-type]
    with db.session() as session:
        assert audit.verify(session).entries == 0


_WRITER = """
import sys, time
from croupier.server.db import Database
from croupier.server.audit import service
db = Database(sys.argv[1])
with db.session() as session:  # connect before the start line
    pass
time.sleep(max(0.0, float(sys.argv[4]) - time.time()))
for i in range(int(sys.argv[3])):
    with db.session() as session:
        service.append(session, actor=sys.argv[2], action="test.append", subject=f"n:{i}")
db.dispose()
"""


@pytest.mark.postgres
@pytest.mark.parametrize("db_url", ["postgres"], indirect=True)
def test_two_processes_appending_at_once_keep_one_chain(db: Database, db_url: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")}
    start = str(time.time() + 4)  # both start together once imported and connected
    procs = [
        subprocess.Popen([sys.executable, "-c", _WRITER, db_url, name, "100", start], env=env)
        for name in ("proc-a", "proc-b")
    ]
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    with db.session() as session:
        result = audit.verify(session)
        actors = [e.actor for e in audit.entries(session)]
    assert result.ok and result.entries == 200
    assert actors.count("proc-a") == actors.count("proc-b") == 100
    # they really ran at the same time: the two writers' entries interleave
    switches = sum(1 for a, b in itertools.pairwise(actors) if a != b)
    assert switches > 1


# -- over HTTP: what is recorded, and the console's endpoints ---------------------------------


def _log(server: Server, **params: object) -> dict[str, Any]:
    response = server.client.get(
        "/api/operator/audit", params=params, headers=_auth(server.operator_token())
    )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def _actions(server: Server) -> list[tuple[str, str, str]]:
    entries = _log(server, limit=500)["entries"]
    assert isinstance(entries, list)
    return [(e["actor"], e["action"], e["subject"]) for e in reversed(entries)]


def test_account_changes_are_recorded(server: Server) -> None:
    user_id, token = server.player("alice")
    key = uuid.uuid4().hex
    assert (
        server.operator_post(
            f"/api/operator/accounts/{user_id}/credit", {"amount": 5000, "memo": "cash"}, key=key
        ).status_code
        == 200
    )
    # a retry of the same request is applied once, and recorded once
    assert server.operator_post(
        f"/api/operator/accounts/{user_id}/credit", {"amount": 5000, "memo": "cash"}, key=key
    ).json()["replayed"]
    assert (
        server.operator_post(
            f"/api/operator/accounts/{user_id}/debit", {"amount": 1200}
        ).status_code
        == 200
    )
    # refused requests change nothing and record nothing
    assert (
        server.operator_post(
            f"/api/operator/accounts/{user_id}/debit", {"amount": 10**6}
        ).status_code
        == 409
    )
    assert server.client.post("/api/auth/logout", headers=_auth(token)).status_code == 204
    boss = OPERATOR[0]
    assert _actions(server) == [
        ("system", "account.register", "user:1"),  # the operator ensured at start
        ("system", "table.seed", "table:casino"),  # tables.toml seeds the empty database
        ("system", "table.seed", "table:live"),
        ("system", "event.server_start", "node:local"),  # a significant event (issue 30)
        ("alice", "account.register", f"user:{user_id}"),
        (boss, "account.credit", f"user:{user_id}"),
        (boss, "account.debit", f"user:{user_id}"),
        ("alice", "session.revoke", f"user:{user_id}"),
    ]
    entries = _log(server)["entries"]
    assert isinstance(entries, list)
    credit = next(e for e in entries if e["action"] == "account.credit")
    assert credit["details"]["amount"] == 5000 and credit["details"]["memo"] == "cash"
    assert credit["details"]["balance"] == 5000
    assert all("password" not in str(e) and token not in str(e) for e in entries)


def test_audit_pages_and_verify_endpoint(server: Server) -> None:
    for name in ("pat", "sam", "lou", "max"):
        server.player(name)
    # the operator ensured at start, the two seeded tables, the server's start (a significant
    # event, issue 30), four registrations
    first = _log(server, limit=3)
    entries = first["entries"]
    assert isinstance(entries, list) and [e["seq"] for e in entries] == [8, 7, 6]
    second = _log(server, limit=3, before=first["next"])
    assert [e["seq"] for e in second["entries"]] == [5, 4, 3]
    last = _log(server, limit=3, before=second["next"])
    assert [e["seq"] for e in last["entries"]] == [2, 1] and last["next"] is None
    headers = _auth(server.operator_token())
    ok = server.client.get("/api/operator/audit/verify", headers=headers).json()
    assert ok["ok"] and ok["entries"] == 8 and ok["broken"] is None
    with server.app.state.db.session() as session:
        session.execute(text("UPDATE audit_log SET subject = 'user:99' WHERE seq = 2"))
    bad = server.client.get("/api/operator/audit/verify", headers=headers).json()
    assert not bad["ok"] and bad["broken"]["seq"] == 2


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_audit_endpoints_refuse_players_and_bad_input(server: Server) -> None:
    _, token = server.player("alice")
    assert server.client.get("/api/operator/audit", headers=_auth(token)).status_code == 403
    assert server.client.get("/api/operator/audit").status_code == 401
    headers = _auth(server.operator_token())
    for params, field in (
        ({"limit": 0}, "limit"),
        ({"before": "x"}, "before"),
        ({"limit": 501}, "limit"),
    ):
        response = server.client.get("/api/operator/audit", params=params, headers=headers)
        assert response.status_code == 422 and field in response.json()["error"]["message"]
    response = server.client.get(
        "/api/operator/audit/verify", params={"head": "zz"}, headers=headers
    )
    assert response.status_code == 422 and "head" in response.json()["error"]["message"]


def test_promotion_to_operator_is_recorded(db: Database) -> None:
    from croupier.server.accounts.service import ensure_operator, register

    with db.session() as session:
        register(session, username="carol", password=PASSWORD)
    with db.session() as session:
        ensure_operator(session, username="carol", password="ignored-password")
        ensure_operator(session, username="carol", password="ignored-password")  # no change
    with db.session() as session:
        rows = [(e.actor, e.action) for e in audit.entries(session)]
    assert rows == [("carol", "account.register"), ("system", "account.role")]


def test_typer_group_is_registered() -> None:
    from croupier.cli.app import build_app

    app: typer.Typer = build_app()
    assert any(group.name == "audit" for group in app.registered_groups)
