"""The live return monitor and the significant events through a whole server (in process).

A biased deck source (the dealer always holds two Aces) is flagged low within the rounds
docs/operations.md states; the alert is a significant event, a Prometheus metric, a webhook
call and a row the operator investigates. A Blind pay table changed in the database behind
the audit log's back (the integrity check off, so the table runs) is flagged high: the
monitor's theory is the approved one. Players who fold every hand are not taken for a rigged
table, where a monitor of optimal play's return would have been well on its way to an alarm.
"""

from __future__ import annotations

import contextlib
import json
import random
import sqlite3
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest
from server_testkit import Seat, Server, ShoeStack, TestClient, free_port, make_settings, table_ws

from croupier.analysis.monitoring import Detector, Observation
from croupier.analysis.uth._symmetry import class_name, hand_class
from croupier.analysis.uth.strategy import load_preflop
from croupier.cards import DECK, Card
from croupier.deck import Shoe
from croupier.server.app import create_app
from croupier.server.operations import design
from croupier.server.tables.clock import ManualClock
from croupier.server.tables.config import TableConfig

pytestmark = pytest.mark.timeout(300)

CASINO = TableConfig(
    name="casino", game="uth", betting_seconds=10, decision_seconds=20, pause_seconds=0,
    rules={"max_seats": 6},
)  # fmt: skip
ANTE = 100


def seeded(seed: int) -> Callable[[], Shoe]:
    rng = random.Random(seed)

    def shoe() -> Shoe:
        cards = list(DECK)
        rng.shuffle(cards)
        return Shoe(tuple(cards))

    return shoe


def stacked_against(seed: int) -> Callable[[], Shoe]:
    """A broken deck source: shuffled, then the box dealt a Seven and a Deuce of two suits and
    the dealer two Aces (one box, seed 003's dealing: deck positions 0 and 2, 1 and 3)."""
    rng = random.Random(seed)

    def shoe() -> Shoe:
        cards = list(DECK)
        rng.shuffle(cards)
        seven = next(c for c in cards if str(c)[0] == "7")
        deuce = next(c for c in cards if str(c)[0] == "2" and str(c)[1] != str(seven)[1])
        aces = [c for c in cards if str(c)[0] == "A"][:2]
        top = [seven, aces[0], deuce, aces[1]]
        return Shoe((*top, *(c for c in cards if c not in top)))

    return shoe


@contextlib.contextmanager
def serving(url: str, shoe: Callable[[], Shoe], **settings: Any) -> Iterator[Server]:
    """A server with the monitor as deployed: in its own process (the test kit's servers
    run it as a thread)."""
    config = make_settings(url).model_copy(update={"rtp_monitor_process": True, **settings})
    clock = ManualClock()
    app = create_app(config, tables=[CASINO], clock=clock, shoe_factory=shoe)
    with TestClient(app) as client:
        yield Server(app=app, client=client, clock=clock, shoes=ShoeStack(), settings=config)


def play(
    server: Server, token: str, rounds: int, moves: list[str], *, stop: Callable[[], bool]
) -> int:
    """``rounds`` rounds at most of one box making ``moves``; stops early once ``stop()``
    (after the monitor took the round); the rounds played. A fresh socket every few rounds:
    one socket's bets and decisions are rate-limited as a person's would be."""
    played, per_socket = 0, 20 if len(moves) < 2 else 8
    while played < rounds:
        with table_ws(server.client, "casino", token) as ws:
            seat = Seat(ws)
            seat.welcome()
            seat.request({"type": "join"})
            for _ in range(min(per_socket, rounds - played)):
                played += 1
                bet = seat.request({"type": "bet", "key": f"r{played}", "bets": {"ante": ANTE}})
                assert bet["type"] == "ack", bet
                for move in moves:
                    seat.request({"type": "act", "action": move})
                seat.event("round_closed")
                # the first round starts the monitor's process (niced: slow on a loaded machine)
                if server.app.state.monitor is not None:
                    server.app.state.monitor.idle(240)
                if stop():
                    return played
    return played


def _get(server: Server, path: str) -> Any:
    response = server.client.get(
        path, headers={"Authorization": f"Bearer {server.operator_token()}"}
    )
    assert response.status_code == 200, response.text
    return response.json()


class _Hook(BaseHTTPRequestHandler):
    received: ClassVar[list[dict[str, Any]]] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        _Hook.received.append(json.loads(body))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        return None


@contextlib.contextmanager
def webhook() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    port = free_port()
    received: ClassVar[list[dict[str, Any]]] = []
    _Hook.received = received
    httpd = HTTPServer(("127.0.0.1", port), _Hook)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}/alerts", received
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


def test_a_biased_deck_is_flagged_investigated_and_told(tmp_path: Path) -> None:
    """docs/operations.md: a box dealt Seven-Deuce against the dealer's two Aces every round,
    playing 4x, is flagged within 300 rounds."""
    with (
        webhook() as (url, received),
        serving(
            f"sqlite:///{tmp_path / 'm.db'}", stacked_against(5), alert_webhook_url=url
        ) as server,
    ):
        _, token = server.player("alice", credit=1_000_000)
        alerts = lambda: _get(server, "/api/operator/alerts")["alerts"]  # noqa: E731
        played = play(server, token, 300, ["4x"], stop=lambda: bool(alerts()))
        raised = alerts()
        # the table's stream and those of its one player's stake band and channel, and of
        # the node, each an alert of its own, from the same round
        assert {a["stream"] for a in raised} == {
            "table:casino", "table:casino|band:0", "table:casino|channel:api", "node:local",
        }  # fmt: skip
        assert {a["round_id"] for a in raised} == {raised[0]["round_id"]}
        alert = next(a for a in raised if a["stream"] == "table:casino")
        assert alert["side"] == "low" and alert["table"] == "casino", alert
        assert alert["actual_return"] < alert["theoretical_return"]
        assert alert["rounds"] == played
        # the significant event, in the audit chain
        events = _get(server, "/api/operator/events?kind=rtp_alert")["events"]
        assert {e["details"]["alert_id"] for e in events} >= {alert["id"]}
        # the metric
        metrics = server.client.get("/metrics").text
        assert 'croupier_rtp_alerts_open{side="low",table="casino"}' in metrics
        # the webhook
        assert any(r["alert"]["id"] == alert["id"] for r in received)
        # the investigation: a note keeps it open, an outcome closes it
        path = f"/api/operator/alerts/{alert['id']}/investigation"
        post = lambda body: server.operator_post(path, body)  # noqa: E731
        assert post({"outcome": "bogus", "note": "x"}).status_code == 422
        noted = post({"outcome": "in_progress", "note": "deck source under review"})
        assert noted.status_code == 200 and noted.json()["status"] == "open"
        closed = post({"outcome": "fault_found", "note": "the shuffler was replaced"}).json()
        assert closed["status"] == "closed" and closed["outcome"] == "fault_found"
        assert [n["outcome"] for n in closed["notes"]] == ["in_progress", "fault_found"]
        assert post({"outcome": "no_fault", "note": "again"}).status_code == 422
        kinds = [e["kind"] for e in _get(server, "/api/operator/events")["events"]]
        assert kinds.count("rtp_investigation") == 2
        assert alert["id"] not in {a["id"] for a in alerts()}
        monitor = _get(server, "/api/operator/monitor")
        keys = {s["key"] for s in monitor["streams"]}
        assert {
            "table:casino",
            "table:casino|band:0",
            "table:casino|channel:api",
            "node:local",
        } <= keys


def _rig_blind_in_the_database(path: Path) -> None:
    """What someone with write access to the database does: the casino table's Blind pays 5:1
    on any pair or better, with no audit entry."""
    with contextlib.closing(sqlite3.connect(path)) as con:
        (config,) = con.execute("SELECT config FROM casino_tables WHERE name='casino'").fetchone()
        data = json.loads(config)
        data["rules"]["blind_paytable"] = {
            "royal_flush": "500:1", "straight_flush": "5:1", "four_of_a_kind": "5:1",
            "full_house": "5:1", "flush": "5:1", "straight": "5:1",
            "three_of_a_kind": "5:1", "two_pair": "5:1", "pair": "5:1",
        }  # fmt: skip
        con.execute("UPDATE casino_tables SET config=? WHERE name='casino'", (json.dumps(data),))
        con.commit()


def test_a_pay_table_changed_in_the_database_is_measured_against_the_approved_one(
    tmp_path: Path,
) -> None:
    """With the integrity check off (on, it closes the table: tests/operations/
    test_integrity.py) the table pays the rigged Blind table, and the monitor still measures
    it against the audit log's approved one: each box's expectation is its 4x value under
    the spec's Blind table, so the evidence that the table pays too much grows (a flag within
    the rounds docs/operations.md states: tests/operations/test_monitor.py)."""
    url = f"sqlite:///{tmp_path / 'rig.db'}"
    with serving(url, seeded(1)):
        pass  # seeded and approved in the audit log
    _rig_blind_in_the_database(tmp_path / "rig.db")
    with serving(url, seeded(2), integrity_check=False) as server:
        tables = _get(server, "/api/operator/tables")
        assert tables[0]["paytables"]["blind"]["pair"] == "5:1"  # it runs rigged
        _, token = server.player("bob", credit=10_000_000)
        rounds = 80
        play(server, token, rounds, ["4x"], stop=lambda: False)
        stream = next(
            s
            for s in _get(server, "/api/operator/monitor")["streams"]
            if s["key"] == "table:casino"
        )
    expected = 0.0
    values = {e.hand: e.ev_4x for e in load_preflop()}
    with contextlib.closing(sqlite3.connect(tmp_path / "rig.db")) as con:
        for (record,) in con.execute("SELECT record FROM rounds WHERE status='settled'"):
            deck = json.loads(record)["deck"].split()
            first, second = (Card.parse(c).id for c in (deck[0], deck[2]))
            expected += float(values[class_name(hand_class(first, second))]) * ANTE
    assert stream["rounds"] == rounds
    assert stream["theoretical_return"] == pytest.approx(1 + expected / (rounds * ANTE))
    assert stream["actual_return"] > stream["theoretical_return"]
    assert stream["evidence"]["high"] > 0


def test_players_who_fold_every_hand_are_not_taken_for_a_rigged_table(tmp_path: Path) -> None:
    """Check, check, fold: two Antes lost every round. Each box is compared with its own
    decisions' value, so no alarm; compared with optimal play's return (what a monitor
    without the decisions would do) the same rounds build strong evidence of a table paying
    too little."""
    with serving(f"sqlite:///{tmp_path / 'f.db'}", seeded(3)) as server:
        _, token = server.player("carol", credit=1_000_000)
        rounds = 120
        play(server, token, rounds, ["check", "check", "fold"], stop=lambda: False)
        assert _get(server, "/api/operator/alerts?status=all")["alerts"] == []
        stream = next(
            s
            for s in _get(server, "/api/operator/monitor")["streams"]
            if s["key"] == "table:casino"
        )
        assert stream["rounds"] == rounds and stream["net"] == -2 * ANTE * rounds
        assert stream["evidence"]["low"] < 1.0
        optimal = Detector.new()
        from croupier.analysis.uth.moments import load_default_outcomes, moments
        from croupier.analysis.uth.paytables import DEFAULT_TRIPS

        mean, variance = moments(load_default_outcomes(), DEFAULT_TRIPS).box(ANTE, 0)
        fold = Observation(net=-2 * ANTE, mean=mean, loss=6 * ANTE, variance=2 * variance)
        needed = 0  # every round of theirs is the same: -2 Antes
        while not optimal.alarm(threshold=design(server.settings)["threshold"]):
            optimal.update(fold)
            needed += 1
        assert needed < 600  # it would have flagged them after 520 rounds
