"""Frozen records of what happened in a hand, appended to ``CashHand.events`` in order.

Seats are player indices in PHH position order (0 = small blind ... last = button; heads-up
0 = big blind). Amounts are integer minor units. Each event has its wire name in ``kind``
and says who may see its cards (:mod:`croupier.games.protocol`): hole cards their player
alone, burns nobody; cards shown are shown to everyone (show one, show all).
"""

from __future__ import annotations

from dataclasses import dataclass

from croupier.cards import Card
from croupier.chips import Chips
from croupier.games.protocol import HOUSE, Event

__all__ = [
    "AntePosted",
    "BetReturned",
    "BlindPosted",
    "BoardDealt",
    "Called",
    "CardBurned",
    "Checked",
    "Folded",
    "HoldemEvent",
    "HoleDealt",
    "Mucked",
    "PotAwarded",
    "Raised",
    "Raked",
    "RoundVoided",
    "Shown",
]


@dataclass(frozen=True, slots=True)
class HoldemEvent(Event):
    """Base of every hold'em event."""


@dataclass(frozen=True, slots=True)
class AntePosted(HoldemEvent):
    kind = "ante_posted"

    seat: int
    amount: Chips


@dataclass(frozen=True, slots=True)
class BlindPosted(HoldemEvent):
    """A blind or straddle posted (counts as a bet on the pre-flop round)."""

    kind = "blind_posted"

    seat: int
    amount: Chips


@dataclass(frozen=True, slots=True)
class HoleDealt(HoldemEvent):
    """Two hole cards to ``seat``; ``None`` when unknown (a replayed ``????``)."""

    kind = "hole_dealt"
    secret = ("cards",)

    seat: int
    cards: tuple[Card, ...] | None

    @property
    def audience(self) -> int:
        return self.seat


@dataclass(frozen=True, slots=True)
class CardBurned(HoldemEvent):
    """A card burnt face down before a street (seen only in the audit log, never in a view)."""

    kind = "card_burned"
    secret = ("card",)

    card: Card

    @property
    def audience(self) -> int:
        return HOUSE


@dataclass(frozen=True, slots=True)
class BoardDealt(HoldemEvent):
    """Community cards: ``street`` 1 flop (3 cards), 2 turn, 3 river."""

    kind = "board_dealt"

    street: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Folded(HoldemEvent):
    kind = "folded"

    seat: int


@dataclass(frozen=True, slots=True)
class Checked(HoldemEvent):
    kind = "checked"

    seat: int


@dataclass(frozen=True, slots=True)
class Called(HoldemEvent):
    """A call of ``amount`` more chips (``all_in`` when it was the player's last)."""

    kind = "called"

    seat: int
    amount: Chips
    all_in: bool


@dataclass(frozen=True, slots=True)
class Raised(HoldemEvent):
    """A bet or raise to a street total of ``to``; ``full`` when it reopens the betting."""

    kind = "raised"

    seat: int
    to: Chips
    amount: Chips
    all_in: bool
    full: bool


@dataclass(frozen=True, slots=True)
class BetReturned(HoldemEvent):
    """The uncalled part of a bet given back (spec/holdem.md, A hand)."""

    kind = "bet_returned"

    seat: int
    amount: Chips


@dataclass(frozen=True, slots=True)
class Shown(HoldemEvent):
    """Hole cards tabled at showdown (``None`` when the record does not know them)."""

    kind = "shown"

    seat: int
    cards: tuple[Card, ...] | None


@dataclass(frozen=True, slots=True)
class Mucked(HoldemEvent):
    kind = "mucked"

    seat: int


@dataclass(frozen=True, slots=True)
class Raked(HoldemEvent):
    kind = "raked"

    amount: Chips


@dataclass(frozen=True, slots=True)
class PotAwarded(HoldemEvent):
    """One pot (0 = main) paid to ``seats`` in ``amounts``; ``value`` is the winning hand's
    value (:func:`croupier.evaluator.evaluate_ids`) when hands were compared for the pot --
    also when one player wins it alone, the others' hands beaten -- and 0 when the pot was
    won uncontested: every other player folded, or no other hand still in reached it (the
    uncalled part of a side pot, chips returned to a player who folded)."""

    kind = "pot_awarded"

    pot: int
    seats: tuple[int, ...]
    amounts: tuple[Chips, ...]
    value: int


@dataclass(frozen=True, slots=True)
class RoundVoided(HoldemEvent):
    """A malfunction: the hand is voided and every player's chips go back where the hand
    found them (spec/holdem.md; the server's faults: nothing moves)."""

    kind = "round_voided"

    reason: str
    returned: tuple[tuple[int, Chips], ...]
    """(player, chips returned to their stack: everything they had put in)."""
