"""What a table needs from a game: the protocols its game adapters implement.

A table drives one round at a time through a :class:`GameRound` and never an engine
directly. A game is one of two kinds, and the table's driver follows it:

- ``"banked"`` (UTH, Russian Poker): players bet against the house; a round opens with the
  first bet, betting closes, the seats decide, the house settles
  (:class:`BankedFactory` / :class:`BankedRound`, driven by :mod:`.banked`);
- ``"cash"`` (Hold'em): players sit with stacks and play against each other hand after hand
  (:class:`CashFactory` / :class:`CashRound`, driven by :mod:`.cash`).

Which games exist is the registry's business (:mod:`.registry`, at the top of the layer);
nothing here knows a game.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from croupier.deck import Shoe
from croupier.games.protocol import Action
from croupier.history.records import to_json
from croupier.server.tables.config import TableConfig
from croupier.server.tables.protocol import ActMessage
from croupier.server.tables.wire import Spots

__all__ = [
    "BankedFactory",
    "BankedRound",
    "CashFactory",
    "CashRound",
    "CountedFromLists",
    "FactoryBuilder",
    "GameFactory",
    "GameRound",
    "OperatorSettings",
    "event_kind",
    "event_seat",
    "game_round_shoe",
    "to_json",
]


class GameRound(Protocol):
    """One round of one game, as a table's driver plays it. Seats are non-negative integers.

    A decision from the wire is translated once, by :meth:`action`, into the engine's typed
    action (:mod:`croupier.games.protocol`); :meth:`check` and :meth:`apply` take that action
    through the engine's ``verify`` and ``apply``. ``action`` and ``check`` raise a
    :class:`croupier.errors.CroupierError` and change nothing; ``apply`` is only called after
    the check passed and the money the decision needs was held.
    """

    @property
    def phase(self) -> str:
        """The engine's phase name."""
        ...

    @property
    def seats(self) -> tuple[int, ...]:
        """Seats in this round."""
        ...

    @property
    def pending_seats(self) -> tuple[int, ...]:
        """Seats that still have to decide in the current decision phase."""
        ...

    @property
    def seat_count(self) -> int:
        """``len(seats)``, without listing them: a live table's ``tally`` asks after every
        batch of requests, and its thousands of boxes are not sorted for a count."""
        ...

    @property
    def pending_count(self) -> int:
        """``len(pending_seats)``, without listing them (as :attr:`seat_count`)."""
        ...

    @property
    def finished(self) -> bool:
        """Settled (results known) or voided."""
        ...

    def action(self, seat: int, act: ActMessage) -> Action:
        """The engine's typed action for ``seat``'s decision ``act``; refused (an unknown
        action, a missing field) with the reason the wire documents."""
        ...

    def check(self, action: Action) -> int:
        """Validate a decision; return the extra stake it needs (a UTH Play bet)."""
        ...

    def apply(self, action: Action) -> None: ...

    def apply_timeout(self, seat: int) -> None:
        """The default decision of a seat that did not act in time."""
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


class CountedFromLists:
    """:attr:`GameRound.seat_count` and :attr:`GameRound.pending_count` as the lengths of
    ``seats`` and ``pending_seats``, for a game whose rounds list a table's few seats (the UTH
    engine counts a live table's thousands instead)."""

    @property
    def seats(self) -> tuple[int, ...]:
        raise NotImplementedError

    @property
    def pending_seats(self) -> tuple[int, ...]:
        raise NotImplementedError

    @property
    def seat_count(self) -> int:
        return len(self.seats)

    @property
    def pending_count(self) -> int:
        return len(self.pending_seats)


class BankedRound(GameRound, Protocol):
    """A round against the house: opening bets, then decisions, then the settlement."""

    @property
    def pending_turns(self) -> tuple[int, ...]:
        """Who decides now, as finely as the game's turns go: the pending seats (UTH), or
        the box deciding (Russian Poker, where one seat's open boxes decide one after
        another). A turn not pending before opens with ``decisions_open`` and its own timer."""
        ...

    def check_bets(self, seat: int, spots: Spots) -> int:
        """Validate the opening bets, or a bet a seat that has bet may add in the same
        betting window (UTH: Trips after the Ante); return the stake to hold (the engine's
        price). ``spots`` is a ``bet``'s, decoded once at the frame into the game's own
        :class:`.wire.Spots` (:attr:`BankedFactory.spots`, :func:`.wire.read_spots`)."""
        ...

    def bets_total(self, spots: Spots) -> int:
        """The money a bet puts on the table (no seat rules checked)."""
        ...

    def place_bets(self, seat: int, spots: Spots) -> None: ...

    def can_close_betting(self) -> bool: ...

    def close_betting(self) -> None:
        """No more bets: deal."""
        ...

    def returns(self) -> dict[int, int]:
        """After settlement: everything paid back to each seat (stakes included)."""
        ...

    def legal(self, seat: int) -> list[str]:
        """The wire names of ``seat``'s decisions now (its view's ``legal``), without
        building its view: a live table's ``your_turn``."""
        ...

    def turn_stakes(self, seat: int) -> dict[str, int]:
        """The extra stake of each of ``seat``'s decisions now that needs one, by its wire
        name (a live table's ``your_turn``; a cluster's gateway holds that much, issue 18);
        empty where the stake depends on more than the name (Russian Poker's options)."""
        ...

    def decision_word(self, act: ActMessage) -> str | None:
        """The wire name (as :meth:`legal` gives it) of the decision ``act`` asks for, or
        ``None`` when there is no such name (an unknown or incomplete action)."""
        ...


class CashRound(GameRound, Protocol):
    """A hand at a cash table: players against each other, chips from their stacks."""

    @property
    def actor(self) -> int | None: ...

    @property
    def rake(self) -> int: ...

    def starting_stacks(self) -> dict[int, int]: ...

    def final_stacks(self) -> dict[int, int]: ...

    def winnings(self) -> dict[int, int]: ...

    wager_left: dict[int, int]
    """Seat -> what the player's tightest wager limit still allows them to put in (seats
    without a wager limit are absent): the hand's options offer only what fits (issue 27)."""

    def committed(self, seat: int) -> int:
        """The chips ``seat`` has put into the pots of this hand so far (blinds included)."""
        ...

    def chips_in(self, seat: int, action: Action) -> int:
        """The chips ``action`` of ``seat`` (checked as legal) would put into the pots."""
        ...

    def hole_cards(self) -> dict[int, list[str]]:
        """Every seat's hole cards (the dealer's view)."""
        ...

    def shown_seats(self) -> list[int]:
        """Seats that tabled their cards at showdown."""
        ...

    def public_cards(self) -> list[str]:
        """The cards everyone saw: the board and burns dealt, the hands shown."""
        ...


class GameFactory(Protocol):
    """Builds the rounds of one table; ``describe`` is what the lobby shows."""

    game: str

    @property
    def kind(self) -> Literal["banked", "cash"]:
        """Which driver plays the table's rounds (see the module docstring)."""
        ...

    def describe(self) -> dict[str, Any]: ...

    def bet_prices(self) -> dict[str, dict[str, int]]:
        """What one unit of each amount of each opening bet stakes, as the engine prices it
        (the lobby's ``prices``: a client's bet total; empty for a cash game)."""
        ...

    def max_seats(self) -> int | None:
        """The seats of the table; ``None``: a live table (no limit, one shared hand)."""
        ...

    def reconfigure(self, rules: Mapping[str, Any]) -> None:
        """New rules for the rounds opened from now on (checked whole first).

        Raises:
            ConfigError: rules the game refuses; nothing changes.
        """
        ...


class BankedFactory(GameFactory, Protocol):
    """Builds the rounds of a table against the house."""

    def new_round(self, shoe: Shoe, *, salt: str = "") -> BankedRound:
        """A round dealing from ``shoe``; ``salt`` is the round's committed salt, the key of
        anything a round must draw beyond the shoe's order (a Russian Poker reshuffle)."""
        ...

    def min_stake(self) -> int:
        """The least a seat can bet (what a seat needs in the wallet)."""
        ...

    @property
    def spots(self) -> type[Spots]:
        """The spots of the game's ``bet`` (its ``<game>_wire`` module): a ``bet`` frame's
        ``bets`` are decoded into them once, strictly (an unknown spot, or an amount a spot
        does not take, refused naming it: :func:`.wire.read_spots`)."""
        ...

    def price_bet(self, bets: Mapping[str, int]) -> int:
        """The engine's price of the bet ``bets`` of a seat that has not bet, checked
        against the table's rules (what a cluster's gateway holds for it).

        Raises:
            CroupierError: spots or amounts the game refuses so.
        """
        ...

    def decision_word(self, act: ActMessage) -> str | None:
        """The wire name (as ``legal`` gives it) of the decision ``act`` asks for, or
        ``None`` when there is none (an unknown or incomplete action)."""
        ...

    def details_taken(self, action: str) -> tuple[str, ...]:
        """The details of an ``act`` (``multiple``, ``amount``, ``cards``) that ``action``
        takes; another is refused (:func:`.protocol.refuse_details`)."""
        ...


class CashFactory(GameFactory, Protocol):
    """Builds the hands of a cash table."""

    @property
    def min_buy_in(self) -> int: ...

    @property
    def max_buy_in(self) -> int: ...

    @property
    def forced_bets(self) -> int:
        """The most a seat posts before it acts (the big blind and the ante)."""
        ...

    def new_hand(
        self,
        shoe: Shoe,
        *,
        seats: Sequence[int],
        stacks: Sequence[int],
        names: Sequence[str],
        button: int,
    ) -> CashRound: ...


def _accept(*_: Any) -> None:
    return None


@dataclass(frozen=True, slots=True, kw_only=True)
class OperatorSettings:
    """How an operator's change to a table (``PATCH /api/operator/tables/{name}``) names a
    game's rules: the same request words for every game, mapped to each game's own."""

    limits: Mapping[str, str]
    """Request field (``min_bet``...) -> the game's rule (``ante_min``...)."""
    paytables: Mapping[str, str] = field(default_factory=dict)
    """Pay table name in the request (``trips``) -> the game's rule (``trips_paytable``)."""
    paytable_lines: frozenset[str] | None = None
    """Every line a pay table may have; ``None``: the lines it has now."""
    lines_removable: bool = False
    """A line may be removed (``null``); otherwise every line stays (pay 0 instead)."""
    whole_odds: bool = True
    """Odds are whole numbers to 1 (otherwise also ``"n:d"``, checked by the game)."""
    check_paytable: Callable[[str, str, Mapping[str, Any]], None] = _accept
    """``(name, rule, lines)``: raise ``ConfigError`` for a pay table the game refuses."""
    check_factory: Callable[[Any], None] = _accept
    """Raise ``ConfigError`` for a table the server must not run though its game accepts it
    (UTH: a pay table the exact analysis cannot count)."""


FactoryBuilder = Callable[[TableConfig], GameFactory]
"""A game's factory for one table's configuration (raises ``ConfigError`` for bad rules)."""

_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")


def event_kind(event: object) -> str:
    """``HoleCardsDealt`` -> ``"hole_cards_dealt"`` (the kind records stored before events
    named their wire kind carry; new code reads ``event.kind``)."""
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
