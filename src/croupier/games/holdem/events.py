"""Frozen records of what happened in a hand, appended to ``CashHand.events`` in order.

Seats are player indices in PHH position order (0 = small blind ... last = button; heads-up
0 = big blind). Amounts are integer minor units.
"""

from __future__ import annotations

from dataclasses import dataclass

from croupier.cards import Card

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
    "Shown",
]


@dataclass(frozen=True, slots=True)
class HoldemEvent:
    """Base of every hold'em event."""


@dataclass(frozen=True, slots=True)
class AntePosted(HoldemEvent):
    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class BlindPosted(HoldemEvent):
    """A blind or straddle posted (counts as a bet on the pre-flop round)."""

    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class HoleDealt(HoldemEvent):
    """Two hole cards to ``seat``; ``None`` when unknown (a replayed ``????``)."""

    seat: int
    cards: tuple[Card, ...] | None


@dataclass(frozen=True, slots=True)
class CardBurned(HoldemEvent):
    """A card burnt face down before a street (seen only in the audit log, never in a view)."""

    card: Card


@dataclass(frozen=True, slots=True)
class BoardDealt(HoldemEvent):
    """Community cards: ``street`` 1 flop (3 cards), 2 turn, 3 river."""

    street: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Folded(HoldemEvent):
    seat: int


@dataclass(frozen=True, slots=True)
class Checked(HoldemEvent):
    seat: int


@dataclass(frozen=True, slots=True)
class Called(HoldemEvent):
    """A call of ``amount`` more chips (``all_in`` when it was the player's last)."""

    seat: int
    amount: int
    all_in: bool


@dataclass(frozen=True, slots=True)
class Raised(HoldemEvent):
    """A bet or raise to a street total of ``to``; ``full`` when it reopens the betting."""

    seat: int
    to: int
    amount: int
    all_in: bool
    full: bool


@dataclass(frozen=True, slots=True)
class BetReturned(HoldemEvent):
    """The uncalled part of a bet given back (spec/holdem.md, A hand)."""

    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class Shown(HoldemEvent):
    """Hole cards tabled at showdown (``None`` when the record does not know them)."""

    seat: int
    cards: tuple[Card, ...] | None


@dataclass(frozen=True, slots=True)
class Mucked(HoldemEvent):
    seat: int


@dataclass(frozen=True, slots=True)
class Raked(HoldemEvent):
    amount: int


@dataclass(frozen=True, slots=True)
class PotAwarded(HoldemEvent):
    """One pot (0 = main) paid to ``seats`` in ``amounts``; ``value`` is the winning hand
    value, 0 when the pot was won uncontested."""

    pot: int
    seats: tuple[int, ...]
    amounts: tuple[int, ...]
    value: int
