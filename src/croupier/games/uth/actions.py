"""What a seat (or the house) asks a UTH round to do, as typed actions.

One frozen dataclass per action, :data:`UthAction` their union; the server parses a client's
frame into one of them once, and :meth:`croupier.games.uth.UthRound.apply` takes it. A
``timeout`` flag (not compared) marks the default a table applies to a seat that ran out of
time (spec/uth.md "Dealing and decisions").

>>> PlaceBets(seat=0, ante=1000, trips=500).stake
2500
>>> Check(seat=1) == Check(seat=1, timeout=True)
True

:func:`price` is the wallet money each action needs: the one place a UTH price is written
(:meth:`croupier.games.uth.UthRound.price` asks it with the box's Ante).

>>> price(PlaceBets(seat=0, ante=1000, trips=500)), price(AddTrips(seat=0, trips=200))
(2500, 200)
>>> price(Play(seat=0, multiple=4), ante=1000), price(Check(seat=0), ante=1000)
(4000, 0)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from croupier.chips import Chips
from croupier.games.protocol import Action
from croupier.games.uth.rules import opening_stake

__all__ = [
    "AddTrips",
    "Check",
    "Deal",
    "Fold",
    "PlaceBets",
    "Play",
    "UthAction",
    "WithdrawBets",
    "play_stake",
    "price",
]


_NONE = Chips(0)


@dataclass(frozen=True, slots=True, kw_only=True)
class PlaceBets(Action):
    """Place (or replace) the Ante, the equal Blind and an optional Trips on ``seat``'s box."""

    kind = "bet"

    seat: int
    ante: Chips
    trips: Chips = _NONE

    @property
    def stake(self) -> Chips:
        """The money the bets put on the table (:func:`~croupier.games.uth.rules.opening_stake`)."""
        return opening_stake(ante=self.ante, trips=self.trips)


@dataclass(frozen=True, slots=True, kw_only=True)
class AddTrips(Action):
    """Add Trips after the Ante, in the same betting window (seed 001)."""

    kind = "trips"

    seat: int
    trips: Chips


@dataclass(frozen=True, slots=True, kw_only=True)
class WithdrawBets(Action):
    """Take the seat's bets back before betting closes."""

    kind = "withdraw"

    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Deal(Action):
    """The house closes betting and deals (:meth:`UthRound.close_betting`)."""

    kind = "deal"


@dataclass(frozen=True, slots=True, kw_only=True)
class Check(Action):
    """No Play bet now (pre-flop or on the flop)."""

    kind = "check"

    seat: int
    timeout: bool = field(default=False, compare=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Play(Action):
    """Bet Play = ``multiple`` x Ante."""

    kind = "play"

    seat: int
    multiple: int
    timeout: bool = field(default=False, compare=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Fold(Action):
    """Fold on the river."""

    kind = "fold"

    seat: int
    timeout: bool = field(default=False, compare=False)


UthAction = PlaceBets | AddTrips | WithdrawBets | Deal | Check | Play | Fold
"""Every action a UTH round takes."""


def play_stake(*, multiple: int, ante: int) -> Chips:
    """A Play bet: ``multiple`` x the box's Ante (spec/uth.md "Dealing and decisions")."""
    return Chips(multiple * ante)


def price(action: UthAction, *, ante: int = 0) -> Chips:
    """The wallet money ``action`` needs: the opening bets' stake (the Ante, the Blind equal
    to it and Trips: :func:`~croupier.games.uth.rules.opening_stake`), Trips added after the
    Ante, a Play bet (``ante``: the box's Ante); nothing for the others."""
    match action:
        case PlaceBets(ante=opening, trips=trips):
            return opening_stake(ante=opening, trips=trips)
        case AddTrips(trips=trips):
            return Chips(trips)
        case Play(multiple=multiple):
            return play_stake(multiple=multiple, ante=ante)
    return Chips(0)
