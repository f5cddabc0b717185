"""What a seat (or the house) asks a Russian Poker round to do, as typed actions.

One frozen dataclass per action, :data:`RussianAction` their union, taken by
:meth:`croupier.games.russian.RussianRound.apply`. A decision names the seat and the box it
is for (boxes decide one at a time, spec/russian.md "Table").

>>> from croupier.cards import parse_cards
>>> Exchange(seat=0, box=2, discard=parse_cards("5c 3d")).kind
'exchange'
>>> Fold(seat=1, box=0) == Fold(seat=1, box=0, timeout=True)
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

from croupier.cards import Card
from croupier.games.protocol import Action

__all__ = [
    "BuyGame",
    "Deal",
    "DeclineBuy",
    "Exchange",
    "Fold",
    "PlaceBet",
    "PlaceBox",
    "RussianAction",
    "SixthCard",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class PlaceBox(Action):
    """Put an Ante (and a Bonus) on ``box``; a blind box puts its Bet with it and, where the
    table allows, insurance and a sixth card bought in advance (docs/rules.md)."""

    kind = "box"

    seat: int
    box: int
    ante: int
    bonus: int = 0
    blind: bool = False
    insurance: int = 0
    sixth_card: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Deal(Action):
    """The house deals five cards to every box and to the dealer."""

    kind = "deal"


@dataclass(frozen=True, slots=True, kw_only=True)
class Exchange(Action):
    """Pay the fee and exchange ``discard`` (cards of the box's hand) for as many new ones."""

    kind = "exchange"

    seat: int
    box: int
    discard: tuple[Card, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class SixthCard(Action):
    """Pay the fee for a sixth card."""

    kind = "sixth_card"

    seat: int
    box: int


@dataclass(frozen=True, slots=True, kw_only=True)
class PlaceBet(Action):
    """Place the Bet and stand, with ``insurance`` (0: none; three of a kind or better)."""

    kind = "bet"

    seat: int
    box: int
    insurance: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class Fold(Action):
    """Give up the box's bets (the Bonus still stands)."""

    kind = "fold"

    seat: int
    box: int
    timeout: bool = field(default=False, compare=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class BuyGame(Action):
    """Pay to replace the dealer's highest card, for this box only."""

    kind = "buy"

    seat: int
    box: int


@dataclass(frozen=True, slots=True, kw_only=True)
class DeclineBuy(Action):
    """Take the Ante paid 1:1 instead of buying the dealer's game."""

    kind = "decline"

    seat: int
    box: int
    timeout: bool = field(default=False, compare=False)


RussianAction = PlaceBox | Deal | Exchange | SixthCard | PlaceBet | Fold | BuyGame | DeclineBuy
"""Every action a Russian Poker round takes."""
