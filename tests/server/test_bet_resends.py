"""A bet resent under its key gets its first answer again, however the round has moved on
(docs/protocol.md "Idempotency"): found by red-teaming the money path (issue 26).

The ack most likely to be lost is the one of the bet that closes betting and deals at once;
its resend was refused ``bets_closed`` while its money was held and the bet played. Resent
after the round settled it was refused ``idempotency_conflict`` ("used for a different
request"), which was not true: the client could not learn that its bet had been taken.
Now both are answered ``replayed`` with the round the bet was taken in, and nothing moves;
the same key with another bet (other spots, another table) is still a conflict, also once
betting has closed (it was refused ``bets_closed``). A retry from a new connection after the
seat was freed (a dropped connection's seat is freed when its round ends) was refused
``not_seated``, for a bet and for a decision alike: both get their first answer again.
"""

from __future__ import annotations

from typing import Any

import pytest
from server_cluster import SQLITE_AND_CLUSTER, SQLITE_AND_CLUSTER_SLOW, THROUGH_CLUSTER
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
        # another bet under that key is a key conflict (docs/protocol.md "Idempotency"),
        # a new one is refused as before
        other = seat.request({"type": "bet", "key": "only", "bets": {"ante": 200}})
        assert other["type"] == "error" and other["reason"] == "idempotency_conflict", other
        new = seat.request({"type": "bet", "key": "new", "bets": {"ante": 200}})
        assert new["type"] == "error" and new["reason"] == "bets_closed", new
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


@SQLITE_AND_CLUSTER_SLOW
def test_a_bet_and_a_decision_resent_after_the_seat_was_freed_are_answered_replayed(
    server: Server,
) -> None:
    """The connection drops with the acks (the seat is freed when the round ends); the
    client retries both from a new socket, seated nowhere: each gets its first answer, and
    nothing moves; a new bet from there is still ``not_seated``."""
    _, token = server.player("ugo", credit=CREDIT)
    _, watcher = server.player("vera", credit=CREDIT)
    with table_ws(server.client, "casino", watcher) as wv:
        watch = Seat(wv)
        watch.welcome()
        with table_ws(server.client, "casino", token) as ws:
            seat = Seat(ws)
            seat.welcome()
            seat.ok({"type": "join"})
            first = seat.ok({"type": "bet", "key": "gone", "bets": {"ante": 100}})
            turn = seat.after(
                0, lambda f: f["type"] == "event" and f["event"]["kind"] == "decisions_open"
            )["event"]
            play = seat.ok({"type": "act", "action": "4x", "decision": turn["decision"]})
            assert play["staked"] == 400
        closed = watch.event("round_closed")
        assert closed["round_id"] == first["round_id"]
        wallet = server.balance(token)
        assert wallet == CREDIT - 600 + closed["returns"].get(str(first["seat"]), 0)
        with table_ws(server.client, "casino", token) as ws:
            again = Seat(ws)
            assert again.welcome()["seat"] is None  # the seat was freed
            bet = again.request({"type": "bet", "key": "gone", "bets": {"ante": 100}})
            assert bet["type"] == "ack", bet
            assert bet["result"] == {**first, "replayed": True}
            act = again.request({"type": "act", "action": "4x", "decision": turn["decision"]})
            assert act["type"] == "ack", act
            assert act["result"] == {**play, "replayed": True}
            other = again.request({"type": "act", "action": "3x", "decision": turn["decision"]})
            assert other["type"] == "error" and other["reason"] == "stale_decision", other
            new = again.request({"type": "bet", "key": "fresh", "bets": {"ante": 100}})
            assert new["type"] == "error" and new["reason"] == "not_seated", new
            conflict = again.request({"type": "bet", "key": "gone", "bets": {"ante": 300}})
            assert conflict["type"] == "error", conflict
            assert conflict["reason"] == "not_seated", conflict
        assert server.balance(token) == wallet


@SQLITE_AND_CLUSTER_SLOW
def test_trips_added_after_the_ante_and_resent_after_the_round_is_answered_replayed(
    server: Server,
) -> None:
    """An add-on bet (UTH's Trips after the Ante) resent once its round is over: the round
    now would refuse it for want of an Ante (it was ``ante_required``); it is the bet taken
    before, answered its first answer; the same key with other spots is a conflict."""
    _, token = server.player("wim", credit=CREDIT)
    _, other_token = server.player("xia", credit=CREDIT)
    with (
        table_ws(server.client, "casino", token) as ws,
        table_ws(server.client, "casino", other_token) as wo,
    ):
        seat, other = Seat(ws), Seat(wo)
        for one in (seat, other):
            one.welcome()
            one.ok({"type": "join"})
        seat.ok({"type": "bet", "key": "ante", "bets": {"ante": 100}})
        trips = seat.ok({"type": "bet", "key": "trips", "bets": {"trips": 100}})
        assert trips["staked"] == 100
        other.ok({"type": "bet", "key": "o", "bets": {"ante": 100}})  # betting closes
        closed = _play_out(server, seat)
        wallet = server.balance(token)
        assert wallet == CREDIT - 300 + closed["returns"].get(str(trips["seat"]), 0)
        again = seat.request({"type": "bet", "key": "trips", "bets": {"trips": 100}})
        assert again["type"] == "ack", again
        assert again["result"] == {**trips, "replayed": True}
        changed = seat.request({"type": "bet", "key": "trips", "bets": {"trips": 200}})
        assert changed["type"] == "error", changed
        assert changed["reason"] == "idempotency_conflict", changed
        new = seat.request({"type": "bet", "key": "new-trips", "bets": {"trips": 100}})
        assert new["type"] == "error" and new["reason"] == "ante_required", new
        assert server.balance(token) == wallet
