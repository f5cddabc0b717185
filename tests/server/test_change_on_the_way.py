"""An operator's change that meets a bet on its way to an idle table (found by red-teaming,
issue 26). A cluster's idle table records its next round for the gateways' holds
(``server/tables/nextround.py``); before, any change of the table voided that round, so a bet
its gateway had held for it reached the owner after the change and was refused as "bets are
closed" -- at a table where no round had opened, for a bet that fitted the old limits and
the new -- and its resend was told the round was voided. In one process the same bet is
taken. The change applies "from the next round on" (docs/protocol.md "Operator"): the round
recorded is that round, so it takes the new rules and the bet is taken under them, in both;
closing the table refuses it for that (``table_closed``), its stake returned."""

from __future__ import annotations

from typing import Any

import pytest
from server_cluster import SQLITE_AND_CLUSTER
from server_testkit import Seat, Server, ServerFactory, table_ws, test_tables

pytestmark = [SQLITE_AND_CLUSTER, pytest.mark.timeout(120)]

CREDIT = 50_000
ANTE = 1_000


@pytest.fixture
def server(table_server: ServerFactory) -> Server:
    return table_server(test_tables())


def _patch(server: Server, body: dict[str, Any]) -> None:
    headers = {"Authorization": f"Bearer {server.operator_token()}"}
    response = server.client.patch("/api/operator/tables/casino", json=body, headers=headers)
    assert response.status_code == 200, response.text


def _answer(seat: Seat, ref: str) -> dict[str, Any]:
    return seat.after(0, lambda f: f.get("ref") == ref and f["type"] in ("ack", "error"))


def _ledger_whole(server: Server) -> None:
    assert server.ledger().get("escrow", 0) == 0


def test_a_bet_on_its_way_is_taken_under_the_new_limits(server: Server) -> None:
    _, token = server.player("alice", credit=CREDIT)
    with table_ws(server.client, "casino", token) as ws:
        seat = Seat(ws)
        seat.welcome()
        seat.ok({"type": "join", "seat": 0})
        bet = {"type": "bet", "key": "a1", "bets": {"ante": ANTE}}
        seat.send({**bet, "id": "x"})  # not waited for: the change follows at once
        _patch(server, {"max_bet": 40_000, "min_bet": 500})
        got = _answer(seat, "x")
        assert got["type"] == "ack", got
        result = got["result"]
        assert (result["staked"], result["balance"]) == (2 * ANTE, CREDIT - 2 * ANTE), got
        again = seat.request(bet)  # a resend is its first answer, nothing held again
        assert again["type"] == "ack" and again["result"]["replayed"] is True, again
        assert server.balance(token) == CREDIT - 2 * ANTE
        round_id = seat.seen("round_opened")["round_id"]
        for action in ("check", "check", "fold"):
            assert seat.request({"type": "act", "action": action})["type"] == "ack"
        assert seat.seen("round_closed")["status"] == "settled"
    headers = {"Authorization": f"Bearer {server.operator_token()}"}
    played = server.client.get(f"/api/rounds/{round_id}", headers=headers).json()
    # The round opened with the limits of its first bet's moment: the new ones where the
    # change came first (through a cluster, the round recorded took them), else the old
    # (one process: the bet came first, and a lone seat's bet closes betting at once).
    assert played["status"] == "settled"
    config = played["record"]["config"]
    assert (config["ante_min"], config["ante_max"]) in {(100, 100_000), (500, 40_000)}
    assert server.balance(token) == CREDIT - 2 * ANTE  # two Antes lost on the fold
    _ledger_whole(server)


def test_a_bet_on_its_way_outside_the_new_limits_is_refused_for_them(server: Server) -> None:
    """Lowered below it, the bet is refused for the limits (one process: unless it came
    first, then it stands), its stake returned; never "bets are closed"."""
    _, token = server.player("alice", credit=CREDIT)
    with table_ws(server.client, "casino", token) as ws:
        seat = Seat(ws)
        seat.welcome()
        seat.ok({"type": "join", "seat": 0})
        seat.send({"type": "bet", "key": "a1", "bets": {"ante": 5_000}, "id": "x"})
        _patch(server, {"max_bet": 2_000})
        got = _answer(seat, "x")
        if got["type"] == "error":
            assert got["reason"] == "bet_out_of_limits", got
            assert server.balance(token) == CREDIT
            # A bet within the new limits is taken at once.
            ok = seat.request({"type": "bet", "key": "a2", "bets": {"ante": 2_000}})
            assert ok["type"] == "ack" and ok["result"]["staked"] == 4_000, ok
        else:
            assert got["result"]["staked"] == 10_000, got
        for action in ("check", "check", "fold"):
            assert seat.request({"type": "act", "action": action})["type"] == "ack"
        assert seat.seen("round_closed")["status"] == "settled"
    _ledger_whole(server)


def test_a_bet_on_its_way_to_a_table_closed_is_refused_as_closed(server: Server) -> None:
    """Closed, the table plays no new round: the bet, unless it came first (then its round
    finishes), is refused ``table_closed`` and its stake returned."""
    _, token = server.player("alice", credit=CREDIT)
    with table_ws(server.client, "casino", token) as ws:
        seat = Seat(ws)
        seat.welcome()
        seat.ok({"type": "join", "seat": 0})
        seat.send({"type": "bet", "key": "a1", "bets": {"ante": ANTE}, "id": "x"})
        _patch(server, {"status": "closed"})
        got = _answer(seat, "x")
        if got["type"] == "error":
            assert got["reason"] == "table_closed", got
            assert server.balance(token) == CREDIT
        else:
            for action in ("check", "check", "fold"):
                assert seat.request({"type": "act", "action": action})["type"] == "ack"
            assert seat.seen("round_closed")["status"] == "settled"
        late = seat.request({"type": "bet", "key": "a2", "bets": {"ante": ANTE}})
        assert (late["type"], late["reason"]) == ("error", "table_closed"), late
    _ledger_whole(server)
