"""``GET /api/games/russian/advice`` and ``GET /api/rounds/{id}/costs`` (Russian Poker and UTH) over HTTP (issue 32)."""

from __future__ import annotations

from fractions import Fraction

from server_testkit import Server

from croupier.analysis.russian.advisor import advise_bet, advise_buy, advise_first


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_russian_advice_at_each_decision(server: Server) -> None:
    _, token = server.player("alice")
    get = server.client.get
    first = get("/api/games/russian/advice", params={"hand": "AsAdAc7h2d"}, headers=_auth(token))
    assert first.status_code == 200, first.text
    body = first.json()
    assert body["decision"] == "first" and body["best_label"] == "exchange 2d 7h"
    actions = [o["action"] for o in body["options"]]
    assert actions.count("exchange") == 31 and "sixth_card" in actions and "fold" in actions
    evs = [Fraction(o["ev_exact"]) for o in body["options"]]
    assert evs == sorted(evs, reverse=True) and body["options"][0]["cost"] == 0
    bet = get(
        "/api/games/russian/advice",
        params={"hand": "AhKd7c5s2h", "seen": "3c4d"},
        headers=_auth(token),
    ).json()
    expected = advise_bet("Ah Kd 7c 5s 2h", "3c 4d")
    assert bet["decision"] == "bet"
    assert [Fraction(o["ev_exact"]) for o in bet["options"]] == [o.ev for o in expected.options]
    buy = get(
        "/api/games/russian/advice",
        params={"hand": "AhAd7c5s2h", "dealer": "KcQd9h6s3c"},
        headers=_auth(token),
    ).json()
    assert buy["decision"] == "buy" and buy["best"] == "decline"
    worth = advise_buy("Ah Ad 7c 5s 2h", "Kc Qd 9h 6s 3c").options
    assert {o["action"]: Fraction(o["ev_exact"]) for o in buy["options"]} == {
        o.action: o.ev for o in worth
    }


def test_russian_advice_refuses_bad_cards_and_strangers(server: Server) -> None:
    _, token = server.player("bob")
    get = server.client.get
    for params in (
        {"hand": "AsAs7h2d3c"},
        {"hand": "AsKd"},
        {"hand": "AhAd7c5s2h", "dealer": "AsKd5c4h2d"},  # a dealer who qualifies
    ):
        bad = get("/api/games/russian/advice", params=params, headers=_auth(token))
        assert bad.status_code == 422 and bad.json()["error"]["code"] == "invalid_cards", params
    anonymous = get("/api/games/russian/advice", params={"hand": "AsAdAc7h2d"})
    assert anonymous.status_code == 401


def test_a_rounds_decision_costs(server: Server) -> None:
    """``GET /api/rounds/{id}/costs``: a stored Russian round's decisions, each valued, for
    its player; another player may not see them."""
    from croupier.deck import Shoe, seeded_source, shuffled
    from croupier.games.russian import RussianConfig, RussianRound
    from croupier.history import russian as history
    from croupier.server.base import utcnow
    from croupier.server.tables.models import Round, RoundPlayer, RoundStatus

    user, token = server.player("carol")
    game = RussianRound(config=RussianConfig(), shoe=Shoe(shuffled(seeded_source(3))))
    game.place_box(0, box=0, ante=1_000)
    game.deal()
    game.fold(0, box=0)
    with server.app.state.db.session() as session:
        row = Round(
            table_name="russian", game="russian", status=RoundStatus.SETTLED.value,
            commitment="c", salt="s", deck="d", record=history.record(game), closed_at=utcnow(),
        )  # fmt: skip
        session.add(row)
        session.flush()
        session.add(RoundPlayer(round_id=row.id, user_id=user, seat=0, staked=1_000, returned=0))
        round_id = row.id
    got = server.client.get(f"/api/rounds/{round_id}/costs", headers=_auth(token))
    assert got.status_code == 200, got.text
    (fold,) = got.json()["costs"]
    best = advise_first(game.cards(0)).options[0]
    assert fold["taken"] == "fold" and fold["best"] == best.label
    assert fold["taken_option"] == {"action": "fold", "cards": [], "insurance": 0}
    assert fold["best_option"] == {
        "action": best.action,
        "cards": [str(c) for c in best.discard],
        "insurance": best.insurance * 1_000,
    }
    assert Fraction(fold["cost_exact"]) == max(best.ev, Fraction(-1)) + 1
    assert fold["cost_money"] == round(Fraction(fold["cost_exact"]) * 1_000)
    _, other = server.player("dave")
    assert server.client.get(f"/api/rounds/{round_id}/costs", headers=_auth(other)).status_code in (
        403,
        404,
    )


def test_a_uth_rounds_decision_costs(server: Server) -> None:
    """A UTH round played over the socket: checking pocket Aces pre-flop costs the 4x's
    exact EV minus the check's; the flop's 2x is valued on the flop the seat saw."""
    from server_testkit import Seat, table_ws

    from croupier.analysis.uth.advisor import advise

    user, token = server.player("erin", credit=100_000)
    server.shoes.push("As 2c Ah 7d 3s Ad Kc 9h 4s Jc")  # the seat holds As Ah
    with table_ws(server.client, "casino", token) as ws:
        seat = Seat(ws)
        seat.welcome()
        assert seat.request({"type": "join"})["type"] == "ack"
        bet = seat.request({"type": "bet", "key": "b1", "bets": {"ante": 1_000}})
        assert bet["type"] == "ack", bet
        seat.request({"type": "act", "action": "check"})
        seat.request({"type": "act", "action": "play", "multiple": 2})
        assert seat.seen("round_closed")["status"] == "settled"
    (mine,) = server.client.get("/api/rounds", headers=_auth(token)).json()
    got = server.client.get(f"/api/rounds/{mine['id']}/costs", headers=_auth(token)).json()
    pre, flop = got["costs"]
    preflop = {o.action: o.ev for o in advise("AsAh").options}
    assert pre["decision"] == "preflop" and pre["taken"] == "check" and pre["best"] == "4x"
    assert pre["taken_option"] == {"action": "check", "cards": [], "insurance": 0}
    assert pre["best_option"] == {"action": "4x", "cards": [], "insurance": 0}
    assert Fraction(pre["cost_exact"]) == preflop["4x"] - preflop["check"] > 0
    assert pre["cost_money"] == round((preflop["4x"] - preflop["check"]) * 1_000)
    assert flop["decision"] == "flop" and flop["taken"] == "2x"
    assert flop["taken_option"] == {"action": "2x", "cards": [], "insurance": 0}
    del user
