"""What a player asks a hand of hold'em to do, as typed actions.

One frozen dataclass per action, :data:`HoldemAction` their union, taken by
:meth:`croupier.games.holdem.CashHand.apply`. Seats are the hand's players in position
order (0 = small blind ... last = button); a table maps its physical seats to them. A bet
and a raise are one action, :class:`Raise`, to a street total ``to`` (PHH ``cbr``).

>>> Raise(seat=2, to=600).kind
'raise'
>>> Fold(seat=0) == Fold(seat=0, timeout=True)
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

from croupier.cards import Card
from croupier.chips import Chips
from croupier.games.protocol import Action

__all__ = ["Call", "Check", "Fold", "HoldemAction", "Muck", "Raise", "Show"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Fold(Action):
    """Give up the hand (allowed at any turn, even when checking is free)."""

    kind = "fold"

    seat: int
    timeout: bool = field(default=False, compare=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Check(Action):
    """Pass with nothing to call."""

    kind = "check"

    seat: int
    timeout: bool = field(default=False, compare=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Call(Action):
    """Match the bet (all-in for less when the stack is short)."""

    kind = "call"

    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Raise(Action):
    """Bet or raise to a street total of ``to``."""

    kind = "raise"

    seat: int
    to: Chips


@dataclass(frozen=True, slots=True, kw_only=True)
class Show(Action):
    """Table the hole cards: at showdown, or after the hand (show one, show all)."""

    kind = "show"

    seat: int
    cards: tuple[Card, ...] | None = None
    """The cards, when a replayed record names cards the hand does not know."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Muck(Action):
    """Give up the hand at showdown without showing it."""

    kind = "muck"

    seat: int


HoldemAction = Fold | Check | Call | Raise | Show | Muck
"""Every action a hand of hold'em takes from its players."""
