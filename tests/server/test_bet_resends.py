"""A bet resent under its key gets its first answer again, however the round has moved on
(docs/protocol.md "Idempotency"): found by red-teaming the money path (issue 26).

The ack most likely to be lost is the one of the bet that closes betting and deals at once;
its resend was refused ``bets_closed`` while its money was held and the bet played. Resent
after the round settled it was refused ``idempotency_conflict`` ("used for a different
request"), which was not true: the client could not learn that its bet had been taken.
Now both are answered ``replayed`` with the round the bet was taken in, and nothing moves;
the same key with another bet (other spots, another table) is still a conflict.
"""

from __future__ import annotations

from typing import Any

import pytest
from server_cluster import SQLITE_AND_CLUSTER, THROUGH_CLUSTER
from server_testkit import Seat, Server, table_ws

pytestmark = pytest.mark.timeout(120)

CREDIT = 100_000


def _play_out(server: Server, seat: Seat) -> dict[str, Any]:
    """The round in play runs on its timers (check, check, fold): its ``round_closed``."""
    for _ in range(3):
        seat.event("decisions_open")
        server.clock.advance(20)
    return seat.event("round_closed")


@SQLITE_AND_CLUSTER
def test_a_bet_resent_after_it_closed_betting_is_answered_replayed(server: Server) -> None:
    """The lone player's bet closes betting and deals; resent, it gets its first answer."""
    _, token = server.player("rene", credit=CREDIT)
    with table_ws(server.client, "casino", token) as ws:
        seat = Seat(ws)
        seat.welcome()
        seat.ok({"type": "join"})
        first = seat.ok({"type": "bet", "key": "only", "bets": {"ante": 100}})
        assert first["staked"] == 200
        seat.event("betting_closed")
        again = seat.request({"type": "bet", "key": "only", "bets": {"ante": 100}})
        assert again["type"] == "ack", again
        assert again["result"] == {**first, "replayed": True}
        # another bet under that key, or a new one, is refused as before
        other = seat.request({"type": "bet", "key": "only", "bets": {"ante": 200}})
        assert other["type"] == "error" and other["reason"] == "bets_closed", other
        assert server.balance(token) == CREDIT - 200


@THROUGH_CLUSTER
def test_a_bet_resent_after_its_round_settled_is_answered_replayed(server: Server) -> None:
    """Resent once its round is over -- the table idle, then in the next round's betting
    with the seat's new bet placed -- it gets its first answer with its own round's id; the
    same key with other spots is a conflict; nothing is held or placed again."""
    _, token = server.player("sara", credit=CREDIT)
    with table_ws(server.client, "casino", token) as ws:
        seat = Seat(ws)
        seat.welcome()
        seat.ok({"type": "join"})
        first = seat.ok({"type": "bet", "key": "late", "bets": {"ante": 100}})
        closed = _play_out(server, seat)
        assert closed["round_id"] == first["round_id"]
        wallet = CREDIT - 200 + closed["returns"].get("0", 0)
        again = seat.request({"type": "bet", "key": "late", "bets": {"ante": 100}})
        assert again["type"] == "ack", again
        assert again["result"] == {**first, "replayed": True}
        other = seat.request({"type": "bet", "key": "late", "bets": {"ante": 100, "trips": 100}})
        assert other["type"] == "error" and other["reason"] == "idempotency_conflict", other
        assert server.balance(token) == wallet
        assert seat.state()["table"]["status"] in ("idle", "pause")
        # The next round: a new bet, then the old one resent once more.
        second = seat.ok({"type": "bet", "key": "next", "bets": {"ante": 300}})
        assert second["round_id"] != first["round_id"] and second["staked"] == 600
        late = seat.request({"type": "bet", "key": "late", "bets": {"ante": 100}})
        assert late["type"] == "ack" and late["result"] == {**first, "replayed": True}, late
        assert server.balance(token) == wallet - 600
        recalled = server.client.get(
            f"/api/rounds/{first['round_id']}", headers={"Authorization": f"Bearer {token}"}
        ).json()
        assert sum(p["staked"] for p in recalled["players"]) == 200


@SQLITE_AND_CLUSTER
def test_a_bet_resent_at_another_table_is_a_conflict(server: Server) -> None:
    """A key is bound to the table it was taken at: the same spots under it at another
    table are another request, refused, and nothing opens there."""
    _, token = server.player("tess", credit=CREDIT)
    with table_ws(server.client, "casino", token) as ws:
        seat = Seat(ws)
        seat.welcome()
        seat.ok({"type": "join"})
        seat.ok({"type": "bet", "key": "here", "bets": {"ante": 100}})
        seat.event("betting_closed")
    with table_ws(server.client, "live", token) as ws:
        seat = Seat(ws)
        seat.welcome()
        seat.ok({"type": "join"})
        there = seat.request({"type": "bet", "key": "here", "bets": {"ante": 100}})
        assert there["type"] == "error" and there["reason"] == "idempotency_conflict", there
        assert seat.state()["table"]["status"] == "idle"
    assert server.balance(token) == CREDIT - 200
