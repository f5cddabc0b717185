"""The games a table can host, at the top of the table layer: one
:class:`~.descriptor.GameDescriptor` per game, given by the game's own files
(``server/tables/<game>_descriptor.py``): its name and title, its table settings (the
operator's forms and the server's checks of them), its factory, recall view, theory of the
return, advisor and decision costs. ``GET /api/games`` serves them (:func:`descriptors_json`).

The layers below know no game: a :class:`croupier.server.tables.table.Table` drives a
:class:`croupier.server.tables.games.GameFactory`'s rounds, and :mod:`.rounds` recalls a round
through the view it is handed. A fourth game is its own files and one line here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from croupier.server.rounds.store import RecallView, RecallViews
from croupier.server.rounds.theory import GameTheory
from croupier.server.tables import (
    caribbean_descriptor,
    holdem_descriptor,
    russian_descriptor,
    uth_descriptor,
)
from croupier.server.tables.descriptor import Advisor, Costs, GameDescriptor
from croupier.server.tables.games import FactoryBuilder, OperatorSettings
from croupier.server.tables.wire import Spots

__all__ = [
    "Advisor",
    "Costs",
    "GameDescriptor",
    "advice_paths",
    "advisors",
    "available_games",
    "bet_spots",
    "decision_costs",
    "descriptor",
    "descriptors",
    "descriptors_json",
    "operator_settings",
    "recall_views",
    "register_game",
    "theories",
]


_NO_SETTINGS = OperatorSettings(limits={})

_GAMES: dict[str, GameDescriptor] = {
    d.name: d
    for d in (
        uth_descriptor.DESCRIPTOR,
        holdem_descriptor.DESCRIPTOR,
        russian_descriptor.DESCRIPTOR,
        caribbean_descriptor.DESCRIPTOR,
    )
}


def register_game(
    game: str,
    build: FactoryBuilder,
    recall_view: RecallView | None = None,
    theory: GameTheory | None = None,
    settings: OperatorSettings | None = None,
) -> None:
    """Make ``game`` available to tables (tests register toy games this way)."""
    _GAMES[game] = GameDescriptor(
        name=game,
        build=build,
        recall_view=recall_view,
        theory=theory,
        operator=settings or _NO_SETTINGS,
    )


def descriptors() -> Mapping[str, GameDescriptor]:
    """Every registered game's descriptor, by name."""
    return dict(_GAMES)


def descriptor(game: str) -> GameDescriptor | None:
    """``game``'s descriptor (``None`` for a game not registered)."""
    return _GAMES.get(game)


def descriptors_json() -> list[dict[str, Any]]:
    """Every game's descriptor as ``GET /api/games`` serves it, in the registry's order."""
    return [d.json() for d in _GAMES.values()]


def available_games() -> Mapping[str, FactoryBuilder]:
    """Every registered game's factory builder, by name."""
    return {game: d.build for game, d in _GAMES.items()}


def bet_spots() -> Mapping[str, type[Spots]]:
    """Every registered game's ``bet`` spots, by name (the protocol's schema shows them)."""
    return {game: d.spots for game, d in _GAMES.items() if d.spots is not None}


def theories() -> Mapping[str, GameTheory]:
    """Every registered game's theory of its return, by name (the operator's figures)."""
    return {game: d.theory for game, d in _GAMES.items() if d.theory is not None}


def operator_settings(game: str) -> OperatorSettings:
    """How an operator's change names ``game``'s rules (none for a game not registered)."""
    d = _GAMES.get(game)
    return _NO_SETTINGS if d is None else d.operator


def advisors() -> Mapping[str, Advisor]:
    """Every registered game's advisor, by name."""
    return {game: d.advisor for game, d in _GAMES.items() if d.advisor is not None}


def advice_paths() -> Mapping[str, str]:
    """The older path of a game's advisor, by name (for the clients that still use it)."""
    return {
        game: d.advice_path
        for game, d in _GAMES.items()
        if d.advisor is not None and d.advice_path is not None
    }


def decision_costs() -> Mapping[str, Costs]:
    """Every registered game's valuation of a round's decisions, by name."""
    return {game: d.costs for game, d in _GAMES.items() if d.costs is not None}


def recall_views() -> RecallViews:
    """Every registered game's recall view, by name (for :func:`.rounds.recall`)."""
    return {game: d.recall_view for game, d in _GAMES.items() if d.recall_view}
