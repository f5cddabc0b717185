"""Events and actions carry explicit wire names (``kind``): renaming a class never changes the
protocol. Every event and action class of every game names itself, the names are unique in
their game, and they are the names protocol version 1 already used."""

from __future__ import annotations

import re
from types import ModuleType

import pytest

from croupier.games import caribbean, holdem, russian, uth
from croupier.games.caribbean import actions as caribbean_actions
from croupier.games.caribbean import events as caribbean_events
from croupier.games.holdem import actions as holdem_actions
from croupier.games.holdem import events as holdem_events
from croupier.games.protocol import Action, Event
from croupier.games.russian import actions as russian_actions
from croupier.games.russian import events as russian_events
from croupier.games.uth import actions as uth_actions
from croupier.games.uth import events as uth_events

MODULES = {
    "uth": (uth_events, uth_actions),
    "russian": (russian_events, russian_actions),
    "holdem": (holdem_events, holdem_actions),
    "caribbean": (caribbean_events, caribbean_actions),
}
# the one wire name protocol v1 did not derive from the class name: UTH's burn (the class is
# now CardBurned in every game; the UTH client knows the event as card_burnt)
LEGACY = {("uth", "CardBurned"): "card_burnt"}
_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")


def _classes(module: ModuleType, base: type) -> list[type]:
    return [
        value
        for name, value in vars(module).items()
        if isinstance(value, type)
        and issubclass(value, base)
        and value.__module__ == module.__name__
        and name in getattr(module, "__all__", ())
        and not name.endswith("Event")
    ]


@pytest.mark.parametrize("game", sorted(MODULES))
def test_every_event_names_itself_uniquely_as_protocol_v1_did(game: str) -> None:
    events, _ = MODULES[game]
    classes = _classes(events, Event)
    assert len(classes) >= 10
    kinds = [cls.kind for cls in classes]
    assert len(set(kinds)) == len(kinds), kinds
    for cls in classes:
        assert "kind" in vars(cls), f"{cls.__name__} inherits its wire name"
        derived = _CAMEL.sub("_", cls.__name__).lower()
        assert cls.kind == LEGACY.get((game, cls.__name__), derived), cls.__name__


@pytest.mark.parametrize("game", sorted(MODULES))
def test_every_action_names_itself_uniquely(game: str) -> None:
    _, actions = MODULES[game]
    classes = _classes(actions, Action)
    kinds = [cls.kind for cls in classes]
    assert len(classes) >= 6 and len(set(kinds)) == len(kinds), kinds
    assert all("kind" in vars(cls) for cls in classes)


def test_a_renamed_class_keeps_its_wire_name() -> None:
    renamed = type("SomethingElse", (russian_events.CardsDealt,), {"__slots__": ()})
    assert renamed.kind == "cards_dealt"


def test_one_burn_event_and_one_void_phase_name_in_every_game() -> None:
    assert uth_events.CardBurned.__name__ == holdem_events.CardBurned.__name__
    assert not hasattr(uth_events, "CardBurnt")
    for phase in (uth.Phase, russian.Phase, holdem.Phase, caribbean.Phase):
        assert phase["VOIDED"].value == "voided" and phase["SETTLED"].value == "settled"
        assert "VOID" not in phase.__members__
