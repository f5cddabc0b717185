"""Every price is the engine's (issue 26): what a bet or a decision stakes at a server table,
what a cluster's gateway would hold for it, what the lobby and the views tell a client a bet
or a button costs -- each is ``Engine.price(action)``, checked against the rules' own words
(spec/uth.md: the Blind equals the Ante, Play is a multiple of it; spec/russian.md: a blind
box places its Bet, fees are multiples of the Ante).
"""

from __future__ import annotations

from typing import Any

import pytest
from server_testkit import Seat, Server, ServerFactory, table_ws

from croupier.server.tables.config import TableConfig

pytestmark = pytest.mark.timeout(90)

CREDIT = 100_000


def _russian(**rules: Any) -> TableConfig:
    return TableConfig(
        name="russian",
        game="russian",
        betting_seconds=10,
        decision_seconds=20,
        pause_seconds=0,
        rules=rules,
    )


def _lobby(server: Server, name: str) -> dict[str, Any]:
    entries: list[dict[str, Any]] = server.client.get("/api/tables").json()
    return next(e for e in entries if e["name"] == name)


def test_the_lobby_gives_each_opening_amounts_price(table_server: ServerFactory) -> None:
    server = table_server(None)
    assert _lobby(server, "casino")["prices"] == {
        "bet": {"ante": 2, "trips": 1},  # the Blind equals the Ante
        "trips": {"trips": 1},
    }
    russian = table_server([_russian(bet_multiple=3, draw_fee_multiple=2)])
    assert _lobby(russian, "russian")["prices"] == {
        "box": {"ante": 1, "bonus": 1},
        "blind_box": {"ante": 4, "bonus": 1, "insurance": 1, "sixth_card": 2},
    }


@pytest.mark.parametrize(
    ("bets", "staked"),
    [({"ante": 100}, 200), ({"ante": 250, "trips": 100}, 600), ({"ante": 100, "blind": 100}, 200)],
)
def test_a_uth_bet_stakes_what_the_gateway_would_hold(
    server: Server, bets: dict[str, int], staked: int
) -> None:
    price = server.app.state.tables.bet_stake
    assert price("casino", bets) == staked
    _, token = server.player("pia", credit=CREDIT)
    with table_ws(server.client, "casino", token) as ws:
        seat = Seat(ws)
        seat.welcome()
        seat.request({"type": "join"})
        ack = seat.request({"type": "bet", "key": "k", "bets": bets})
    assert ack["result"]["staked"] == staked
    assert price("casino", {"ante": 1}) is None  # below the table's minimum: the owner says why


def test_a_uth_views_prices_are_its_play_bets(server: Server) -> None:
    _, token = server.player("quin", credit=CREDIT)
    with table_ws(server.client, "casino", token) as ws:
        seat = Seat(ws)
        seat.welcome()
        seat.request({"type": "join"})
        seat.request({"type": "bet", "key": "k", "bets": {"ante": 150}})
        view = seat.until(lambda f: f["type"] == "state" and (f["view"] or {}).get("legal"))["view"]
        assert view["phase"] == "pre-flop"
        assert view["prices"] == {"4x": 600, "3x": 450}
        play = seat.request({"type": "act", "action": "3x"})
    assert play["result"]["staked"] == 450


def test_russian_prices_follow_the_tables_multiples(table_server: ServerFactory) -> None:
    """A table whose Bet is 3x the Ante and whose fees are 2x: the bet of a blind box, a
    sixth card and the Bet cost what the buttons said."""
    server = table_server([_russian(bet_multiple=3, draw_fee_multiple=2)])
    price = server.app.state.tables.bet_stake
    bets = {"ante": 100, "bonus": 100, "blind_boxes": 1}
    assert price("russian", bets) == 100 + 100 + 100 * (1 + 3)
    _, token = server.player("rolf", credit=CREDIT)
    with table_ws(server.client, "russian", token) as ws:
        seat = Seat(ws)
        seat.welcome()
        seat.request({"type": "join"})
        server.shoes.push("Ah As Ad 7c 2h Kh Ks Kd 8h 2c Qs Qd 9c 5s 3h 4d 6c")
        ack = seat.request({"type": "bet", "key": "k", "bets": bets})
        assert ack["result"]["staked"] == 600
        view = seat.until(lambda f: f["type"] == "state" and (f["view"] or {}).get("legal"))["view"]
        assert view["prices"] == {"exchange": 200, "sixth_card": 200, "bet": 300, "fold": 0}
        sixth = seat.request({"type": "act", "action": "sixth_card"})
        assert sixth["result"]["staked"] == 200
        bet = seat.request({"type": "act", "action": "bet", "amount": 100})
        assert bet["result"]["staked"] == 300 + 100  # the Bet and the insurance chosen
        assert bet["result"]["balance"] == CREDIT - 600 - 200 - 400


def test_russian_hints_price_every_option_of_each_open_box(table_server: ServerFactory) -> None:
    """Two open boxes: box 0 decides, then box 1; in each box's turn the view's hints price
    every option in ``legal`` (the engine's price: fees 2x, the Bet 3x the Ante, a fold
    nothing), so that no client computes a price."""
    rules = {"bet_multiple": 3, "draw_fee_multiple": 2, "open_boxes_per_player": 2}
    server = table_server([_russian(**rules)])
    _, token = server.player("sven", credit=CREDIT)
    expected = {"exchange": 200, "sixth_card": 200, "bet": 300, "fold": 0, "buy": 100}
    with table_ws(server.client, "russian", token) as ws:
        seat = Seat(ws)
        seat.welcome()
        seat.request({"type": "join"})
        server.shoes.push("7c 7d 2h 3s 9c Kh Qs 8d 5c 2d Qh Qd 9d 5s 3h 4d 6c Ah Kc")
        ack = seat.request({"type": "bet", "key": "k", "bets": {"ante": 100, "open_boxes": 2}})
        assert ack["result"]["staked"] == 200
        for box in (0, 1):
            view = seat.until(
                lambda f, box=box: (
                    f["type"] == "state"
                    and (f["view"] or {}).get("to_act") == box
                    and bool(f["view"]["legal"])
                )
            )["view"]
            assert view["legal"] and list(view["prices"]) == view["legal"], view
            assert view["prices"] == {a: expected[a] for a in view["legal"]}
            assert seat.request({"type": "act", "action": "fold"})["type"] == "ack"
