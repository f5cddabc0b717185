"""The games a table can host, at the top of the table layer: each game's name, the builder
of its adapter's factory (:mod:`.uth`, :mod:`.russian`, :mod:`.holdem`) and its recall view
(what a player may see of a closed round of that game, :data:`.rounds.RecallView`) and its
theory of the return to player (:class:`.games.GameTheory`, for the operator's figures).

The layers below know no game: a :class:`croupier.server.tables.table.Table` drives a
:class:`croupier.server.tables.games.GameFactory`'s rounds, and :mod:`.rounds` recalls a round
through the view it is handed. A fourth game is one adapter module and one line here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from croupier.server.rounds.store import RecallView, RecallViews
from croupier.server.tables import caribbean, holdem, russian, russian_advice, uth, uth_costs
from croupier.server.tables.caribbean_wire import CaribbeanSpots
from croupier.server.tables.games import FactoryBuilder, GameTheory, OperatorSettings
from croupier.server.tables.russian_wire import RussianSpots
from croupier.server.tables.uth_wire import UthSpots
from croupier.server.tables.wire import Spots

__all__ = [
    "Advisor",
    "GameEntry",
    "advisors",
    "available_games",
    "bet_spots",
    "decision_costs",
    "operator_settings",
    "recall_views",
    "register_game",
    "theories",
]


_NO_SETTINGS = OperatorSettings(limits={})

Advisor = Callable[[Mapping[str, str]], dict[str, Any]]
"""A game's strategy advisor (the table's Hint): the query's fields -> the options' EVs,
best first (raises ``CroupierError`` for a query it refuses)."""

Costs = Callable[[Mapping[str, Any], set[int]], "list[dict[str, Any]] | None"]
"""A game's decision costs: a recorded round and the caller's seats -> each decision's cost
against the best one (``GET /api/rounds/{id}/costs``; ``None`` where it cannot value them)."""


@dataclass(frozen=True, slots=True)
class GameEntry:
    """A game the server can host."""

    build: FactoryBuilder
    """The game's factory for one table's configuration."""
    recall_view: RecallView | None = None
    """What a player may see of a closed round (``None``: all of it, the deck revealed)."""
    theory: GameTheory | None = None
    """The game's return to player for the operator's figures (``None``: no theory)."""
    settings: OperatorSettings = _NO_SETTINGS
    """How an operator's change to a table names the game's rules (none by default)."""
    advisor: Advisor | None = None
    """The game's Hint (``GET /api/games/{game}/advice``), ``None``: none."""
    costs: Costs | None = None
    """What each decision in a recorded round cost (the history), ``None``: not valued."""
    spots: type[Spots] | None = None
    """The spots of the game's ``bet`` (its ``<game>_wire`` module), ``None``: no ``bet``."""


_GAMES: dict[str, GameEntry] = {
    "uth": GameEntry(
        uth.UthFactory,
        uth.recall_view,
        uth.THEORY,
        uth.SETTINGS,
        costs=uth_costs.costs,
        spots=UthSpots,
    ),
    "holdem": GameEntry(holdem.HoldemFactory, holdem.recall_view, holdem.THEORY, holdem.SETTINGS),
    "russian": GameEntry(
        russian.RussianFactory,
        russian.recall_view,
        russian.THEORY,
        russian.SETTINGS,
        russian_advice.advice,
        russian_advice.costs,
        RussianSpots,
    ),
    "caribbean": GameEntry(
        caribbean.CaribbeanFactory,
        caribbean.recall_view,
        caribbean.THEORY,
        caribbean.SETTINGS,
        caribbean.advice,
        spots=CaribbeanSpots,
    ),
}


def register_game(
    game: str,
    build: FactoryBuilder,
    recall_view: RecallView | None = None,
    theory: GameTheory | None = None,
    settings: OperatorSettings | None = None,
) -> None:
    """Make ``game`` available to tables (tests register toy games this way)."""
    _GAMES[game] = GameEntry(build, recall_view, theory, settings or _NO_SETTINGS)


def available_games() -> Mapping[str, FactoryBuilder]:
    """Every registered game's factory builder, by name."""
    return {game: entry.build for game, entry in _GAMES.items()}


def bet_spots() -> Mapping[str, type[Spots]]:
    """Every registered game's ``bet`` spots, by name (the protocol's schema shows them)."""
    return {game: entry.spots for game, entry in _GAMES.items() if entry.spots is not None}


def theories() -> Mapping[str, GameTheory]:
    """Every registered game's theory of its return, by name (the operator's figures)."""
    return {game: entry.theory for game, entry in _GAMES.items() if entry.theory is not None}


def operator_settings(game: str) -> OperatorSettings:
    """How an operator's change names ``game``'s rules (none for a game not registered)."""
    entry = _GAMES.get(game)
    return _NO_SETTINGS if entry is None else entry.settings


def advisors() -> Mapping[str, Advisor]:
    """Every registered game's advisor, by name."""
    return {game: entry.advisor for game, entry in _GAMES.items() if entry.advisor is not None}


def decision_costs() -> Mapping[str, Costs]:
    """Every registered game's valuation of a round's decisions, by name."""
    return {game: entry.costs for game, entry in _GAMES.items() if entry.costs is not None}


def recall_views() -> RecallViews:
    """Every registered game's recall view, by name (for :func:`.rounds.recall`)."""
    return {game: entry.recall_view for game, entry in _GAMES.items() if entry.recall_view}
