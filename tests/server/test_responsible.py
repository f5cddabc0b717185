"""Responsible gaming (issue 16): limits with their 24-hour raises, what is used, deposit
limits at the cage, self-exclusion, the reality check, and the tables that apply them; over
HTTP and WebSockets on SQLite and PostgreSQL."""

from __future__ import annotations

import datetime as dt
import uuid
from contextlib import ExitStack
from typing import Any

import pytest
from server_cluster import THROUGH_CLUSTER, THROUGH_CLUSTER_SLOW
from server_testkit import Seat, Server, ServerFactory, table_ws, test_tables
from sqlalchemy import update

from croupier.errors import IllegalActionError
from croupier.server.accounts.models import AuthToken
from croupier.server.db import Database
from croupier.server.responsible import limits
from croupier.server.responsible.models import LimitKind, Period, PlayerLimit
from croupier.server.tables import rounds
from croupier.server.tables.cash_ledger import stack_account
from croupier.server.tables.config import TableConfig
from croupier.server.tables.models import Round
from croupier.server.wallet import service as wallet
from croupier.server.wallet.models import LedgerTransaction, TransactionKind

pytestmark = pytest.mark.timeout(120)

HOLDEM = TableConfig(
    name="holdem",
    game="holdem",
    decision_seconds=30,
    pause_seconds=5,
    rules={"small_blind": 50, "big_blind": 100, "min_buy_in": 2_000, "max_buy_in": 10_000},
)


@pytest.fixture
def casino(table_server: ServerFactory) -> Server:
    """UTH and Hold'em tables on SQLite or PostgreSQL; the table tests also through a
    two-process cluster (THROUGH_CLUSTER: tests/server/server_cluster.py)."""
    return table_server([*test_tables(), HOLDEM])


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _put(server: Server, token: str, body: Any) -> Any:
    return server.client.put("/api/me/limits", json=body, headers=_auth(token))


def _limits(server: Server, token: str) -> dict[str, Any]:
    response = server.client.get("/api/me/limits", headers=_auth(token))
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def _age_pending(server: Server, hours: float) -> None:
    """Move every pending raise ``hours`` into the past (as if that time had passed)."""
    db: Database = server.app.state.db
    with db.session() as session:
        for row in session.query(PlayerLimit).where(PlayerLimit.pending_at.is_not(None)):
            assert row.pending_at is not None
            row.pending_at -= dt.timedelta(hours=hours)


# -- the definitions, against the database ------------------------------------------------------


def _round(
    session: Any, *, user: int, staked: int, returned: int | None, status: str, days_ago: float
) -> None:
    row = rounds.open_round(session, table="casino", game="uth", commitment="c" * 64, salt="s",
                            deck="d")  # fmt: skip
    rounds.stake(session, round_id=row.id, user_id=user, seat=0, amount=staked,
                 idempotency_key=uuid.uuid4().hex)  # fmt: skip
    if status == "settled":
        assert returned is not None
        rounds.settle_round(session, round_id=row.id, returns={user: returned}, record={},
                            summary={})  # fmt: skip
    elif status == "voided":
        rounds.void_round(session, round_id=row.id, reason="test")
    when = dt.datetime.now(dt.UTC) - dt.timedelta(days=days_ago)
    session.execute(
        update(Round)
        .where(Round.id == row.id)
        .values(created_at=when, closed_at=when if status != "open" else None)
    )


def test_usage_follows_the_documented_definitions(db: Database, make_user: Any) -> None:
    user = make_user("alice")
    with db.session() as session:
        wallet.credit(session, user_id=user, amount=50_000, idempotency_key="d1")
        old = wallet.credit(session, user_id=user, amount=7_000, idempotency_key="d2")
        session.execute(
            update(LedgerTransaction)
            .where(LedgerTransaction.id == old.transaction_id)
            .values(created_at=dt.datetime.now(dt.UTC) - dt.timedelta(days=3))
        )
        _round(session, user=user, staked=3_000, returned=1_000, status="settled", days_ago=0)
        _round(session, user=user, staked=2_000, returned=5_000, status="settled", days_ago=2)
        _round(session, user=user, staked=4_000, returned=0, status="settled", days_ago=10)
        _round(session, user=user, staked=500, returned=None, status="voided", days_ago=0)
        _round(session, user=user, staked=700, returned=None, status="open", days_ago=0)
        # chips on a Hold'em table are at risk too
        stack = stack_account(session, table="holdem", user_id=user)
        wallet.post(session, kind=TransactionKind.TRANSFER,
                    legs=[(wallet.player_account(session, user_id=user), -1_200), (stack, 1_200)],
                    user_id=user)  # fmt: skip
    with db.session() as session:
        used = limits.usage(session, user_id=user, now=dt.datetime.now(dt.UTC))
    day, week, month = Period.DAY, Period.WEEK, Period.MONTH
    assert used.deposits == {day: 50_000, week: 57_000, month: 57_000}
    # wagered: stakes of rounds opened in the window, voided ones excluded, open ones in
    assert used.wagered == {day: 3_700, week: 5_700, month: 9_700}
    # lost: stakes minus returns of rounds settled in the window (a win is negative)
    assert used.lost == {day: 2_000, week: -1_000, month: 3_000}
    assert used.at_risk == 700 + 1_200
    with db.session() as session:
        session.add(PlayerLimit(user_id=user, kind="loss", period="day", amount=5_000,
                                pending_remove=False, updated_at=dt.datetime.now(dt.UTC)))  # fmt: skip
    with db.session() as session:
        # 5,000 - 2,000 lost - 1,900 at risk: 1,100 left today
        limits.check_stake(session, user_id=user, amount=1_100)
        with pytest.raises(IllegalActionError) as refused:
            limits.check_stake(session, user_id=user, amount=1_101)
    assert refused.value.reason == "loss_limit"
    assert refused.value.params == {"period": "day", "limit": 5_000, "left": 1_100, "amount": 1_101}


# -- the limits API -----------------------------------------------------------------------------


def test_lowering_applies_at_once_raising_after_24_hours(casino: Server) -> None:
    _, token = casino.player("alice")
    first = _put(casino, token, {"loss": {"day": 5_000, "week": 20_000}, "wager": {"month": 10**6}})
    assert first.status_code == 200, first.text
    body = first.json()
    assert {(c["kind"], c["period"], c["effective"]) for c in body["changes"]} == {
        ("loss", "day", "now"), ("loss", "week", "now"), ("wager", "month", "now"),
    }  # fmt: skip
    assert body["limits"]["loss"]["day"] == {
        "limit": 5_000,
        "used": 0,
        "left": 5_000,
        "pending": None,
    }
    assert body["limits"]["deposit"]["day"]["limit"] is None
    lower = _put(casino, token, {"loss": {"day": 3_000}}).json()
    assert lower["limits"]["loss"]["day"]["limit"] == 3_000
    raised = _put(casino, token, {"loss": {"day": 8_000}, "wager": {"month": None}}).json()
    day = raised["limits"]["loss"]["day"]
    assert day["limit"] == 3_000 and day["pending"]["limit"] == 8_000
    waits = dt.datetime.fromisoformat(day["pending"]["from"]) - dt.datetime.now(dt.UTC)
    assert dt.timedelta(hours=23, minutes=59) < waits <= dt.timedelta(hours=24)
    assert raised["limits"]["wager"]["month"]["pending"]["limit"] is None
    _age_pending(casino, 23)
    assert _limits(casino, token)["limits"]["loss"]["day"]["limit"] == 3_000
    _age_pending(casino, 1.01)
    now = _limits(casino, token)["limits"]
    assert now["loss"]["day"] == {"limit": 8_000, "used": 0, "left": 8_000, "pending": None}
    assert now["wager"]["month"]["limit"] is None
    # a raise asked for and then taken back (lowered to what is in force) is cancelled
    _put(casino, token, {"loss": {"week": 40_000}})
    back = _put(casino, token, {"loss": {"week": 20_000}}).json()
    assert back["limits"]["loss"]["week"] == {
        "limit": 20_000, "used": 0, "left": 20_000, "pending": None,
    }  # fmt: skip
    log = casino.client.get(
        "/api/operator/audit", params={"limit": 100}, headers=_auth(casino.operator_token())
    ).json()["entries"]
    assert [e["action"] for e in log].count("limits.set") == 5


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"loss": {"day": -1}}, "loss.day"),
        ({"loss": {"day": 10.5}}, "loss.day"),
        ({"loss": {"day": "100"}}, "loss.day"),
        ({"loss": {"day": True}}, "loss.day"),
        ({"loss": {"year": 100}}, "loss.year"),
        ({"spend": {"day": 100}}, "spend"),
        ({"wager": {"week": 10**13}}, "wager.week"),
        ({}, "limits"),
        ([], "body"),
    ],
)
def test_bad_limits_name_the_field_and_change_nothing(
    casino: Server, body: Any, field: str
) -> None:
    _, token = casino.player("alice")
    assert _put(casino, token, {"loss": {"day": 5_000}}).status_code == 200
    before = _limits(casino, token)
    response = _put(casino, token, body)
    assert response.status_code == 422
    assert field in response.json()["error"]["message"], response.json()
    assert _limits(casino, token) == before


def test_deposit_limits_and_the_cage(casino: Server) -> None:
    user_id, token = casino.player("alice")
    assert _put(casino, token, {"deposit": {"day": 10_000}}).status_code == 200
    op = {**_auth(casino.operator_token())}

    def credit(amount: int, key: str) -> Any:
        return casino.client.post(
            "/api/operator/cage/alice/credit",
            json={"amount": amount, "reason": "cash at the window"},
            headers={**op, "Idempotency-Key": key},
        )

    assert credit(6_000, "c1").status_code == 200
    over = credit(5_000, "c2")
    assert over.status_code == 409 and over.json()["error"]["reason"] == "deposit_limit"
    assert over.json()["error"]["params"] == {
        "period": "day", "limit": 10_000, "left": 4_000, "amount": 5_000,
    }  # fmt: skip
    again = credit(6_000, "c1")  # the first credit retried: replayed, not refused
    assert again.status_code == 200 and again.json()["replayed"] is True
    # the numeric-id route applies the same limit
    old = casino.operator_post(f"/api/operator/accounts/{user_id}/credit", {"amount": 4_001})
    assert old.status_code == 409 and old.json()["error"]["reason"] == "deposit_limit"
    assert credit(4_000, "c3").status_code == 200
    assert casino.balance(token) == 10_000
    view = _limits(casino, token)["limits"]["deposit"]["day"]
    assert (view["used"], view["left"]) == (10_000, 0)


def test_the_cage_by_username(casino: Server) -> None:
    _, token = casino.player("Alice")
    op = _auth(casino.operator_token())

    def post(path: str, body: Any, key: str = "") -> Any:
        return casino.client.post(
            path, json=body, headers={**op, "Idempotency-Key": key or uuid.uuid4().hex}
        )

    paid = post("/api/operator/cage/alice/credit", {"amount": 12_345, "reason": "  deposit  "})
    assert paid.status_code == 200, paid.text
    assert paid.json()["username"] == "Alice" and paid.json()["balance"] == 12_345
    out = post("/api/operator/cage/ALICE/debit", {"amount": 2_345, "reason": "withdrawal"})
    assert out.status_code == 200 and out.json()["balance"] == 10_000
    for body, field in (
        ({"amount": 100}, "reason"),
        ({"amount": 100, "reason": "   "}, "reason"),
        ({"amount": 100, "reason": "x" * 201}, "reason"),
        ({"amount": -100, "reason": "r"}, "amount"),
        ({"amount": 1.5, "reason": "r"}, "amount"),
        ({"amount": "100", "reason": "r"}, "amount"),
        ({"amount": 100, "reason": "r", "memo": "m"}, "memo"),
    ):
        refused = post("/api/operator/cage/alice/credit", body)
        assert refused.status_code == 422 and field in refused.json()["error"]["message"], body
    nobody = post("/api/operator/cage/nobody/credit", {"amount": 100, "reason": "r"})
    assert nobody.status_code == 404 and nobody.json()["error"]["reason"] == "user_not_found"
    broke = post("/api/operator/cage/alice/debit", {"amount": 10_001, "reason": "r"})
    assert broke.status_code == 409 and broke.json()["error"]["code"] == "insufficient_funds"
    no_key = casino.client.post(
        "/api/operator/cage/alice/credit", json={"amount": 1, "reason": "r"}, headers=op
    )
    assert no_key.status_code == 422 and "idempotency-key" in no_key.json()["error"]["message"]
    player = casino.client.post(
        "/api/operator/cage/alice/credit", json={"amount": 1, "reason": "r"},
        headers={**_auth(token), "Idempotency-Key": "x"},
    )  # fmt: skip
    assert player.status_code == 403
    assert casino.balance(token) == 10_000
    view = casino.client.get("/api/operator/cage/alice", headers=op).json()
    assert view["balance"] == 10_000 and view["username"] == "Alice"
    assert [(m["kind"], m["amount"], m["memo"]) for m in view["movements"]] == [
        ("debit", -2_345, "withdrawal"), ("credit", 12_345, "deposit"),
    ]  # fmt: skip
    found = casino.client.get("/api/operator/players", params={"q": "al"}, headers=op).json()
    assert [p["username"] for p in found] == ["Alice"]
    log = casino.client.get("/api/operator/audit", headers=op).json()["entries"]
    cage = [e for e in log if e["action"].startswith("cage.")]
    assert [(e["action"], e["details"]["reason"], e["details"]["amount"]) for e in cage] == [
        ("cage.debit", "withdrawal", 2_345), ("cage.credit", "deposit", 12_345),
    ]  # fmt: skip


# -- self-exclusion -----------------------------------------------------------------------------


def _login(server: Server, username: str) -> dict[str, Any]:
    from server_testkit import PASSWORD

    response = server.client.post(
        "/api/auth/login", json={"username": username, "password": PASSWORD}
    )
    assert response.status_code == 200
    body: dict[str, Any] = response.json()
    return body


@THROUGH_CLUSTER_SLOW
def test_self_exclusion_refuses_seats_and_deposits_and_cannot_be_lifted(casino: Server) -> None:
    user_id, token = casino.player("alice", credit=10_000)
    assert _login(casino, "alice")["self_exclusion"] is None
    response = casino.client.post("/api/me/self-exclusion", json={"days": 7}, headers=_auth(token))
    assert response.status_code == 201, response.text
    until = dt.datetime.fromisoformat(response.json()["until"])
    assert abs(until - dt.datetime.now(dt.UTC) - dt.timedelta(days=7)) < dt.timedelta(minutes=1)
    login = _login(casino, "alice")["self_exclusion"]
    assert login["until"] == response.json()["until"] and login["permanent"] is False
    with table_ws(casino.client, "casino", token) as ws:
        seat = Seat(ws)
        seat.welcome()
        refused = seat.request({"type": "join"})
        assert refused["code"] == "forbidden" and refused["reason"] == "self_excluded"
        assert refused["params"]["until"] == response.json()["until"]
    deposit = casino.operator_post(f"/api/operator/accounts/{user_id}/credit", {"amount": 100})
    assert deposit.status_code == 403 and deposit.json()["error"]["reason"] == "self_excluded"
    shorter = casino.client.post("/api/me/self-exclusion", json={"days": 3}, headers=_auth(token))
    assert shorter.status_code == 409
    assert shorter.json()["error"]["reason"] == "self_exclusion_in_force"
    # an operator re-enabling the account does not lift it either
    enable = casino.operator_post(f"/api/operator/accounts/{user_id}/enable", {})
    assert enable.status_code == 200
    assert _login(casino, "alice")["self_exclusion"]["until"] == response.json()["until"]
    forever = casino.client.post(
        "/api/me/self-exclusion", json={"permanent": True}, headers=_auth(token)
    )
    assert forever.status_code == 201 and forever.json()["until"] is None
    assert _limits(casino, token)["self_exclusion"]["permanent"] is True
    assert casino.balance(token) == 10_000  # the money stays the player's (the cage pays out)
    out = casino.client.post(
        "/api/operator/cage/alice/debit", json={"amount": 10_000, "reason": "paid out"},
        headers={**_auth(casino.operator_token()), "Idempotency-Key": "out"},
    )  # fmt: skip
    assert out.status_code == 200
    actions = [
        e["action"]
        for e in casino.client.get(
            "/api/operator/audit", headers=_auth(casino.operator_token())
        ).json()["entries"]
    ]
    assert actions.count("self_exclusion.start") == 2


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "either days or permanent"),
        ({"days": 0}, "days"),
        ({"days": -3}, "days"),
        ({"days": 3651}, "days"),
        ({"days": 2.5}, "days"),
        ({"days": "7"}, "days"),
        ({"permanent": False}, "permanent"),
        ({"permanent": "yes"}, "permanent"),
        ({"days": 7, "permanent": True}, "either days or permanent"),
        ({"weeks": 1}, "weeks"),
    ],
)
def test_bad_self_exclusions_are_refused(casino: Server, body: Any, field: str) -> None:
    _, token = casino.player("alice")
    response = casino.client.post("/api/me/self-exclusion", json=body, headers=_auth(token))
    assert response.status_code == 422
    assert field in response.json()["error"]["message"]
    assert _limits(casino, token)["self_exclusion"] is None


def _ready_pair(server: Server, stack: ExitStack) -> list[tuple[Seat, str]]:
    seats = []
    for index, name in enumerate(("alice", "bob")):
        _, token = server.player(name, credit=20_000)
        seat = Seat(stack.enter_context(table_ws(server.client, "holdem", token)))
        seat.welcome()
        assert seat.request({"type": "join", "seat": index})["type"] == "ack"
        ack = seat.request({"type": "buy_in", "key": f"in-{name}", "amount": 5_000})
        assert ack["type"] == "ack", ack
        seats.append((seat, token))
    return seats


def _fold_hand(server: Server, seats: list[Seat]) -> dict[str, Any]:
    turn = seats[0].event("turn")
    actor = seats[turn["seat"]]
    assert actor.request({"type": "act", "action": "fold"})["type"] == "ack"
    closed: dict[str, Any] = seats[0].event("round_closed")
    return closed


@THROUGH_CLUSTER_SLOW
def test_self_exclusion_stops_a_seated_player_at_the_next_hand(casino: Server) -> None:
    with ExitStack() as stack:
        (a, ta), (b, _) = _ready_pair(casino, stack)
        casino.clock.advance(5)
        assert a.event("round_opened")["seats"] in ([0, 1], [1, 0])
        excluded = casino.client.post("/api/me/self-exclusion", json={"days": 1}, headers=_auth(ta))
        assert excluded.status_code == 201
        # the hand in play goes on with alice in it
        closed = _fold_hand(casino, [a, b])
        assert closed["status"] == "settled"
        casino.clock.advance(5)
        left = b.until(lambda f: f.get("event", {}).get("kind") == "left")["event"]
        assert left["seat"] == 0 and left["reason"] == "self_excluded"
        assert not [f for f in b.frames[-5:] if f.get("event", {}).get("kind") == "round_opened"]
        # alice's stack went back to her wallet at once
        assert casino.balance(ta) == 15_000 + closed["stacks"]["0"]
        again = a.request({"type": "join", "seat": 0})
        assert again["code"] == "forbidden" and again["reason"] == "self_excluded"


@THROUGH_CLUSTER
def test_a_buy_in_must_fit_the_loss_limit_and_a_used_up_wager_limit_sits_out(
    casino: Server,
) -> None:
    with ExitStack() as stack:
        (a, ta), (b, tb) = _ready_pair(casino, stack)
        # alice has 5,000 at the table: a loss limit of 5,500 leaves 500 to add
        assert _put(casino, ta, {"loss": {"day": 5_500}}).status_code == 200
        top = a.request({"type": "buy_in", "key": "top-1", "amount": 600})
        assert top["type"] == "error" and top["reason"] == "loss_limit"
        assert top["params"] == {"period": "day", "limit": 5_500, "left": 500, "amount": 600}
        assert a.request({"type": "buy_in", "key": "top-2", "amount": 500})["type"] == "ack"
        # bob's wager limit allows one hand: whichever blind he posts (50 or 100), what is
        # left after it is less than the big blind, so the next hand he is not dealt in
        # (issue 27: a seat needs room for the forced bets, the big blind and the ante)
        assert _put(casino, tb, {"wager": {"day": 149}}).status_code == 200
        casino.clock.advance(5)
        assert _fold_hand(casino, [a, b])["status"] == "settled"
        casino.clock.advance(5)
        sat = a.until(lambda f: f.get("event", {}).get("kind") == "sat_out")["event"]
        assert sat == {"kind": "sat_out", "seat": 1, "reason": "wager_limit"}
        told = b.until(
            lambda f: f["type"] == "seat_event" and f["event"]["kind"] == "not_dealt_in"
        )["event"]
        assert told["kind"] == "not_dealt_in" and told["reason"] == "wager_limit"
        assert told["params"]["left"] in (49, 99) and told["params"]["amount"] == 100


# -- the reality check --------------------------------------------------------------------------


@THROUGH_CLUSTER_SLOW
def test_the_reality_check_reports_the_session(casino: Server) -> None:
    _, token = casino.player("alice", credit=10_000)
    headers = _auth(token)
    empty = casino.client.get("/api/me/reality-check", headers=headers).json()
    assert empty["interval_minutes"] is None and empty["due"] is False
    assert casino.client.put(
        "/api/me/reality-check", json={"interval_minutes": 30}, headers=headers
    ).json() == {"interval_minutes": 30}
    casino.shoes.push("As 2c Ah 7d 3s Ad Kc 9h 4s Jc")  # the seat wins 5,500 net on 4x
    with table_ws(casino.client, "casino", token) as ws:
        seat = Seat(ws)
        seat.welcome()
        seat.request({"type": "join"})
        assert (
            seat.request({"type": "bet", "key": "b", "bets": {"ante": 1_000, "trips": 500}})["type"]
            == "ack"
        )
        seat.request({"type": "act", "action": "4x"})
        seat.seen("round_closed")
    check = casino.client.get("/api/me/reality-check", headers=headers).json()
    assert (check["rounds"], check["wagered"], check["net"]) == (1, 6_500, 5_500)
    assert check["due"] is False and check["elapsed_seconds"] < 60
    # half an hour later (the session started 31 minutes ago): a reminder is due
    db: Database = casino.app.state.db
    with db.session() as session:
        for row in session.query(AuthToken):
            row.created_at -= dt.timedelta(minutes=31)
    due = casino.client.get("/api/me/reality-check", headers=headers).json()
    assert due["due"] is True and due["elapsed_seconds"] >= 31 * 60
    acked = casino.client.post("/api/me/reality-check/ack", headers=headers).json()
    assert acked["due"] is False
    next_at = dt.datetime.fromisoformat(acked["next_at"]) - dt.datetime.now(dt.UTC)
    assert dt.timedelta(minutes=29) < next_at <= dt.timedelta(minutes=30)
    for bad in (
        {"interval_minutes": 2},
        {"interval_minutes": 2000},
        {"interval_minutes": "30"},
        {},
    ):
        response = casino.client.put("/api/me/reality-check", json=bad, headers=headers)
        assert (
            response.status_code == 422
            and "interval_minutes" in response.json()["error"]["message"]
        )
    assert casino.client.get("/api/me/reality-check").status_code == 401


def test_a_batch_of_stakes_is_answered_one_by_one(db: Database, make_user: Any) -> None:
    """What the staking path asks for a live table's batch: one query for all, an answer each."""
    from croupier.server.responsible.admission import ResponsibleAdmission
    from croupier.server.responsible.models import SelfExclusion

    limited, excluded, free = make_user("ann"), make_user("ben"), make_user("cat")
    now = dt.datetime.now(dt.UTC)
    with db.session() as session:
        session.add(PlayerLimit(user_id=limited, kind=LimitKind.WAGER.value, period="week",
                                amount=1_000, pending_remove=False, updated_at=now))  # fmt: skip
        session.add(SelfExclusion(user_id=excluded, started_at=now,
                                  until=now + dt.timedelta(days=1), permanent=False, days=1))  # fmt: skip
    admission = ResponsibleAdmission()
    with db.session() as session:
        answers = admission.check_stakes(
            session, [(limited, 1_001), (excluded, 100), (free, 10**9)]
        )
        assert admission.check_stakes(session, [(limited, 1_000)]) == [None]
    over, out, fine = answers
    assert over is not None and over.reason == "wager_limit" and over.params["left"] == 1_000
    assert out is not None and out.reason == "self_excluded"
    assert fine is None


def test_deposit_requests_respect_the_limits_and_self_exclusion(casino: Server) -> None:
    """The client's cashier (issue 15): a request past a deposit limit is refused when made,
    and again when approved if the limit was lowered meanwhile (it then stays pending)."""
    _, token = casino.player("alice")
    headers = _auth(token)
    assert _put(casino, token, {"deposit": {"day": 5_000}}).status_code == 200

    def request(amount: int) -> Any:
        return casino.client.post("/api/cashier/deposits", json={"amount": amount}, headers=headers)

    refused = request(6_000)
    assert refused.status_code == 409 and refused.json()["error"]["reason"] == "deposit_limit"
    first, second = request(3_000).json(), request(2_000).json()
    assert _put(casino, token, {"deposit": {"day": 4_000}}).status_code == 200
    op = _auth(casino.operator_token())

    def approve(request_id: int) -> Any:
        return casino.client.post(f"/api/operator/deposits/{request_id}/approve", headers=op)

    assert approve(first["id"]).status_code == 200
    late = approve(second["id"])
    assert late.status_code == 409 and late.json()["error"]["params"]["left"] == 1_000
    waiting = casino.client.get("/api/operator/deposits", headers=op).json()
    assert [(d["id"], d["status"]) for d in waiting] == [(second["id"], "pending")]
    assert casino.balance(token) == 3_000
    casino.client.post("/api/me/self-exclusion", json={"days": 1}, headers=headers)
    excluded = request(500)
    assert excluded.status_code == 403 and excluded.json()["error"]["reason"] == "self_excluded"


def _limit_cases() -> list[Any]:
    """Each table kind and limit on SQLite and PostgreSQL; through a cluster, one limit on
    each table kind in the fast suite and the other two in ``make test-all``."""
    fast = {("casino", "wager"), ("live", "loss")}
    cases = []
    for table in ("casino", "live"):
        for kind in ("wager", "loss"):
            cases.append(pytest.param("sqlite", table, kind, id=f"{table}-{kind}-sqlite"))
            cases.append(
                pytest.param(
                    "postgres", table, kind, marks=pytest.mark.postgres,
                    id=f"{table}-{kind}-postgres",
                )
            )  # fmt: skip
            marks = [pytest.mark.postgres, *([] if (table, kind) in fast else [pytest.mark.slow])]
            cases.append(
                pytest.param("cluster", table, kind, marks=marks, id=f"{table}-{kind}-cluster")
            )
    return cases


@pytest.mark.parametrize(("db_url", "table", "kind"), _limit_cases(), indirect=["db_url"])
def test_a_bet_must_fit_the_wager_and_loss_limits(casino: Server, table: str, kind: str) -> None:
    """The one staking path asks the limits in the staking transaction: a bet over the wager
    or loss limit (a stake is at risk: it counts as lost until the round settles) is refused
    with the sums, and nothing is held; one within it is taken."""
    _, token = casino.player("alice", credit=10_000)
    assert _put(casino, token, {kind: {"day": 1_500}}).status_code == 200
    with table_ws(casino.client, table, token) as ws:
        seat = Seat(ws)
        seat.welcome()
        assert seat.request({"type": "join"})["type"] == "ack"
        # Ante 1,000 and the Blind 1,000: 2,000 would pass the 1,500 a day
        over = seat.request({"type": "bet", "key": "over", "bets": {"ante": 1_000}})
        assert over["type"] == "error" and over["reason"] == f"{kind}_limit", over
        assert over["params"] == {"period": "day", "limit": 1_500, "left": 1_500, "amount": 2_000}
        assert casino.balance(token) == 10_000
        within = seat.request({"type": "bet", "key": "within", "bets": {"ante": 500}})
        assert within["type"] == "ack" and within["result"]["staked"] == 1_000, within
        assert casino.balance(token) == 9_000
