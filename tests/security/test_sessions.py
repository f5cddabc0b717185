"""Issue 13, item 2: a revoked session acts no more, also on a socket opened before.

A token is revoked by logging out, by an operator disabling the account, or by expiring.
Each time, a table socket opened with it must be closed (code 4401) or refuse its next
request, and no money may move for it.
"""

from __future__ import annotations

import uuid

import pytest
from sec_testkit import PASSWORD, SecServer, ServerFactory, TableSocket

pytestmark = pytest.mark.timeout(90)

_CLOSED_UNAUTHENTICATED = 4401


def _refused_or_closed(ws: TableSocket, message: dict[str, object]) -> None:
    answer = ws.request(message, timeout=10)
    if answer is not None:
        assert answer["type"] == "error" and answer["code"] == "unauthenticated", answer
    assert ws.wait_closed(10) == _CLOSED_UNAUTHENTICATED


def _bet() -> dict[str, object]:
    return {"type": "bet", "key": uuid.uuid4().hex, "bets": {"ante": 100}}


def test_logout_ends_the_sockets_opened_with_the_token(shared: SecServer) -> None:
    player = shared.player("logout", credit=10_000)
    ws = shared.socket("sec-uth", player.token)
    joined = ws.request({"type": "join"})
    assert joined is not None and joined["type"] == "ack", joined

    logout = shared.http.post("/api/auth/logout", headers=player.auth)
    assert logout.status_code == 204
    # The token is dead over HTTP...
    assert shared.http.get("/api/wallet", headers=player.auth).status_code == 401
    # ...and on the socket it opened: no bet goes through.
    _refused_or_closed(ws, _bet())
    assert shared.balance(player.id) == 10_000
    # A new socket with the revoked token is refused too.
    again = shared.socket("sec-uth", player.token)
    assert again.wait_closed(10) == _CLOSED_UNAUTHENTICATED
    assert not any(f["type"] == "welcome" for f in again.frames)


def test_an_operator_disabling_the_account_ends_its_sockets(shared: SecServer) -> None:
    player = shared.player("disabled", credit=10_000)
    sockets = [shared.socket(table, player.token) for table in ("sec-uth", "sec-uth-2")]
    for ws in sockets:
        assert ws.wait_for(lambda f: f["type"] == "welcome") is not None
    disabled = shared.http.post(
        f"/api/operator/accounts/{player.id}/disable", headers=shared.operator()
    )
    assert disabled.status_code == 200 and disabled.json()["disabled"] is True
    for ws in sockets:
        # Closed by the server without waiting for the next request.
        assert ws.wait_closed(10) == _CLOSED_UNAUTHENTICATED
        assert ws.frames[-1]["code"] == "unauthenticated"
    assert shared.http.get("/api/wallet", headers=player.auth).status_code == 401
    login = shared.http.post(
        "/api/auth/login", json={"username": player.name, "password": PASSWORD}
    )
    assert login.status_code == 401
    assert shared.balance(player.id) == 10_000
    # Enabled again, the player logs in anew; the old token stays dead.
    enabled = shared.http.post(
        f"/api/operator/accounts/{player.id}/enable", headers=shared.operator()
    )
    assert enabled.status_code == 200 and enabled.json()["disabled"] is False
    assert shared.http.get("/api/wallet", headers=player.auth).status_code == 401
    assert shared.login(player.name)
    # An operator cannot lock themselves out.
    me = shared.http.get("/api/auth/me", headers=shared.operator()).json()
    own = shared.http.post(f"/api/operator/accounts/{me['id']}/disable", headers=shared.operator())
    assert own.status_code == 409


def test_an_expired_session_is_closed(make_server: ServerFactory) -> None:
    server = make_server(env={"CROUPIER_SESSION_TTL_SECONDS": "3"})
    player = server.player("expiring", credit=10_000)
    ws = server.socket("sec-uth", player.token)
    joined = ws.request({"type": "join"})
    assert joined is not None and joined["type"] == "ack"
    # Within the lifetime the socket works; at its end the server closes it by itself.
    assert ws.wait_closed(15) == _CLOSED_UNAUTHENTICATED
    assert "expired" in ws.frames[-1]["message"]
    assert server.balance(player.id) == 10_000
