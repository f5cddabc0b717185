"""An operator's change to a table names a game's own limits by the game's words alone: a
new game's side bet is changed and ordered through its descriptor and operator settings, with
nothing in ``server/floor`` naming it (issue 31: a new game costs only its own files)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from croupier.errors import ConfigError
from croupier.server.errors import InvalidRequestError
from croupier.server.floor import changes
from croupier.server.floor.models import TableStatus
from croupier.server.tables import registry
from croupier.server.tables.config import TableConfig
from croupier.server.tables.descriptor import GameDescriptor, money
from croupier.server.tables.games import OperatorSettings

_RULES = {"ante_min": 100, "ante_max": 10_000, "lucky_min": 50, "lucky_max": 1_000}


def _build(config: TableConfig) -> Any:
    rules = {**_RULES, **config.rules}
    if rules["lucky_max"] > 5 * rules["ante_max"]:
        raise ConfigError("lucky_max is more than five Antes")
    return object()


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> TableConfig:
    """A game the floor has never heard of, with a side bet ``lucky`` and its limits."""
    games = dict(registry.descriptors())
    games["toy"] = GameDescriptor(
        name="toy",
        build=_build,
        settings=(
            money("ante_min", 100, at_most="ante_max"),
            money("ante_max", 10_000),
            money("lucky_min", 50, at_most="lucky_max"),
            money("lucky_max", 1_000),
        ),
        operator=OperatorSettings(
            limits={
                "min_bet": "ante_min",
                "max_bet": "ante_max",
                "lucky_min": "lucky_min",
                "lucky_max": "lucky_max",
            }
        ),
    )
    monkeypatch.setattr(registry, "_GAMES", games)
    return TableConfig(name="toy-1", game="toy", rules=dict(_RULES))


def _patched(config: TableConfig, body: dict[str, Any]) -> changes.Patched:
    patch = changes.TablePatch.model_validate(body)
    return changes.patched(config, patch, status=TableStatus.OPEN, described=dict(config.rules))


def test_a_new_games_side_bet_limits_change_by_its_own_names(toy: TableConfig) -> None:
    assert changes.limit_pairs("toy") == [("min_bet", "max_bet"), ("lucky_min", "lucky_max")]
    done = _patched(toy, {"lucky_min": 200, "lucky_max": 2_000, "max_bet": 20_000})
    assert done.config.rules == {**_RULES, "lucky_min": 200, "lucky_max": 2_000, "ante_max": 20_000}
    assert done.changed == {
        "lucky_min": {"from": 50, "to": 200},
        "lucky_max": {"from": 1_000, "to": 2_000},
        "max_bet": {"from": 10_000, "to": 20_000},
    }
    assert changes.limits("toy", done.config.rules)["lucky_min"] == 200


@pytest.mark.parametrize(
    ("body", "error", "reason", "field"),
    [
        ({"lucky_min": 2_000}, InvalidRequestError, "limit_order", "lucky_min"),
        ({"lucky_min": 600, "lucky_max": 500}, InvalidRequestError, "limit_order", "lucky_min"),
        ({"lucky_max": 60_000}, ConfigError, "table_rules", "lucky_max"),
        ({"trips_min": 100}, InvalidRequestError, "field_not_for_game", "trips_min"),
        ({"lucky_min": 2.5}, ValidationError, None, "lucky_min"),
        ({"lucky_min": "100"}, ValidationError, None, "lucky_min"),
        ({"lucky_min": 0}, ValidationError, None, "lucky_min"),
        ({"lucky_min": True}, ValidationError, None, "lucky_min"),
        ({"lucky_max": 10**13}, ValidationError, None, "lucky_max"),
    ],
)
def test_a_bad_side_bet_limit_is_refused_naming_it(
    toy: TableConfig, body: dict[str, Any], error: type[Exception], reason: str | None, field: str
) -> None:
    with pytest.raises(error) as caught:
        _patched(toy, body)
    assert field in str(caught.value)
    if reason is not None:
        assert getattr(caught.value, "reason", None) == reason


def test_the_shipped_games_keep_their_pairs() -> None:
    """The pairs the floor used to list by hand, now each game's descriptor's."""
    assert changes.limit_pairs("uth") == [("min_bet", "max_bet"), ("trips_min", "trips_max")]
    assert changes.limit_pairs("russian") == [("min_bet", "max_bet"), ("bonus_min", "bonus_max")]
    assert changes.limit_pairs("holdem") == [("min_bet", "max_bet")]
