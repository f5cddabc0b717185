"""UTH server tables to the letter of the seeds (issue 17 items 4-7): Trips after the Ante as
a second request, a round keeping the limits it opened with, the dealing order covered by
the commitment card by card, and boxes settled right to left."""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

import pytest
from server_cluster import SQLITE_AND_CLUSTER, SQLITE_AND_CLUSTER_SLOW
from server_testkit import Seat, Server, ServerFactory, table_ws

from croupier.cards import parse_cards
from croupier.games.uth.config import Dealing
from croupier.games.uth.dealing import deal_plan
from croupier.history import uth as uth_history
from croupier.server.tables.config import TableConfig
from croupier.server.tables.fairness import verify

pytestmark = pytest.mark.timeout(60)

ONE_SEAT = "As 2c Ah 7d 3s Ad Kc 9h 4s Jc"


@pytest.fixture
def make_server(table_server: ServerFactory) -> Any:
    """``make_server(name, **rules)``: a whole server with one UTH table, on SQLite or through
    a two-process cluster (tests/server/server_cluster.py)."""

    def build(name: str, **rules: Any) -> Server:
        table = TableConfig(
            name=name,
            game="uth",
            betting_seconds=10,
            decision_seconds=20,
            pause_seconds=0,
            rules=rules,
        )
        return table_server([table])

    return build


def _seat(stack: ExitStack, server: Server, table: str, token: str) -> Seat:
    seat = Seat(stack.enter_context(table_ws(server.client, table, token)))
    seat.welcome()
    return seat


@SQLITE_AND_CLUSTER_SLOW
def test_trips_after_the_ante_is_a_second_request(make_server: Any) -> None:
    server: Server = make_server("live", shared_hand=True)
    _, token = server.player("alice", credit=10_000)
    server.shoes.push(ONE_SEAT)
    with ExitStack() as stack:
        a = _seat(stack, server, "live", token)
        _, other = server.player("bob", credit=10_000)
        b = _seat(stack, server, "live", other)
        # carol sits without betting: betting stays open until its timer runs out
        c = _seat(stack, server, "live", server.player("carol")[1])
        for seat in (a, b, c):
            seat.request({"type": "join"})
        ante = a.request({"type": "bet", "key": "ante", "bets": {"ante": 1_000}})
        assert ante["type"] == "ack" and ante["result"]["staked"] == 2_000
        trips = a.request({"type": "bet", "key": "trips", "bets": {"trips": 500}})
        assert trips["type"] == "ack", trips
        assert trips["result"]["staked"] == 500 and trips["result"]["balance"] == 7_500
        # resent: acknowledged from its record, held once
        again = a.request({"type": "bet", "key": "trips", "bets": {"trips": 500}})
        assert again["type"] == "ack" and again["result"]["replayed"] is True
        twice = a.request({"type": "bet", "key": "trips2", "bets": {"trips": 500}})
        assert twice["code"] == "illegal_action" and "Trips 500 already" in twice["message"]
        more = a.request({"type": "bet", "key": "more", "bets": {"ante": 1_000}})
        assert more["code"] == "illegal_action" and "already bet" in more["message"]
        low = b.request({"type": "bet", "key": "b", "bets": {"ante": 100}})
        assert low["type"] == "ack"
        small = b.request({"type": "bet", "key": "b2", "bets": {"trips": 1}})
        assert small["code"] == "illegal_action" and "outside the table limits" in small["message"]
        assert server.balance(token) == 7_500
        server.clock.advance(10)
        a.event("decisions_open")
        a.request({"type": "act", "action": "4x"})
        b.request({"type": "act", "action": "4x"})
        closed = a.seen("round_closed")
        late = a.request({"type": "bet", "key": "late", "bets": {"trips": 500}})
        assert late["type"] == "error"
    assert closed["status"] == "settled"
    # As Ah with Ad on the board: three aces, Trips 3:1 on 500 (spec/uth.md "Showdown")
    record = server.client.get(
        f"/api/rounds/{closed['round_id']}",
        headers={"Authorization": f"Bearer {server.operator_token()}"},
    ).json()["record"]
    mine = next(r for r in record["results"] if r["seat"] == 0)
    assert next(b for b in mine["bets"] if b["bet"] == "trips")["net"] == 1_500
    assert uth_history.verify(record) == []
    ledger = server.ledger()
    assert ledger["escrow"] == 0 and sum(ledger.values()) == 0


@SQLITE_AND_CLUSTER
def test_limits_changed_in_the_betting_window_apply_to_the_bets_after(make_server: Any) -> None:
    """Seed 003: management may change the limits "tudi med igro", even during play (issue
    28): every bet placed after the change in the round's betting window is checked against
    the new limits; the bets placed before stand."""
    server: Server = make_server("live", shared_hand=True, ante_min=100, trips_min=100)
    _, ta = server.player("alice", credit=100_000)
    _, tb = server.player("bob", credit=100_000)
    server.shoes.push(ONE_SEAT)
    operator = {"Authorization": f"Bearer {server.operator_token()}"}
    with ExitStack() as stack:
        a = _seat(stack, server, "live", ta)
        b = _seat(stack, server, "live", tb)
        c = _seat(stack, server, "live", server.player("carol")[1])  # keeps betting open
        for seat in (a, b, c):
            seat.request({"type": "join"})
        assert a.request({"type": "bet", "key": "a", "bets": {"ante": 100}})["type"] == "ack"
        # management raises the limits during the betting window (seed 003)
        changed = server.client.patch(
            "/api/operator/tables/live",
            json={"min_bet": 1_000, "trips_min": 1_000},
            headers=operator,
        )
        assert changed.status_code == 200, changed.text
        limits = a.event("limits_changed")
        assert (limits["ante_min"], limits["trips_min"]) == (1_000, 1_000)
        low = b.request({"type": "bet", "key": "b", "bets": {"ante": 100}})
        assert low["type"] == "error" and low["reason"] == "bet_out_of_limits", low
        assert low["params"]["min"] == 1_000
        assert b.request({"type": "bet", "key": "b2", "bets": {"ante": 1_000}})["type"] == "ack"
        trips = a.request({"type": "bet", "key": "t", "bets": {"trips": 100}})
        assert trips["type"] == "error" and trips["params"]["min"] == 1_000
        assert a.request({"type": "bet", "key": "t2", "bets": {"trips": 1_000}})["type"] == "ack"
        server.clock.advance(10)
        a.event("decisions_open")
        for s in (a, b):
            s.request({"type": "act", "action": "4x"})
        closed = a.seen("round_closed")
    assert closed["status"] == "settled"
    record = server.client.get(f"/api/rounds/{closed['round_id']}", headers=operator).json()[
        "record"
    ]
    # the round opened at 100; alice's 100 Ante stands, her Trips and bob's Ante came after
    assert record["config"]["ante_min"] == 100
    assert [c["ante_min"] for c in record["limits_changed"]] == [1_000]
    bets = {bet["seat"]: bet for bet in record["bets"]}
    assert bets[0]["ante"] == 100 and bets[0].get("limits", 0) == 0
    assert bets[0]["trips_limits"] == 1 and bets[1]["limits"] == 1
    assert uth_history.verify(record) == []
    assert server.client.get("/api/tables").json()[0]["rules"]["ante_min"] == 1_000
    ledger = server.ledger()
    assert ledger["escrow"] == 0 and sum(ledger.values()) == 0


@SQLITE_AND_CLUSTER_SLOW
def test_a_change_after_the_deal_waits_for_the_next_round(make_server: Any) -> None:
    server: Server = make_server("casino", max_seats=6, ante_min=100)
    _, token = server.player("alice", credit=100_000)
    server.shoes.push(ONE_SEAT)
    operator = {"Authorization": f"Bearer {server.operator_token()}"}
    with ExitStack() as stack:
        a = _seat(stack, server, "casino", token)
        a.request({"type": "join"})
        assert a.request({"type": "bet", "key": "a", "bets": {"ante": 100}})["type"] == "ack"
        a.seen("hole_cards_dealt")  # one seat, all bet: betting closed, cards dealt
        changed = server.client.patch(
            "/api/operator/tables/casino", json={"min_bet": 1_000}, headers=operator
        )
        assert changed.status_code == 200, changed.text
        assert a.request({"type": "act", "action": "4x"})["type"] == "ack"
        closed = a.seen("round_closed")
        kinds = [f["event"]["kind"] for f in a.frames if f["type"] == "event"]
        server.shoes.push(ONE_SEAT)
        low = a.request({"type": "bet", "key": "next", "bets": {"ante": 100}})
        assert low["type"] == "error" and low["params"]["min"] == 1_000
    assert "limits_changed" not in kinds and closed["status"] == "settled"


@SQLITE_AND_CLUSTER_SLOW
@pytest.mark.parametrize("dealing", ["seed003", "seed000"])
def test_the_revealed_deck_says_which_card_went_where(make_server: Any, dealing: str) -> None:
    server: Server = make_server("casino", max_seats=6, dealing=dealing)
    tokens = [server.player(name, credit=50_000)[1] for name in ("alice", "bob", "carol")]
    with ExitStack() as stack:
        seats = [_seat(stack, server, "casino", token) for token in tokens]
        for number, seat in enumerate(seats):
            seat.request({"type": "join", "seat": number * 2})  # boxes 0, 2, 4
        for number, seat in enumerate(seats):
            seat.request({"type": "bet", "key": f"k{number}", "bets": {"ante": 100}})
        holes = [seat.seen("hole_cards_dealt") for seat in seats]
        for seat in seats:
            seat.request({"type": "act", "action": "check"})
        for seat in seats:
            seat.request({"type": "act", "action": "check"})
        for seat in seats:
            seat.request({"type": "act", "action": "1x"})
        closed = seats[0].seen("round_closed")
        revealed = seats[0].seen("dealer_revealed")
        settled = [
            f["event"]["result"]["seat"]
            for f in seats[0].frames
            if f["type"] == "event" and f["event"]["kind"] == "seat_settled"
        ]
    # seed 003: boxes are settled right to left, and the events come in that order
    assert settled == [4, 2, 0]
    reveal = closed["reveal"]
    assert verify(salt=reveal["salt"], deck=reveal["deck"], commitment=reveal["commitment"])
    # docs/protocol.md "Fairness": the table's dealing order and the deck give every card
    deck = [str(c) for c in parse_cards(reveal["deck"])]
    plan = deal_plan(Dealing(dealing), hands=3)
    for number, hole in enumerate(holes):
        own = [
            e for e in seats[number].frames if e.get("event", {}).get("kind") == "hole_cards_dealt"
        ]
        mine = next(e["event"] for e in own if e["event"]["cards"] is not None)
        assert mine["cards"] == [deck[i] for i in plan.hands[number]]
        del hole
    assert revealed["cards"] == [deck[i] for i in plan.dealer]
    assert closed["summary"]["board"] == [deck[i] for i in plan.board]
    assert [r["seat"] for r in closed["summary"]["results"]] == [4, 2, 0]


@SQLITE_AND_CLUSTER_SLOW
def test_uth_options_at_a_server_table(make_server: Any) -> None:
    """play_multiples, trips_needs_win and blind_rounding from the table's rules change what
    the table takes and how it settles (docs/rules.md)."""
    server: Server = make_server(
        "casino",
        max_seats=6,
        play_multiples={"preflop": [3], "flop": [2], "river": [1]},
        trips_needs_win=True,
        blind_rounding="up",
    )
    lobby = server.client.get("/api/tables").json()[0]["rules"]
    assert lobby["play_multiples"]["preflop"] == [3] and lobby["trips_needs_win"] is True
    _, token = server.player("alice", credit=50_000)
    # player Ah Kh, dealer 2c 7d; burn 3s; board Qh Jh Th 4s 4c: a royal flush for alice
    server.shoes.push("Ah 2c Kh 7d 3s Qh Jh Th 4s 4c")
    with ExitStack() as stack:
        a = _seat(stack, server, "casino", token)
        a.request({"type": "join"})
        a.request({"type": "bet", "key": "k", "bets": {"ante": 105, "trips": 100}})
        four = a.request({"type": "act", "action": "4x"})
        assert four["code"] == "illegal_action" and "3x" in four["message"]
        assert a.request({"type": "act", "action": "3x"})["type"] == "ack"
        closed = a.seen("round_closed")
    (result,) = closed["summary"]["results"]
    bets = {b["bet"]: b for b in result["bets"]}
    # the dealer's pair of fours qualifies; the royal flush wins: Ante 1:1, Play 3x 1:1,
    # Blind 500:1, Trips 50:1 (a win)
    assert bets["play"]["stake"] == 315 and bets["play"]["net"] == 315
    assert bets["blind"]["net"] == 52_500 and bets["trips"]["net"] == 5_000


@SQLITE_AND_CLUSTER_SLOW
def test_blind_rounded_up_at_a_server_table(make_server: Any) -> None:
    server: Server = make_server("casino", max_seats=6, blind_rounding="up")
    _, token = server.player("bob", credit=50_000)
    # player Ah 5h, dealer 2c 7d; burn 3s; board Qh Jh 9h 4s 4c: a flush beats the fours
    server.shoes.push("Ah 2c 5h 7d 3s Qh Jh 9h 4s 4c")
    with ExitStack() as stack:
        b = _seat(stack, server, "casino", token)
        b.request({"type": "join"})
        b.request({"type": "bet", "key": "k", "bets": {"ante": 105}})
        b.request({"type": "act", "action": "4x"})
        closed = b.seen("round_closed")
    (result,) = closed["summary"]["results"]
    blind = next(x for x in result["bets"] if x["bet"] == "blind")
    assert (blind["net"], blind["rounding"]) == (158, "-1/2")  # 3:2 on 105 = 157.5, up


# seats 0 and 3 (one card each, the dealer's, twice), a burn, the board: the dealer's 2c 7d on
# Ah Kd 9s 5c 3h make no pair -- the dealer does not qualify (issue 28, seed 003)
NOT_QUALIFIED = "Qs 4s 2c Jh 4d 7d 6c Ah Kd 9s 5c 3h"


@SQLITE_AND_CLUSTER_SLOW
def test_the_antes_come_back_first_at_a_server_table(make_server: Any) -> None:
    server: Server = make_server("casino", max_seats=6)
    tokens = [server.player(name, credit=50_000)[1] for name in ("alice", "bob")]
    server.shoes.push(NOT_QUALIFIED)
    with ExitStack() as stack:
        a, b = (_seat(stack, server, "casino", token) for token in tokens)
        a.request({"type": "join", "seat": 0})
        b.request({"type": "join", "seat": 3})
        a.request({"type": "bet", "key": "a", "bets": {"ante": 100}})
        b.request({"type": "bet", "key": "b", "bets": {"ante": 200}})
        for _ in range(2):
            for seat in (a, b):
                seat.request({"type": "act", "action": "check"})
        for seat in (a, b):
            seat.request({"type": "act", "action": "1x"})
        closed = a.seen("round_closed")
        kinds = [f["event"]["kind"] for f in a.frames if f["type"] == "event"]
        returned = a.seen("antes_returned")
    # before any box is settled, right to left, the boxes still in with their Antes
    assert kinds.index("dealer_revealed") < kinds.index("antes_returned")
    assert kinds.index("antes_returned") < kinds.index("seat_settled")
    assert returned["antes"] == [[3, 200], [0, 100]]
    record = server.client.get(
        f"/api/rounds/{closed['round_id']}",
        headers={"Authorization": f"Bearer {server.operator_token()}"},
    ).json()["record"]
    assert record["antes_returned"] == [[3, 200], [0, 100]]
    assert uth_history.verify(record) == []


@SQLITE_AND_CLUSTER_SLOW
def test_a_live_table_counts_the_antes_returned(make_server: Any) -> None:
    server: Server = make_server("live", shared_hand=True)
    tokens = [server.player(name, credit=50_000)[1] for name in ("alice", "bob")]
    # the shared hand Qs Jh, the dealer's 2c 7d, a burn, the board: not qualified
    server.shoes.push("Qs 2c Jh 7d 6c Ah Kd 9s 5c 3h")
    with ExitStack() as stack:
        a, b = (_seat(stack, server, "live", token) for token in tokens)
        for seat in (a, b):
            seat.request({"type": "join"})
        a.request({"type": "bet", "key": "a", "bets": {"ante": 100}})
        b.request({"type": "bet", "key": "b", "bets": {"ante": 300}})
        a.event("decisions_open")
        for seat in (a, b):
            seat.request({"type": "act", "action": "4x"})
        a.seen("round_closed")
        returned = a.seen("antes_returned")
    # hundreds of boxes are counted, not listed, in what everyone gets
    assert returned["boxes"] == 2 and returned["antes"] == []
