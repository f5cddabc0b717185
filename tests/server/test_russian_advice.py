"""``GET /api/russian/advice``: the Russian Poker advisor over HTTP (issue 32)."""

from __future__ import annotations

from fractions import Fraction

from server_testkit import Server

from croupier.analysis.russian.advisor import advise_bet, advise_buy


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_russian_advice_at_each_decision(server: Server) -> None:
    _, token = server.player("alice")
    get = server.client.get
    first = get("/api/russian/advice", params={"hand": "AsAdAc7h2d"}, headers=_auth(token))
    assert first.status_code == 200, first.text
    body = first.json()
    assert body["decision"] == "first" and body["best_label"] == "exchange 2d 7h"
    actions = [o["action"] for o in body["options"]]
    assert actions.count("exchange") == 31 and "sixth_card" in actions and "fold" in actions
    evs = [Fraction(o["ev_exact"]) for o in body["options"]]
    assert evs == sorted(evs, reverse=True) and body["options"][0]["cost"] == 0
    bet = get(
        "/api/russian/advice", params={"hand": "AhKd7c5s2h", "seen": "3c4d"}, headers=_auth(token)
    ).json()
    expected = advise_bet("Ah Kd 7c 5s 2h", "3c 4d")
    assert bet["decision"] == "bet"
    assert [Fraction(o["ev_exact"]) for o in bet["options"]] == [o.ev for o in expected.options]
    buy = get(
        "/api/russian/advice",
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
        bad = get("/api/russian/advice", params=params, headers=_auth(token))
        assert bad.status_code == 422 and bad.json()["error"]["code"] == "invalid_cards", params
    anonymous = get("/api/russian/advice", params={"hand": "AsAdAc7h2d"})
    assert anonymous.status_code == 401
