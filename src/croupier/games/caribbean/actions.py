"""What a seat (or the house) asks a Caribbean Stud round to do, as typed actions.

One frozen dataclass per action, :data:`CaribbeanAction` their union; the server parses a
client's frame into one of them once, and :meth:`croupier.games.caribbean.CaribbeanRound.apply`
takes it. A ``timeout`` flag (not compared) marks the fold a table applies to a seat that ran
out of time (docs/rules.md "Caribbean Stud Poker").

>>> Fold(seat=1) == Fold(seat=1, timeout=True)
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

from croupier.chips import Chips
from croupier.games.protocol import Action

__all__ = [
    "AddProgressive",
    "CaribbeanAction",
    "Deal",
    "Fold",
    "PlaceBets",
    "Raise",
    "WithdrawBets",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class PlaceBets(Action):
    """Place (or replace) the Ante on ``seat``'s box, and the progressive bet with it (the
    table's one amount) when ``progressive`` is true."""

    kind = "bet"

    seat: int
    ante: Chips
    progressive: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class AddProgressive(Action):
    """Add the progressive bet after the Ante, in the same betting window (Trump Indiana:
    "After making the 'ante' bet, a player may deposit a $1.00 gaming chip")."""

    kind = "progressive"

    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class WithdrawBets(Action):
    """Take the seat's bets back before betting closes."""

    kind = "withdraw"

    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Deal(Action):
    """The house closes betting and deals (:meth:`CaribbeanRound.close_betting`)."""

    kind = "deal"


@dataclass(frozen=True, slots=True, kw_only=True)
class Raise(Action):
    """Stay in: bet the Raise (the table's ``raise_multiple`` x Ante, 2 by the rules)."""

    kind = "raise"

    seat: int
    timeout: bool = field(default=False, compare=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Fold(Action):
    """Give up the hand and the Ante (and the progressive bet)."""

    kind = "fold"

    seat: int
    timeout: bool = field(default=False, compare=False)


CaribbeanAction = PlaceBets | AddProgressive | WithdrawBets | Deal | Raise | Fold
"""Every action a Caribbean Stud round takes."""
