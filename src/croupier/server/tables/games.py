"""What a table needs from a game engine: the :class:`GameRound` protocol and the registry.

The table manager is generic: it talks to one :class:`GameRound` per round and never to an
engine directly. Each game registers a :class:`GameFactory` under its name (``"uth"``...);
``croupier serve`` opens a table for every configured game that has one and lists the others
as not yet available.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from croupier.deck import Shoe
from croupier.history.records import to_json
from croupier.server.tables.config import TableConfig
from croupier.server.tables.protocol import ActMessage

__all__ = [
    "GameFactory",
    "GameRound",
    "available_games",
    "event_kind",
    "event_seat",
    "game_round_shoe",
    "register_game",
    "to_json",
]


class GameRound(Protocol):
    """One round of one game, as the table drives it. Seats are non-negative integers.

    Every ``check_*`` raises a :class:`croupier.errors.CroupierError` and changes nothing;
    the matching command is only called after its check passed and the money was held.
    """

    @property
    def phase(self) -> str:
        """The engine's phase name."""
        ...

    @property
    def seats(self) -> tuple[int, ...]:
        """Seats with bets in this round."""
        ...

    @property
    def pending_seats(self) -> tuple[int, ...]:
        """Seats that still have to decide in the current decision phase."""
        ...

    @property
    def finished(self) -> bool:
        """Settled (results known) or voided."""
        ...

    def check_bets(self, seat: int, bets: Mapping[str, int]) -> int:
        """Validate the opening bets, or a bet a seat that has bet may add in the same
        betting window (UTH: Trips after the Ante); return the stake to hold."""
        ...

    def bets_total(self, bets: Mapping[str, int]) -> int:
        """The money a bet puts on the table (no seat rules checked)."""
        ...

    def place_bets(self, seat: int, bets: Mapping[str, int]) -> None: ...

    def can_close_betting(self) -> bool: ...

    def close_betting(self) -> None:
        """No more bets: deal."""
        ...

    def check_act(self, seat: int, act: ActMessage) -> int:
        """Validate a decision; return the extra stake it needs (a UTH Play bet)."""
        ...

    def act(self, seat: int, act: ActMessage) -> None: ...

    def apply_timeout(self, seat: int) -> None:
        """The default decision of a seat that did not act in time."""
        ...

    def returns(self) -> dict[int, int]:
        """After settlement: everything paid back to each seat (stakes included)."""
        ...

    def void(self, reason: str) -> None: ...

    def events_since(self, index: int) -> tuple[Any, ...]:
        """Engine events from position ``index`` on."""
        ...

    def visible_to_all(self, event: Any) -> bool:
        """Whether every seat sees ``event`` the same (so it is projected once)."""
        ...

    def project_event(self, event: Any, seat: int | None) -> dict[str, Any]:
        """An event as ``seat`` may see it (hidden cards replaced by ``None``)."""
        ...

    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` may see now (``None``: a spectator)."""
        ...

    def record(self, round_id: int) -> dict[str, Any]:
        """The JSON round record (stored when the round closes; holds the deck)."""
        ...

    def summary(self) -> dict[str, Any]:
        """The public result of a finished round."""
        ...


class GameFactory(Protocol):
    """Builds the rounds of one table; ``describe`` is what the lobby shows."""

    game: str

    def new_round(self, shoe: Shoe, *, salt: str = "") -> GameRound:
        """A round dealing from ``shoe``; ``salt`` is the round's committed salt, the key of
        anything a round must draw beyond the shoe's order (a Russian Poker reshuffle)."""
        ...

    def describe(self) -> dict[str, Any]: ...

    def max_seats(self) -> int | None: ...


FactoryBuilder = Callable[[TableConfig], GameFactory]
_REGISTRY: dict[str, FactoryBuilder] = {}


def register_game(game: str, builder: FactoryBuilder) -> None:
    """Make ``game`` available to tables (tests register toy games this way)."""
    _REGISTRY[game] = builder


def available_games() -> Mapping[str, FactoryBuilder]:
    """Every registered game (UTH, Hold'em and Russian Poker are registered on first use)."""
    if "uth" not in _REGISTRY:
        from croupier.server.tables.uth import UthFactory

        _REGISTRY["uth"] = UthFactory
    if "holdem" not in _REGISTRY:
        from croupier.server.tables.holdem import HoldemFactory

        _REGISTRY["holdem"] = HoldemFactory
    if "russian" not in _REGISTRY:
        from croupier.server.tables.russian import RussianFactory

        _REGISTRY["russian"] = RussianFactory
    return dict(_REGISTRY)


_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")


def event_kind(event: object) -> str:
    """``HoleCardsDealt`` -> ``"hole_cards_dealt"``."""
    return _CAMEL.sub("_", type(event).__name__).lower()


def event_seat(event: object) -> int | None:
    """The one seat an engine event is about (a bet, a decision, a seat's result), or
    ``None`` for an event about the whole table. Negative seats (UTH's shared player hand)
    are the table's."""
    seat = getattr(event, "seat", None)
    if seat is None:
        seat = getattr(getattr(event, "result", None), "seat", None)
    if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
        return None
    return seat


def game_round_shoe(game_round: GameRound) -> Shoe:
    """The shoe a freshly created round deals from (for the commitment)."""
    shoe = getattr(game_round, "shoe", None)
    if shoe is None:
        shoe = getattr(getattr(game_round, "engine", game_round), "shoe", None)
    if not isinstance(shoe, Shoe):  # pragma: no cover - every adapter exposes it
        raise TypeError(f"{type(game_round).__name__} does not expose its shoe")
    return shoe
