"""HTTP: accounts, roles, the operator's credits and debits, bad input, one error shape."""

from __future__ import annotations

import pytest
from server_testkit import OPERATOR, PASSWORD, Server


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_health(server: Server) -> None:
    assert server.client.get("/api/health").json() == {"status": "ok"}


def test_register_login_me_logout(server: Server) -> None:
    user_id, token = server.player("alice")
    me = server.client.get("/api/auth/me", headers=_auth(token)).json()
    assert me["id"] == user_id and me["username"] == "alice" and me["role"] == "player"
    assert server.client.post("/api/auth/logout", headers=_auth(token)).status_code == 204
    after = server.client.get("/api/auth/me", headers=_auth(token))
    assert after.status_code == 401
    assert after.json()["error"]["code"] == "unauthenticated"


def test_passwords_are_stored_as_argon2_hashes(server: Server) -> None:
    from sqlalchemy import select

    from croupier.server.accounts.models import User

    server.player("alice")
    with server.app.state.db.session() as session:
        stored = session.scalars(select(User.password_hash).where(User.username == "alice")).one()
    assert stored.startswith("$argon2id$") and PASSWORD not in stored


@pytest.mark.parametrize(
    ("body", "code", "status"),
    [
        ({"username": "alice", "password": PASSWORD}, "conflict", 409),
        ({"username": "ALICE", "password": PASSWORD}, "conflict", 409),
        ({"username": "ａｌｉｃｅ", "password": PASSWORD}, "conflict", 409),
        ({"username": "al", "password": PASSWORD}, "invalid_request", 422),
        ({"username": "bad name", "password": PASSWORD}, "invalid_request", 422),
        ({"username": "bob", "password": "short"}, "invalid_request", 422),
        ({"username": "bob", "password": "password123"}, "invalid_request", 422),
        ({"username": "bob", "password": 12345678}, "invalid_request", 422),
        ({"username": "bob"}, "invalid_request", 422),
        (
            {"username": "bob", "password": PASSWORD, "role": "operator"},
            "invalid_request",
            422,
        ),
    ],
)
@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # validation is backend-free
def test_bad_registrations(server: Server, body: object, code: str, status: int) -> None:
    server.player("alice")
    response = server.client.post("/api/auth/register", json=body)
    assert response.status_code == status
    assert response.json()["error"]["code"] == code
    assert response.json()["error"]["message"]


def test_wrong_password_and_unknown_user_look_the_same(server: Server) -> None:
    server.player("alice")
    wrong = server.client.post("/api/auth/login", json={"username": "alice", "password": "x" * 9})
    unknown = server.client.post("/api/auth/login", json={"username": "nobody", "password": "x"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()


def test_garbage_tokens_are_refused(server: Server) -> None:
    for header in ({}, {"Authorization": "Bearer nope"}, {"Authorization": "Basic abc"}):
        response = server.client.get("/api/wallet", headers=header)
        assert response.status_code == 401


def test_operator_credits_and_debits(server: Server) -> None:
    user_id, token = server.player("alice")
    credit = server.operator_post(f"/api/operator/accounts/{user_id}/credit", {"amount": 5_000})
    assert credit.status_code == 200
    assert credit.json() | {"transaction_id": 0} == {
        "transaction_id": 0,
        "kind": "credit",
        "amount": 5_000,
        "balance": 5_000,
        "replayed": False,
    }
    debit = server.operator_post(f"/api/operator/accounts/{user_id}/debit", {"amount": 1_500})
    assert debit.json()["balance"] == 3_500 == server.balance(token)
    statement = server.client.get("/api/wallet/statement", headers=_auth(token)).json()
    assert [(p["kind"], p["amount"]) for p in statement] == [("debit", -1_500), ("credit", 5_000)]
    assert server.ledger() == {"player": 3_500, "cashier": -3_500}


def test_a_player_cannot_credit_anyone(server: Server) -> None:
    user_id, token = server.player("alice")
    response = server.client.post(
        f"/api/operator/accounts/{user_id}/credit",
        json={"amount": 100},
        headers={**_auth(token), "Idempotency-Key": "k"},
    )
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "forbidden"
    assert server.balance(token) == 0


def test_retried_credit_applies_once(server: Server) -> None:
    user_id, token = server.player("alice")
    path = f"/api/operator/accounts/{user_id}/credit"
    first = server.operator_post(path, {"amount": 700}, key="dep-42")
    again = server.operator_post(path, {"amount": 700}, key="dep-42")
    assert again.status_code == 200 and again.json()["replayed"] is True
    assert again.json()["transaction_id"] == first.json()["transaction_id"]
    other = server.operator_post(path, {"amount": 701}, key="dep-42")
    assert other.status_code == 409
    assert other.json()["error"]["code"] == "idempotency_conflict"
    assert server.balance(token) == 700


@pytest.mark.parametrize(
    "body",
    [
        {"amount": -1},
        {"amount": 0},
        {"amount": 10**12 + 1},
        {"amount": 10**30},
        {"amount": 1.5},
        {"amount": 100.0},
        {"amount": "100"},
        {"amount": True},
        {"amount": None},
        {},
        {"amount": 5, "extra": 1},
        [5],
    ],
)
@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # validation is backend-free
def test_bad_amounts_change_nothing(server: Server, body: object) -> None:
    user_id, token = server.player("alice", credit=1_000)
    for op in ("credit", "debit"):
        response = server.operator_post(f"/api/operator/accounts/{user_id}/{op}", body)
        assert response.status_code == 422, response.text
        error = response.json()["error"]
        assert error["code"] == "invalid_request" and error["message"]
    assert server.balance(token) == 1_000
    assert server.ledger() == {"player": 1_000, "cashier": -1_000}


def test_missing_idempotency_key_is_refused(server: Server) -> None:
    user_id, token = server.player("alice")
    op_token = server.login(*OPERATOR)
    response = server.client.post(
        f"/api/operator/accounts/{user_id}/credit", json={"amount": 5}, headers=_auth(op_token)
    )
    assert response.status_code == 422
    assert "idempotency-key" in response.json()["error"]["message"]
    assert server.balance(token) == 0


def test_unknown_account_and_overdraft(server: Server) -> None:
    user_id, token = server.player("alice", credit=100)
    missing = server.operator_post("/api/operator/accounts/9999/credit", {"amount": 5})
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    not_int = server.operator_post("/api/operator/accounts/abc/credit", {"amount": 5})
    assert not_int.status_code == 422
    overdraft = server.operator_post(f"/api/operator/accounts/{user_id}/debit", {"amount": 101})
    assert overdraft.status_code == 409
    assert overdraft.json()["error"]["code"] == "insufficient_funds"
    assert server.balance(token) == 100


def test_malformed_json_body(server: Server) -> None:
    response = server.client.post(
        "/api/auth/login", content=b"{not json", headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "invalid_request"


def test_lobby_lists_open_and_unavailable_tables(tmp_path: object) -> None:
    from server_testkit import make_settings

    from croupier.server.app import create_app
    from croupier.server.tables.config import load_tables

    app = create_app(make_settings(f"sqlite:///{tmp_path}/lobby.db"), tables=load_tables())
    from server_testkit import TestClient

    with TestClient(app) as client:
        lobby = {t["name"]: t for t in client.get("/api/tables").json()}
    assert lobby["uth-casino"]["max_seats"] == 6 and lobby["uth-casino"]["status"] == "idle"
    assert lobby["uth-live"]["max_seats"] is None
    assert lobby["uth-live"]["rules"]["shared_hand"] is True
    assert lobby["holdem-nl"]["status"] == "idle" and lobby["holdem-nl"]["max_seats"] == 6
    assert lobby["russian"]["status"] == "idle" and lobby["russian"]["max_seats"] == 4


def test_uth_advice_for_a_preflop_hand(server: Server) -> None:
    _, token = server.player("alice")
    response = server.client.get("/api/uth/advice", params={"hole": "AsKs"}, headers=_auth(token))
    assert response.status_code == 200, response.text
    advice = response.json()
    assert advice["street"] == "preflop" and advice["best"] == "4x"
    assert [o["action"] for o in advice["options"]] == ["4x", "3x", "check"]
    bad = server.client.get("/api/uth/advice", params={"hole": "AsAs"}, headers=_auth(token))
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "invalid_cards"
    anonymous = server.client.get("/api/uth/advice", params={"hole": "AsKs"})
    assert anonymous.status_code == 401


def test_a_database_that_cannot_be_reached_is_an_error_and_nothing_is_done(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 18, "PostgreSQL unreachable": every request gets an error naming it (503, the
    JSON error body), and money does not move."""
    from sqlalchemy.exc import OperationalError

    user_id, token = server.player("dora", credit=1_000)
    db = server.app.state.db

    def down(*_: object, **__: object) -> None:
        raise OperationalError("SELECT 1", {}, Exception("connection refused"))

    db.engine.dispose()
    monkeypatch.setattr(db.engine.pool, "connect", down)
    response = server.operator_post(f"/api/operator/accounts/{user_id}/credit", {"amount": 500})
    assert response.status_code == 503, response.text
    error = response.json()["error"]
    assert error["code"] == "unavailable" and error["reason"] == "database_unavailable"
    assert response.headers["Retry-After"] == "5"
    monkeypatch.undo()
    assert server.balance(token) == 1_000
