"""Games as plug-ins (issue 31): each game's descriptor, served by the registry at
``GET /api/games``, gives its table settings (kinds, bounds, defaults, choices); the server
checks an operator's new table against them (a value out of bounds is refused naming the
setting, nothing made), and a Caribbean Stud table opens from them like any other."""

from __future__ import annotations

from typing import Any

import pytest
from server_testkit import Server, ServerFactory, test_tables

from croupier.errors import ConfigError
from croupier.server.tables.config import TableConfig
from croupier.server.tables.registry import available_games, descriptors

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


_MAX_NEEDS_OTHER_RULES = {("russian", "boxes")}
"""Eight Russian boxes need more cards than a deck under the default rules: the game takes
them with other rules (three players, ``rebuy_same_rank = false``), so the setting's bound is
8 and the game's own check of the deck refuses the rest."""


def _defaults(game: dict[str, Any]) -> dict[str, Any]:
    return {s["name"]: s["default"] for s in game["settings"] if s["default"] is not None}


def _build(game: str, rules: dict[str, Any]) -> None:
    available_games()[game](TableConfig(name="t", game=game, rules=rules))


@SQLITE
def test_every_game_is_described_with_its_settings(casino: Server) -> None:
    response = casino.client.get("/api/games")
    assert response.status_code == 200, response.text
    games = {g["name"]: g for g in response.json()}
    assert set(games) == set(descriptors()) >= {"uth", "holdem", "russian", "caribbean"}
    for name, game in games.items():
        assert game["title"] == f"game.{name}"
        kinds = {s["name"]: s["kind"] for s in game["settings"]}
        assert kinds, name
        # every request word of the operator's limits names a described setting
        assert set(game["limits"].values()) <= set(kinds), name
        for setting in game["settings"]:
            if setting["kind"] in ("money", "count"):
                assert setting["min"] <= setting["max"], setting
            if setting["kind"] == "choice":
                assert setting["default"] in setting["choices"], setting
    caribbean = games["caribbean"]
    assert caribbean["limits"] == {
        "min_bet": "ante_min",
        "max_bet": "ante_max",
        "max_payout": "max_payout",
    }
    assert caribbean["theory"]["rake_only"] is False and caribbean["advisor"] is True
    assert games["holdem"]["theory"]["rake_only"] is True and games["holdem"]["advisor"] is False


@pytest.mark.parametrize("game", sorted(descriptors()))
def test_the_described_defaults_and_bounds_are_tables_the_game_accepts(game: str) -> None:
    described = descriptors()[game].json()
    defaults = _defaults(described)
    _build(game, defaults)
    for setting in described["settings"]:
        if setting["kind"] != "count":
            continue
        _build(game, {**defaults, setting["name"]: setting["min"]})
        if (game, setting["name"]) not in _MAX_NEEDS_OTHER_RULES:
            _build(game, {**defaults, setting["name"]: setting["max"]})
        # one beyond a bound: the game itself refuses it too (the schema is not looser)
        with pytest.raises(ConfigError):
            _build(game, {**defaults, setting["name"]: setting["max"] + 1})
    if game == "russian":
        _build(game, {**defaults, "boxes": 8, "max_players": 3, "rebuy_same_rank": False})


@SQLITE
def test_a_caribbean_stud_table_opens_from_its_described_settings(casino: Server) -> None:
    games = {g["name"]: g for g in casino.client.get("/api/games").json()}
    rules = {**_defaults(games["caribbean"]), "ante_min": 500, "ante_max": 20_000}
    body = {"name": "stud", "game": "caribbean", "title": "Stud", "rules": rules}
    response = casino.client.post("/api/operator/tables", json=body, headers=_op(casino))
    assert response.status_code == 201, response.text
    made = response.json()
    assert made["game"] == "caribbean" and made["status"] == "open"
    assert made["limits"]["min_bet"] == 500 and made["limits"]["max_bet"] == 20_000
    assert made["theoretical_return"]["status"] == "ready"
    lobby = {t["name"]: t for t in casino.client.get("/api/tables").json()}
    assert lobby["stud"]["game"] == "caribbean"


@SQLITE
@pytest.mark.parametrize(
    ("game", "rules", "reason", "setting"),
    [
        ("caribbean", {"ante_min": 0}, "setting_out_of_range", "ante_min"),
        ("caribbean", {"ante_max": 10**13}, "setting_out_of_range", "ante_max"),
        ("caribbean", {"raise_multiple": 11}, "setting_count_out_of_range", "raise_multiple"),
        ("caribbean", {"max_seats": 0}, "setting_count_out_of_range", "max_seats"),
        ("caribbean", {"ante_min": "5"}, "setting_type", "ante_min"),
        ("caribbean", {"ante_min": 900, "ante_max": 800}, "limit_order", None),
        ("uth", {"shared_hand": "yes"}, "setting_type", "shared_hand"),
        ("uth", {"trips_max": 0}, "setting_out_of_range", "trips_max"),
        ("russian", {"max_players": 5}, "setting_count_out_of_range", "max_players"),
        ("holdem", {"structure": "spread-limit"}, "setting_not_a_choice", "structure"),
        ("holdem", {"max_seats": 11}, "setting_count_out_of_range", "max_seats"),
        ("holdem", {"rake_percent": 101}, "setting_count_out_of_range", "rake_percent"),
        ("holdem", {"rake_percent": "lots"}, "setting_type", "rake_percent"),
    ],
)
def test_a_setting_out_of_bounds_is_refused_by_name_and_nothing_is_made(
    casino: Server, game: str, rules: dict[str, Any], reason: str, setting: str | None
) -> None:
    before = _names(casino)
    body = {"name": "refused", "game": game, "rules": rules}
    response = casino.client.post("/api/operator/tables", json=body, headers=_op(casino))
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["reason"] == reason
    if setting is not None:
        assert error["params"]["setting"] == setting and setting in error["message"]
    assert _names(casino) == before


@SQLITE
def test_uth_advice_at_the_generic_path_and_the_older_one(casino: Server) -> None:
    _, token = casino.player("alice")
    auth = {"Authorization": f"Bearer {token}"}
    older = casino.client.get("/api/uth/advice", params={"hole": "AsKs"}, headers=auth)
    generic = casino.client.get("/api/games/uth/advice", params={"hole": "AsKs"}, headers=auth)
    assert older.status_code == generic.status_code == 200, older.text
    assert older.json() == generic.json() and generic.json()["best"] == "4x"
    bad = casino.client.get("/api/games/uth/advice", params={"hole": "Zz"}, headers=auth)
    assert bad.status_code == 422 and bad.json()["error"]["params"]["field"] == "hole"
