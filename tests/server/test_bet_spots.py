"""A ``bet`` per game with its spots (issue 26, "the wire is typed end to end"): each game's
``bets`` is its own struct (``<game>_wire``), decoded strictly once the table's game is known;
the JSON on the wire is unchanged, and the schema shows each game's spots."""

from __future__ import annotations

from typing import Any

import pytest
from server_cluster import SQLITE_AND_CLUSTER
from server_testkit import Seat, ServerFactory, table_ws

from croupier.server.errors import InvalidRequestError
from croupier.server.tables.config import TableConfig
from croupier.server.tables.registry import available_games, bet_spots
from croupier.server.tables.wire import read_spots
from croupier.server.tables.wire_docs import schema

pytestmark = pytest.mark.timeout(90)


def test_every_banked_game_has_its_spots_and_the_schema_shows_them() -> None:
    spots = bet_spots()
    banked = {
        game
        for game, build in available_games().items()
        if build(TableConfig(name="t", game=game)).kind == "banked"
    }
    assert set(spots) == banked  # Hold'em (cash) has no bet
    defs = schema()["$defs"]
    shown = {ref["$ref"] for ref in defs["BetMessage"]["properties"]["bets"]["anyOf"]}
    assert shown == {f"#/$defs/{t.__name__}" for t in spots.values()}
    for kind in spots.values():
        assert set(defs[kind.__name__]["properties"]) == set(kind.__struct_fields__)
        assert defs[kind.__name__]["additionalProperties"] is False


@pytest.mark.parametrize("game", sorted(bet_spots()))
def test_a_spot_of_another_game_is_refused_naming_it(game: str) -> None:
    kind = bet_spots()[game]
    others = {
        name
        for other in bet_spots().values()
        for name in other.__struct_fields__
        if name not in kind.__struct_fields__
    }
    for name in sorted(others):
        with pytest.raises(InvalidRequestError) as caught:
            read_spots({"ante": 100, name: 1}, kind)
        assert caught.value.reason == "unknown_spots"
        assert caught.value.params == {"spots": [name]} and name in str(caught.value)
    assert read_spots({"ante": 100}, kind).ante == 100  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("game", "bets", "reason", "named"),
    [
        (
            "russian",
            {"ante": 100, "blind_boxes": 1, "blind_sixth": 2},
            "not_a_choice",
            "blind_sixth",
        ),
        ("caribbean", {"ante": 100, "progressive": 2}, "not_a_choice", "progressive"),
        ("russian", {"ante": 100, "blind_boxes": 101}, "message_invalid", "blind_boxes"),
        ("uth", {"ante": 100, "trips": -1}, "message_invalid", "trips"),
        ("uth", {"ante": 10**13}, "message_invalid", "ante"),
    ],
)
def test_an_amount_a_spot_does_not_take_is_refused_naming_it(
    game: str, bets: dict[str, int], reason: str, named: str
) -> None:
    with pytest.raises(InvalidRequestError) as caught:
        read_spots(bets, bet_spots()[game])
    assert caught.value.reason == reason and named in str(caught.value)


def _russian(**rules: Any) -> TableConfig:
    return TableConfig(
        name="russian",
        game="russian",
        betting_seconds=10,
        decision_seconds=20,
        pause_seconds=0,
        rules=rules,
    )


@SQLITE_AND_CLUSTER
def test_a_russian_bet_is_decoded_by_its_game_over_the_socket(
    table_server: ServerFactory,
) -> None:
    server = table_server([_russian(blind_sixth_card=True)])
    _, token = server.player("zoe", credit=10_000)
    with table_ws(server.client, "russian", token) as ws:
        seat = Seat(ws)
        seat.welcome()
        assert seat.request({"type": "join"})["type"] == "ack"
        for bets, reason, named in (
            ({"ante": 100, "trips": 5}, "unknown_spots", "trips"),
            ({"ante": 100, "progressive": 1}, "unknown_spots", "progressive"),
            ({"ante": 100, "blind_boxes": 1, "blind_sixth": 3}, "not_a_choice", "blind_sixth"),
            ({"bonus": 100}, "ante_required", "ante"),
        ):
            error = seat.request({"type": "bet", "key": f"k{named}", "bets": bets})
            assert error["type"] == "error" and error["reason"] == reason, (bets, error)
            assert named in error["message"]
            assert server.balance(token) == 10_000  # nothing changed
        good = {"ante": 100, "blind_boxes": 1, "blind_sixth": 1}
        ack = seat.request({"type": "bet", "key": "good", "bets": good})
        # open 100; blind 100 Ante + 200 Bet + 100 sixth-card fee
        assert ack["type"] == "ack" and ack["result"]["staked"] == 500, ack
        assert server.balance(token) == 9_500
