"""The frozen records a :class:`~croupier.games.russian.state.RussianRound` appends to its log.

The log is the house's record and holds every card; a seat's view (``view_for``) is what a
player may see.
"""

from __future__ import annotations

from dataclasses import dataclass

from croupier.cards import Card
from croupier.chips import Chips
from croupier.games.russian.rules import BoxSettlement

__all__ = [
    "BetPlaced",
    "BoxPlaced",
    "BoxSettled",
    "BuyDeclined",
    "CardsDealt",
    "CardsExchanged",
    "DealerRevealed",
    "Folded",
    "GameBought",
    "RoundVoided",
    "RussianEvent",
    "SixthCardBought",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class RussianEvent:
    """Base of every Russian Poker event."""


@dataclass(frozen=True, slots=True, kw_only=True)
class BoxPlaced(RussianEvent):
    """A seat put an Ante (and maybe a Bonus) on a box; a blind box puts its Bet too."""

    seat: int
    box: int
    ante: Chips
    bonus: Chips
    blind: bool
    bet: Chips
    """The Bet placed with the Ante: 2x Ante on a blind box, 0 on the open box."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CardsDealt(RussianEvent):
    """Five cards to every box, in box order, then five to the dealer."""

    hands: tuple[tuple[int, tuple[Card, ...]], ...]
    """(box, cards) for every box in play."""
    dealer: tuple[Card, ...]
    upcard: Card | None
    """The dealer's last card when the table shows it (``dealer_upcard``)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CardsExchanged(RussianEvent):
    """An open box paid the fee and exchanged cards."""

    box: int
    discarded: tuple[Card, ...]
    received: tuple[Card, ...]
    fee: Chips


@dataclass(frozen=True, slots=True, kw_only=True)
class SixthCardBought(RussianEvent):
    """An open box paid the fee for a sixth card."""

    box: int
    card: Card
    fee: Chips


@dataclass(frozen=True, slots=True, kw_only=True)
class BetPlaced(RussianEvent):
    """An open box placed its Bet (and insurance, if any) and stands."""

    box: int
    bet: Chips
    insurance: Chips


@dataclass(frozen=True, slots=True, kw_only=True)
class Folded(RussianEvent):
    """An open box gave up its bets."""

    box: int


@dataclass(frozen=True, slots=True, kw_only=True)
class DealerRevealed(RussianEvent):
    """Every open box has decided; the dealer's hand is shown."""

    cards: tuple[Card, ...]
    qualifies: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class GameBought(RussianEvent):
    """A box paid to replace the dealer's highest card, for that box only."""

    box: int
    fee: Chips
    replaced: Card
    drawn: tuple[Card, ...]
    """Every card drawn, the last being kept (more than one under ``rebuy_same_rank``)."""
    hand: tuple[Card, ...]
    qualifies: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class BuyDeclined(RussianEvent):
    """A box took the Ante payment instead of buying the dealer's game."""

    box: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BoxSettled(RussianEvent):
    """Every bet of a box settled."""

    box: int
    seat: int
    settlement: BoxSettlement


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundVoided(RussianEvent):
    """A misdeal or malfunction: every bet, fee included, goes back (spec "Conduct and faults")."""

    reason: str
    returned: tuple[tuple[int, Chips], ...]
    """(box, amount) returned to each box."""
