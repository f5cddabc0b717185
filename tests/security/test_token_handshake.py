"""Issue 13, item 9: a token never travels in a URL and no log line ever holds one.

A table socket authenticates with its first frame, ``{"type": "auth", "token": ...}``. A
token in the query string is refused (4401), any other first frame is refused, and a socket
that says nothing is closed after ``ws_auth_seconds``. Whatever clients do, the server's
log -- uvicorn's access log included, at level info as ``croupier serve`` runs it -- never
holds a token.
"""

from __future__ import annotations

import time

import pytest
from sec_testkit import SecServer, ServerFactory, TableSocket

pytestmark = pytest.mark.timeout(90)

_UNAUTHENTICATED = 4401


def test_a_token_in_the_url_is_refused_and_never_logged(shared: SecServer) -> None:
    player = shared.player("url", credit=1_000)
    in_url = TableSocket(shared.ws_url, "sec-uth", player.token, via="query")
    assert in_url.wait_closed() == _UNAUTHENTICATED
    assert [f["code"] for f in in_url.frames] == ["unauthenticated"]
    assert "URL" in in_url.frames[0]["message"]
    # The same token, as the protocol says: the socket works.
    ws = shared.socket("sec-uth", player.token)
    welcome = ws.wait_for(lambda f: f["type"] == "welcome")
    assert welcome is not None and welcome["user"]["id"] == player.id
    ws.close()
    # And over HTTP, in the header and (wrongly) in a query string.
    assert shared.http.get("/api/wallet", headers=player.auth).status_code == 200
    shared.http.get(f"/api/wallet?token={player.token}&access_token={player.token}")
    time.sleep(0.5)  # let the access log flush
    log = shared.log_text()
    assert "/ws/tables/sec-uth" in log and "[redacted]" in log  # the lines are there...
    assert player.token not in log  # ...without the token
    assert shared.operator_token() not in log


def test_the_first_frame_must_authenticate(shared: SecServer) -> None:
    player = shared.player("first", credit=1_000)
    ws = shared.socket("sec-uth", None)
    ws.send({"type": "join"})
    assert ws.wait_closed() == _UNAUTHENTICATED
    assert ws.frames[-1]["code"] == "invalid_request"
    assert not any(f["type"] == "welcome" for f in ws.frames)
    forged = shared.socket("sec-uth", "not-a-token")
    assert forged.wait_closed() == _UNAUTHENTICATED
    assert [f["code"] for f in forged.frames] == ["unauthenticated"]
    # An auth frame later on is not a way round the first: it is refused like any other.
    ws = shared.socket("sec-uth", player.token)
    answer = ws.request({"type": "auth", "token": player.token})
    assert answer is not None and answer["code"] == "invalid_request"


def test_a_silent_socket_is_closed(make_server: ServerFactory) -> None:
    server = make_server(env={"CROUPIER_WS_AUTH_SECONDS": "1"})
    ws = server.socket("sec-uth", None)
    started = time.monotonic()
    assert ws.wait_closed(10) == _UNAUTHENTICATED
    assert 0.8 <= time.monotonic() - started < 5
    assert ws.frames[-1]["code"] == "unauthenticated"
