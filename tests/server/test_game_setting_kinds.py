"""The descriptors' schema covers the rules each game's own config used to check alone (issue
31): UTH's pay tables and Play multiples, Russian Poker's options and pay tables, Hold'em's
showdown, odd-chip and ante rules. The server refuses an operator's bad value naming the
setting (the schema's reason, not the game's configuration error), nothing made; a good value
opens the table with it."""

from __future__ import annotations

from typing import Any

import pytest
from server_testkit import Server, ServerFactory, test_tables

from croupier.server.errors import InvalidRequestError
from croupier.server.tables.descriptor import multiples, paytable
from croupier.server.tables.registry import descriptors

pytestmark = pytest.mark.timeout(120)
SQLITE = pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)


@pytest.fixture
def casino(table_server: ServerFactory) -> Server:
    return table_server(test_tables())


def _op(server: Server) -> dict[str, str]:
    return {"Authorization": f"Bearer {server.operator_token()}"}


def _names(server: Server) -> list[str]:
    response = server.client.get("/api/operator/tables", headers=_op(server))
    assert response.status_code == 200, response.text
    return [t["name"] for t in response.json()]


def _open(server: Server, name: str, game: str, rules: dict[str, Any]) -> Any:
    body = {"name": name, "game": game, "title": name, "rules": rules}
    return server.client.post("/api/operator/tables", json=body, headers=_op(server))


@SQLITE
@pytest.mark.parametrize(
    ("game", "rules", "reason", "setting"),
    [
        ("uth", {"trips_paytable": {"queen_high": 3}}, "setting_unknown_line", "trips_paytable"),
        ("uth", {"blind_paytable": {"flush": "lots"}}, "setting_odds", "blind_paytable"),
        ("uth", {"blind_paytable": {"flush": -1}}, "setting_odds", "blind_paytable"),
        ("uth", {"blind_paytable": {"flush": "3:0"}}, "setting_odds", "blind_paytable"),
        ("uth", {"trips_paytable": "generous"}, "setting_type", "trips_paytable"),
        ("uth", {"play_multiples": {"preflop": [4, 4]}}, "setting_multiples", "play_multiples"),
        ("uth", {"play_multiples": {"preflop": [11]}}, "setting_multiples", "play_multiples"),
        ("uth", {"play_multiples": {"flop": []}}, "setting_multiples", "play_multiples"),
        ("uth", {"play_multiples": {"turn": [2]}}, "setting_unknown_line", "play_multiples"),
        ("uth", {"play_multiples": [4, 3]}, "setting_type", "play_multiples"),
        ("russian", {"bonus_on_fold": "refunded"}, "setting_not_a_choice", "bonus_on_fold"),
        ("russian", {"failed_buy_ante": "half"}, "setting_not_a_choice", "failed_buy_ante"),
        (
            "russian",
            {"duplicate_rank_straights": "one"},
            "setting_not_a_choice",
            "duplicate_rank_straights",
        ),
        ("russian", {"exchange_max": 6}, "setting_count_out_of_range", "exchange_max"),
        ("russian", {"open_boxes_per_player": 3}, "setting_count_out_of_range", None),
        ("russian", {"blind_insurance": "yes"}, "setting_type", "blind_insurance"),
        ("russian", {"ante_pays_on_win": 1}, "setting_type", "ante_pays_on_win"),
        ("russian", {"bet_paytable": {"pair": "3:2"}}, "setting_odds", "bet_paytable"),
        ("russian", {"bonus_paytable": {"ace_king": 5}}, "setting_unknown_line", None),
        ("holdem", {"showdown": "dealer-decides"}, "setting_not_a_choice", "showdown"),
        ("holdem", {"odd_chip": "dealer"}, "setting_not_a_choice", "odd_chip"),
        ("holdem", {"first_to_show": "button"}, "setting_not_a_choice", "first_to_show"),
        ("holdem", {"ante": -5}, "setting_out_of_range", "ante"),
        ("russian", {"bet_multiple": 11}, "setting_count_out_of_range", "bet_multiple"),
        ("russian", {"draw_fee_multiple": 0}, "setting_count_out_of_range", "draw_fee_multiple"),
        ("russian", {"buy_fee_multiple": 1_000_000}, "setting_count_out_of_range", None),
        ("russian", {"insurance_min_multiple": "2"}, "setting_type", None),
        ("caribbean", {"dealing": "shuffled"}, "setting_not_a_choice", "dealing"),
        ("caribbean", {"jackpot": -1}, "setting_out_of_range", "jackpot"),
        ("caribbean", {"jackpot": "lots"}, "setting_type", "jackpot"),
        ("caribbean", {"progressive_bet": 0}, "setting_out_of_range", "progressive_bet"),
        ("caribbean", {"raise_paytable": {"pair": "even"}}, "setting_odds", "raise_paytable"),
        ("caribbean", {"raise_paytable": {"ace_king": 1}}, "setting_unknown_line", None),
    ],
)
def test_a_bad_game_option_is_refused_by_name_and_nothing_is_made(
    casino: Server, game: str, rules: dict[str, Any], reason: str, setting: str | None
) -> None:
    before = _names(casino)
    response = _open(casino, "refused", game, rules)
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["reason"] == reason, error
    named = setting or next(iter(rules))
    assert error["params"]["setting"] == named and named in error["message"]
    assert _names(casino) == before


@SQLITE
@pytest.mark.parametrize(
    ("game", "rules"),
    [
        (
            "uth",
            {
                "trips_paytable": {
                    "Royal Flush": "50:1",
                    "straight-flush": 40,
                    "four_of_a_kind": 30,
                    "full_house": 8,
                    "flush": 7,
                    "straight": 4,
                    "three_of_a_kind": 3,
                },
                "play_multiples": {"preflop": [3], "flop": [2, 1]},
            },
        ),
        ("russian", {"bonus_on_fold": "stands", "exchange_min": 2, "blind_insurance": True}),
        ("russian", {"bet_multiple": 3, "draw_fee_multiple": 2, "buy_fee_multiple": 2}),
        ("holdem", {"showdown": "any-muck", "odd_chip": "suit", "ante": 25}),
        (
            "caribbean",
            {
                "progressive_bet": 100,
                "jackpot": 2_500_000,
                "dealing": "hands",
                "raise_paytable": {"Royal Flush": "250:1", "straight-flush": 50},
            },
        ),
    ],
)
def test_a_good_game_option_opens_the_table(
    casino: Server, game: str, rules: dict[str, Any]
) -> None:
    response = _open(casino, f"fine-{game}", game, rules)
    assert response.status_code == 201, response.text
    assert f"fine-{game}" in _names(casino)
    listed = casino.client.get("/api/operator/tables", headers=_op(casino)).json()
    made = next(t for t in listed if t["name"] == f"fine-{game}")["rules"]
    for rule, value in rules.items():  # the table has each scalar rule as it was asked
        if not isinstance(value, dict):
            assert made[rule] == value, (rule, made)


def test_every_option_the_games_took_alone_is_described() -> None:
    described = {name: {s.name: s for s in d.settings} for name, d in descriptors().items()}
    assert {"blind_paytable", "trips_paytable", "play_multiples"} <= set(described["uth"])
    assert {"showdown", "odd_chip", "first_to_show", "ante"} <= set(described["holdem"])
    russian = {"bonus_on_fold", "failed_buy_ante", "duplicate_rank_straights", "bet_paytable"}
    assert russian <= set(described["russian"])
    # the defaults are what each game takes when the rule is left out
    assert described["uth"]["play_multiples"].default == {
        "preflop": [4, 3],
        "flop": [2],
        "river": [1],
    }
    assert described["holdem"]["showdown"].default == "seed"
    caribbean = {"raise_paytable", "progressive_bet", "jackpot", "dealing", "max_payout"}
    assert caribbean <= set(described["caribbean"])
    assert described["caribbean"]["dealing"].default == "one_at_a_time"
    assert described["caribbean"]["raise_paytable"].default["straight_flush"] == "50:1"


def test_the_kinds_check_their_values_alone() -> None:
    whole = paytable("p", {"pair": 1}, ("pair", "flush"))
    ratios = paytable("q", {"pair": 1}, ("pair", "flush"), fractions=True)
    whole.check({"pair": 2, "Flush": 0})
    ratios.check({"pair": "3:2", "flush": " 5 "})
    for bad in ({"pair": "3:2"}, {"pair": True}, {}, {"two pair": 1}, ["pair"]):
        with pytest.raises(InvalidRequestError):
            whole.check(bad)
    steps = multiples("m", {"a": [1]}, ("a", "b"), 1, 4)
    steps.check({"a": [4, 1], "b": [2]})
    for bad in ({"a": [0]}, {"a": [5]}, {"a": [2, 2]}, {"a": "2"}, {"a": [True]}, {"c": [1]}):
        with pytest.raises(InvalidRequestError):
            steps.check(bad)
