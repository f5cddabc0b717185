"""The server's side of issue 15 (the player's table): the cashier (demo credit, deposit
requests an operator approves), the ``balance`` frame, a live round's winners, Hold'em's
"leave after this hand", history paging, and refusals that carry a reason to word."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from server_cluster import SQLITE_AND_CLUSTER, SQLITE_AND_CLUSTER_SLOW
from server_testkit import (
    Seat,
    Server,
    ServerFactory,
    ShoeStack,
    TestClient,
    make_settings,
    table_ws,
)
from server_testkit import test_tables as uth_tables

from croupier.server.app import create_app
from croupier.server.tables.clock import ManualClock
from croupier.server.tables.config import TableConfig

pytestmark = pytest.mark.timeout(60)

HOLDEM = TableConfig(
    name="holdem",
    game="holdem",
    decision_seconds=30,
    pause_seconds=5,
    rules={"small_blind": 50, "big_blind": 100, "min_buy_in": 2_000, "max_buy_in": 10_000},
)
THREE = "Ks 7c As Kh 2d Ah 3s Qd 9h 4s 5c Jc 6d 8d"


def _server(tmp_path: Path, **settings: object) -> Iterator[Server]:
    base = make_settings(f"sqlite:///{tmp_path / 'p.db'}")
    config = base.model_copy(update=settings)
    clock, shoes = ManualClock(), ShoeStack()
    app = create_app(config, tables=[*uth_tables(), HOLDEM], clock=clock, shoe_factory=shoes)
    with TestClient(app) as client:
        yield Server(app=app, client=client, clock=clock, shoes=shoes, settings=config)


@pytest.fixture
def demo(tmp_path: Path) -> Iterator[Server]:
    yield from _server(tmp_path, demo=True, demo_credit=50_000, demo_balance_cap=80_000)


@pytest.fixture
def casino(table_server: ServerFactory) -> Server:
    """UTH and Hold'em tables on the test's backend (SQLite, or through a two-process
    cluster: tests/server/server_cluster.py)."""
    return table_server([*uth_tables(), HOLDEM])


SQLITE = pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_demo_credit_is_bounded_by_the_cap_and_a_wait(demo: Server) -> None:
    _, token = demo.player("demo-ann")
    info = demo.client.get("/api/cashier", headers=_auth(token)).json()
    assert info["demo"] is True and info["demo_cap"] == 80_000
    first = demo.client.post("/api/cashier/demo-credit", headers=_auth(token))
    assert first.status_code == 200 and first.json()["balance"] == 50_000
    soon = demo.client.post("/api/cashier/demo-credit", headers=_auth(token))
    assert soon.status_code == 429
    error = soon.json()["error"]
    assert error["reason"] == "demo_too_soon" and error["params"]["seconds"] >= 1
    assert demo.balance(token) == 50_000  # nothing moved
    # After the wait, a credit tops the balance up to the cap, never past it.
    demo.app.state.demo_credits.forget(
        demo.client.get("/api/auth/me", headers=_auth(token)).json()["id"]
    )
    second = demo.client.post("/api/cashier/demo-credit", headers=_auth(token))
    assert second.json()["amount"] == 30_000 and second.json()["balance"] == 80_000
    demo.app.state.demo_credits.forget(
        demo.client.get("/api/auth/me", headers=_auth(token)).json()["id"]
    )
    full = demo.client.post("/api/cashier/demo-credit", headers=_auth(token))
    assert full.status_code == 409
    assert full.json()["error"]["reason"] == "demo_balance_full"
    assert full.json()["error"]["params"] == {"cap": 80_000, "balance": 80_000}
    # In demo mode there are no deposit requests.
    refused = demo.client.post(
        "/api/cashier/deposits", json={"amount": 1_000}, headers=_auth(token)
    )
    assert refused.status_code == 403 and refused.json()["error"]["reason"] == "deposits_in_demo"


@SQLITE
def test_no_demo_credit_outside_demo_mode(casino: Server) -> None:
    _, token = casino.player("real-bob")
    refused = casino.client.post("/api/cashier/demo-credit", headers=_auth(token))
    assert refused.status_code == 403 and refused.json()["error"]["reason"] == "demo_off"
    assert casino.balance(token) == 0


@SQLITE
def test_a_deposit_request_approved_credits_once_and_the_table_hears_it(casino: Server) -> None:
    user_id, token = casino.player("depositor", credit=1_000)
    other_id, other = casino.player("other")
    body = {"amount": 25_000}
    made = casino.client.post("/api/cashier/deposits", json=body, headers=_auth(token))
    assert made.status_code == 201 and made.json()["status"] == "pending"
    request_id = made.json()["id"]
    # Another player neither sees nor cancels it.
    assert casino.client.get("/api/cashier/deposits", headers=_auth(other)).json() == []
    foreign = casino.client.post(f"/api/cashier/deposits/{request_id}/cancel", headers=_auth(other))
    assert foreign.status_code == 404
    # Nor may a player approve it.
    player_try = casino.client.post(
        f"/api/operator/deposits/{request_id}/approve", json={}, headers=_auth(token)
    )
    assert player_try.status_code == 403
    queue = casino.client.get(
        "/api/operator/deposits", headers=_auth(casino.operator_token())
    ).json()
    assert [(r["id"], r["username"], r["amount"]) for r in queue] == [
        (request_id, "depositor", 25_000)
    ]
    with table_ws(casino.client, "casino", token) as ws:
        seat = Seat(ws)
        seat.welcome()
        approved = casino.operator_post(f"/api/operator/deposits/{request_id}/approve", {})
        assert approved.status_code == 200 and approved.json()["balance"] == 26_000
        # The player's open table socket gets the new balance at once (no reload).
        frame = seat.until(lambda f: f["type"] == "balance")
        assert frame == {"type": "balance", "balance": 26_000}
    again = casino.operator_post(f"/api/operator/deposits/{request_id}/approve", {})
    assert again.status_code == 409
    assert again.json()["error"]["reason"] == "deposit_not_pending"
    assert casino.balance(token) == 26_000  # credited once
    assert casino.ledger()["player"] == 26_000
    assert other_id != user_id


@SQLITE
def test_deposit_requests_are_bounded_cancelled_and_refused(casino: Server) -> None:
    _, token = casino.player("asker")
    low = casino.client.post("/api/cashier/deposits", json={"amount": 1}, headers=_auth(token))
    assert low.status_code == 422
    assert low.json()["error"]["reason"] == "deposit_out_of_range"
    assert low.json()["error"]["params"]["min"] == casino.settings.deposit_min
    ids = []
    for _ in range(casino.settings.deposit_pending_max):
        made = casino.client.post(
            "/api/cashier/deposits", json={"amount": 900}, headers=_auth(token)
        )
        ids.append(made.json()["id"])
    over = casino.client.post("/api/cashier/deposits", json={"amount": 900}, headers=_auth(token))
    assert over.status_code == 409 and over.json()["error"]["reason"] == "deposit_pending_limit"
    cancelled = casino.client.post(f"/api/cashier/deposits/{ids[0]}/cancel", headers=_auth(token))
    assert cancelled.json()["status"] == "cancelled"
    refused = casino.operator_post(f"/api/operator/deposits/{ids[1]}/refuse", {"note": "id?"})
    assert refused.json()["status"] == "refused"
    late = casino.operator_post(f"/api/operator/deposits/{ids[0]}/approve", {})
    assert late.status_code == 409
    mine = casino.client.get("/api/cashier/deposits", headers=_auth(token)).json()
    assert [r["status"] for r in mine] == ["pending", "refused", "cancelled"]
    assert casino.balance(token) == 0


@SQLITE
def test_an_operator_credit_reaches_the_players_sockets(casino: Server) -> None:
    user_id, token = casino.player("credited")
    with table_ws(casino.client, "casino", token) as ws:
        seat = Seat(ws)
        seat.welcome()
        casino.operator_post(f"/api/operator/accounts/{user_id}/credit", {"amount": 4_200})
        assert seat.until(lambda f: f["type"] == "balance")["balance"] == 4_200


@SQLITE_AND_CLUSTER
def test_a_live_round_announces_its_biggest_winners_in_one_frame(casino: Server) -> None:
    # Shared hand (seat -1) As Ad; dealer 7c 2d; board 3s Kh 9c 5d Jh: the players win.
    casino.shoes.push("As 7c Ad 2d 4h 3s Kh 9c 8h 5d 6s Jh")
    tokens = [casino.player(f"live{i}", credit=50_000)[1] for i in range(3)]
    with ExitStack() as stack:
        seats = []
        for token in tokens:
            seat = Seat(stack.enter_context(table_ws(casino.client, "live", token)))
            seat.welcome()
            seat.request({"type": "join"})
            seats.append(seat)
        for i, seat in enumerate(seats):
            ante = 100 * (i + 1)
            ack = seat.request({"type": "bet", "key": uuid.uuid4().hex, "bets": {"ante": ante}})
            assert ack["type"] == "ack", ack
        for seat in seats:
            seat.event("decisions_open")
            assert seat.request({"type": "act", "action": "4x"})["type"] == "ack"
        closed = [seat.event("round_closed") for seat in seats]
    winners = closed[0]["winners"]
    # Everyone got the same list, largest first, with display names.
    assert all(c["winners"] == winners for c in closed)
    assert [w["name"] for w in winners] == ["live2", "live1", "live0"]
    nets = [w["net"] for w in winners]
    assert nets == sorted(nets, reverse=True) and all(n > 0 for n in nets)


@SQLITE_AND_CLUSTER_SLOW
def test_leave_after_this_hand_holds_on_the_server(casino: Server) -> None:
    server = casino
    server.shoes.push(THREE)
    with ExitStack() as stack:
        players = []
        for index, name in enumerate(["stayer", "goer"]):
            _, token = server.player(name, credit=20_000)
            seat = Seat(stack.enter_context(table_ws(server.client, "holdem", token)))
            seat.welcome()
            seat.request({"type": "join", "seat": index})
            seat.request({"type": "buy_in", "key": f"in-{name}", "amount": 5_000})
            players.append((seat, token))
        (stay, _), (go, go_token) = players
        server.clock.advance(5)
        go.event("round_opened")
        flagged = go.request({"type": "leave", "after_hand": True})
        assert flagged["result"] == {"seat": 1, "leaving": True}
        state = go.until(
            lambda f: f["type"] == "state" and any(s.get("leaving") for s in f["table"]["seats"])
        )
        assert [s["seat"] for s in state["table"]["seats"] if s["leaving"]] == [1]
        # Both stay connected; the hand plays out on timers. The flagged seat leaves
        # when it ends -- not before, and without sending anything more.
        for _ in range(10):
            server.clock.advance(30)
        left = stay.event("left")
        assert left["seat"] == 1 and left["username"] == "goer"
        kinds = [f["event"]["kind"] for f in stay.frames if f["type"] == "event"]
        assert kinds.index("round_closed") < kinds.index("left")
        assert server.balance(go_token) == 15_000 + left["cashed_out"]
        mine = go.request({"type": "leave"})
        assert mine["type"] == "error" and mine["reason"] == "not_seated"
    ledger = server.ledger()
    assert ledger["player"] + ledger["escrow"] == 40_000


@SQLITE_AND_CLUSTER_SLOW
def test_history_pages_back_through_a_players_own_rounds(casino: Server) -> None:
    _, token = casino.player("pager", credit=100_000)
    _, other = casino.player("stranger", credit=100_000)
    with table_ws(casino.client, "casino", token) as ws:
        seat = Seat(ws)
        seat.welcome()
        seat.request({"type": "join"})
        for _ in range(12):
            seat.request({"type": "bet", "key": uuid.uuid4().hex, "bets": {"ante": 100}})
            for action in ("4x",):  # one decision a round: within the rate limits
                seat.event("decisions_open")
                answer = seat.request({"type": "act", "action": action})
                assert answer["type"] == "ack", answer
            seat.event("round_closed")
    first = casino.client.get("/api/rounds?limit=10", headers=_auth(token)).json()
    assert len(first) == 10
    older = casino.client.get(
        f"/api/rounds?limit=10&before={first[-1]['id']}", headers=_auth(token)
    ).json()
    assert len(older) == 2 and all(r["id"] < first[-1]["id"] for r in older)
    ids = [r["id"] for r in first + older]
    assert ids == sorted(ids, reverse=True) and len(set(ids)) == 12
    # Another player's history has none of them.
    assert casino.client.get("/api/rounds?limit=10", headers=_auth(other)).json() == []
    bad = casino.client.get("/api/rounds?before=0", headers=_auth(token))
    assert bad.status_code == 422


@SQLITE_AND_CLUSTER_SLOW
def test_refusals_carry_reasons_and_money_in_minor_units(casino: Server) -> None:
    _, token = casino.player("short", credit=150)
    with table_ws(casino.client, "casino", token) as ws:
        seat = Seat(ws)
        seat.welcome()
        refused = seat.request({"type": "join"})
        assert refused["reason"] == "seat_needs_funds"
        assert refused["params"] == {"need": 200, "balance": 150}
    weak = casino.client.post(
        "/api/auth/register", json={"username": "w-1", "password": "password12"}
    )
    error = weak.json()["error"]
    assert error["reason"] == "password_weak" and error["params"]["warning"] in (
        "top10",
        "top100",
        "common",
        "similar_common",
    )
    taken = casino.client.post("/api/auth/register", json={"username": "SHORT", "password": "x"})
    assert taken.json()["error"]["reason"] in ("username_taken", "password_length")
    wrong = casino.client.post("/api/auth/login", json={"username": "short", "password": "nope"})
    assert wrong.json()["error"]["reason"] == "login_failed"
