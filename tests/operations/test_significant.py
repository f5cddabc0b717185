"""Significant events (GLI-19 §2.8.8, issue 30): in the hash-chained audit log, and the
operator's view of them with filters and CSV.

Big wins (a threshold per table) at the settlement, table, pay-table and limit changes,
tables closed and reopened, failed RNG audits, the server's start (with how its previous run
ended) and stop, steps of the wall clock.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from pathlib import Path

import numpy as np
import pytest
from server_testkit import Seat, Server, ShoeStack, TestClient, make_settings, table_ws
from sqlalchemy import select

from croupier.cards import cards_from_ids, format_cards
from croupier.server.app import create_app
from croupier.server.audit.models import AuditEntry
from croupier.server.audit.service import verify
from croupier.server.db import Database
from croupier.server.significant.kinds import Kind
from croupier.server.significant.lifecycle import ClockWatch, record_start
from croupier.server.tables import rounds
from croupier.server.tables.clock import ManualClock
from croupier.server.tables.config import TableConfig
from croupier.server.tables.fairness import commit
from croupier.server.tables.models import RoundStatus

ROYAL = "As 2c Ks 7d 9c Qs Js Ts 3h 4h"
"""One box, seed 003's dealing: the box As Ks, the dealer 2c 7d, a burn, the board QJT of
spades and two hearts: a royal flush (the Blind pays 500:1)."""


def _app(path: Path, **settings: object) -> tuple[object, ManualClock, ShoeStack]:
    tables = [
        TableConfig(name="casino", game="uth", betting_seconds=10, decision_seconds=20,
                    pause_seconds=0, rules={"max_seats": 6}, win_alert=20_000),
        TableConfig(name="quiet", game="uth", betting_seconds=10, decision_seconds=20,
                    pause_seconds=0, rules={"max_seats": 6}),
    ]  # fmt: skip
    config = make_settings(f"sqlite:///{path}").model_copy(update=settings)
    clock, shoes = ManualClock(), ShoeStack()
    return create_app(config, tables=tables, clock=clock, shoe_factory=shoes), clock, shoes


def _events(server: Server, query: str = "") -> list[dict[str, object]]:
    response = server.client.get(
        f"/api/operator/events{query}",
        headers={"Authorization": f"Bearer {server.operator_token()}"},
    )
    assert response.status_code == 200, response.text
    events: list[dict[str, object]] = response.json()["events"]
    return events


def _royal(server: Server, table: str, token: str, key: str) -> None:
    server.shoes.push(ROYAL)
    with table_ws(server.client, table, token) as ws:
        seat = Seat(ws)
        seat.welcome()
        seat.request({"type": "join"})
        assert seat.request({"type": "bet", "key": key, "bets": {"ante": 100}})["type"] == "ack"
        seat.request({"type": "act", "action": "4x"})
        seat.event("round_closed")


def test_big_wins_table_changes_and_the_view_with_filters_and_csv(tmp_path: Path) -> None:
    app, clock, shoes = _app(tmp_path / "e.db", win_alert=None)
    with TestClient(app) as client:
        server = Server(
            app=app, client=client, clock=clock, shoes=shoes, settings=app.state.settings
        )  # type: ignore[attr-defined]
        _, token = server.player("alice", credit=100_000)
        _royal(
            server, "casino", token, "r1"
        )  # 500:1 on the Blind: 50,400 won (the dealer does not qualify: the Ante pushes), over 20,000
        _royal(server, "quiet", token, "r2")  # the same win where no threshold is set
        wins = _events(server, "?kind=big_win")
        assert len(wins) == 1
        win = wins[0]
        assert win["table"] == "casino" and win["subject"] == "table:casino"
        details = win["details"]
        assert isinstance(details, dict)
        assert details["username"] == "alice" and details["won"] == 50_400
        assert details["threshold"] == 20_000 and details["staked"] == 600
        # An operator's changes: a pay table, a limit, the status.
        patch = lambda body: server.client.patch(  # noqa: E731
            "/api/operator/tables/quiet", json=body,
            headers={"Authorization": f"Bearer {server.operator_token()}"},
        )  # fmt: skip
        assert patch({"paytables": {"trips": {"flush": "6:1"}}}).status_code == 200
        assert patch({"min_bet": 200}).status_code == 200
        assert patch({"status": "closed"}).status_code == 200
        assert patch({"status": "open"}).status_code == 200
        kinds = [e["kind"] for e in _events(server, "?table=quiet")]
        assert kinds[:4] == ["table_reopened", "table_closed", "limits_change", "paytable_change"]
        assert kinds[-1] == "table_change"  # the seed
        several = _events(server, "?kind=table_closed,paytable_change&kind=big_win")
        assert {e["kind"] for e in several} == {"table_closed", "paytable_change", "big_win"}
        # Time filters, paging, CSV.
        now = dt.datetime.now(dt.UTC)
        assert _events(server, f"?since={(now + dt.timedelta(hours=1)).isoformat()[:19]}") == []
        everything = _events(server)
        assert {"server_start", "big_win", "table_change"} <= {e["kind"] for e in everything}
        first = _events(server, "?limit=2")
        assert len(first) == 2
        response = client.get(
            f"/api/operator/events?limit=2&before={first[-1]['seq']}",
            headers={"Authorization": f"Bearer {server.operator_token()}"},
        )
        assert [e["seq"] for e in response.json()["events"]] == [e["seq"] for e in everything[2:4]]
        csv_text = client.get(
            "/api/operator/events?kind=big_win&format=csv",
            headers={"Authorization": f"Bearer {server.operator_token()}"},
        )
        assert csv_text.headers["content-type"].startswith("text/csv")
        rows = list(csv.DictReader(io.StringIO(csv_text.text)))
        assert len(rows) == 1 and rows[0]["kind"] == "big_win" and rows[0]["table"] == "casino"
        assert '"won":50400' in rows[0]["details"]
        # Bad filters are refused, naming what was wrong.
        headers = {"Authorization": f"Bearer {server.operator_token()}"}
        bad = client.get("/api/operator/events?kind=jackpot", headers=headers)
        assert bad.status_code == 422 and "jackpot" in bad.text
        assert (
            client.get("/api/operator/events?since=yesterday", headers=headers).status_code == 422
        )
        order = client.get(
            "/api/operator/events?since=2026-02-02&until=2026-02-01", headers=headers
        )
        assert order.status_code == 422
        assert client.get("/api/operator/events").status_code == 401
        # Every event is an entry of the chain, which still verifies.
        db = Database(f"sqlite:///{tmp_path / 'e.db'}")
        try:
            with db.session() as session:
                assert verify(session).ok
        finally:
            db.dispose()


def test_a_failed_rng_audit_is_a_significant_event(tmp_path: Path) -> None:
    app, clock, shoes = _app(tmp_path / "r.db")
    with TestClient(app) as client:
        server = Server(
            app=app, client=client, clock=clock, shoes=shoes, settings=app.state.settings
        )  # type: ignore[attr-defined]
        rng = np.random.default_rng(3)
        db: Database = app.state.db  # type: ignore[attr-defined]
        with db.session() as session:
            for _ in range(3000):  # the naive swap-with-any shuffle: biased, the battery fails it
                order = list(range(52))
                for i, j in enumerate(rng.integers(0, 52, size=52)):
                    order[i], order[j] = order[j], order[i]
                deck = format_cards(cards_from_ids(order), " ")
                row = rounds.open_round(
                    session, table="casino", game="uth", commitment=commit(salt="s", deck=deck),
                    salt="s", deck=deck,
                )  # fmt: skip
                row.status = RoundStatus.SETTLED.value
        headers = {"Authorization": f"Bearer {server.operator_token()}"}
        report = client.get("/api/operator/reports/rng?table=casino", headers=headers).json()
        assert report["passed"] is False
        (event,) = _events(server, "?kind=rng_audit_failed")
        details = event["details"]
        assert isinstance(details, dict)
        assert details["decks"] == 3000 and details["table"] == "casino" and details["failed"]
        assert event["actor"] == "boss"


def test_start_stop_and_a_crash_before(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    for _ in range(2):
        app, *_ = _app(path)
        with TestClient(app):  # type: ignore[arg-type]
            pass
    db = Database(f"sqlite:///{path}")
    try:
        record_start(db, node="local", details={})  # a start whose stop never came: killed
        app, *_ = _app(path)
        with TestClient(app):  # type: ignore[arg-type]
            pass
        with db.session() as session:
            rows = session.execute(
                select(AuditEntry.action, AuditEntry.details)
                .where(AuditEntry.action.like("event.server_%"))
                .order_by(AuditEntry.seq)
            ).all()
    finally:
        db.dispose()
    import json

    seen = [(a.removeprefix("event."), json.loads(d).get("previous_run")) for a, d in rows]
    assert seen == [
        ("server_start", "first"), ("server_stop", None),
        ("server_start", "stopped"), ("server_stop", None),
        ("server_start", "stopped"),  # the one recorded by hand above
        ("server_start", "crashed"), ("server_stop", None),
    ]  # fmt: skip


def test_a_step_of_the_wall_clock_is_recorded(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'c.db'}")
    db.migrate()
    wall, mono = [1_000.0], [50.0]
    watch = ClockWatch(
        db, node="n", step_seconds=2.0, every_seconds=10.0, wall=lambda: wall[0],
        monotonic=lambda: mono[0],
    )  # fmt: skip
    try:
        wall[0] += 10.5
        mono[0] += 10.0
        assert watch.check() is None  # half a second of drift: not a step
        wall[0] += 10.0 - 3600.0  # set back an hour
        mono[0] += 10.0
        assert watch.check() == pytest.approx(-3600.0)
        with db.session() as session:
            entry = session.scalars(
                select(AuditEntry).where(AuditEntry.action == "event." + Kind.CLOCK_STEP.value)
            ).one()
        assert '"step_seconds":-3600.0' in entry.details and entry.subject == "node:n"
    finally:
        db.dispose()
