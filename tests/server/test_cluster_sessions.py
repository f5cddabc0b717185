"""A cluster's processes tell each other of what concerns a user's sockets wherever they are
(issue 18): a logout on one process closes the sockets of that session on another, and a
cashier's credit on one sends the ``balance`` frame to the user's socket on another."""

from __future__ import annotations

from typing import Any

import pytest
from server_cluster import THROUGH_CLUSTER
from server_testkit import OPERATOR, Seat, Server, table_ws

pytestmark = [pytest.mark.timeout(90), THROUGH_CLUSTER]


def _owner_client(server: Server) -> Any:
    """The HTTP of the process that is not the socket's (in a cluster: the owner's)."""
    return getattr(server.app.state, "test_client", server.client)


def test_a_credit_elsewhere_reaches_the_socket_and_a_logout_closes_it(server: Server) -> None:
    user_id, token = server.player("alice", credit=1_000)
    other = _owner_client(server)
    operator = other.post(
        "/api/auth/login", json={"username": OPERATOR[0], "password": OPERATOR[1]}
    ).json()["access_token"]
    with table_ws(server.client, "casino", token) as ws:
        seat = Seat(ws)
        seat.welcome()
        assert seat.request({"type": "ping"})["type"] == "pong"  # connected end to end
        credited = other.post(
            f"/api/operator/accounts/{user_id}/credit",
            json={"amount": 2_500},
            headers={"Authorization": f"Bearer {operator}", "Idempotency-Key": "c1"},
        )
        assert credited.status_code == 200, credited.text
        balance = seat.until(lambda f: f["type"] == "balance")
        assert balance["balance"] == 3_500
        out = other.post("/api/auth/logout", headers={"Authorization": f"Bearer {token}"})
        assert out.status_code == 204
        ended = seat.until(lambda f: f["type"] == "error")
        assert ended["code"] == "unauthenticated" and "session ended" in ended["message"]
