"""Frozen records of everything that happens in a UTH round, in the order it happens.

Events that carry hidden cards (hole cards, the dealer's cards, burns) say so with
``private_to``: the seat that may see them, or :data:`HOUSE` for cards no player may see
before showdown. Views and the server filter on it.
"""

from __future__ import annotations

from dataclasses import dataclass

from croupier.cards import Card
from croupier.games.uth.rules import SeatResult

__all__ = [
    "HOUSE",
    "PUBLIC",
    "BetsPlaced",
    "BetsWithdrawn",
    "BettingClosed",
    "BoardDealt",
    "CardBurnt",
    "Checked",
    "DealerCardsDealt",
    "DealerRevealed",
    "Event",
    "Folded",
    "HoleCardsDealt",
    "PhaseChanged",
    "PlayBet",
    "RoundSettled",
    "RoundVoided",
    "SeatSettled",
    "TripsPlaced",
]

PUBLIC = -1
"""``private_to`` of an event every seat may see."""
HOUSE = -2
"""``private_to`` of an event no seat may see until showdown (dealer cards, burns)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """Base of every UTH event."""

    @property
    def private_to(self) -> int:
        """Who may see this event: :data:`PUBLIC`, :data:`HOUSE` or a seat number."""
        return PUBLIC


@dataclass(frozen=True, slots=True, kw_only=True)
class BetsPlaced(Event):
    """A seat placed (or replaced) its Ante, Blind and Trips."""

    seat: int
    ante: int
    blind: int
    trips: int


@dataclass(frozen=True, slots=True, kw_only=True)
class TripsPlaced(Event):
    """A seat added Trips after its Ante, in the same betting window (seed 001)."""

    seat: int
    trips: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BetsWithdrawn(Event):
    """A seat took its bets back before betting closed."""

    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BettingClosed(Event):
    """No more bets: the seats in play, in dealing order."""

    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class HoleCardsDealt(Event):
    """A seat's two hole cards."""

    seat: int
    cards: tuple[Card, ...]

    @property
    def private_to(self) -> int:
        return self.seat


@dataclass(frozen=True, slots=True, kw_only=True)
class DealerCardsDealt(Event):
    """The dealer's two hole cards, face down."""

    cards: tuple[Card, ...]

    @property
    def private_to(self) -> int:
        return HOUSE


@dataclass(frozen=True, slots=True, kw_only=True)
class CardBurnt(Event):
    """A card discarded face down."""

    card: Card

    @property
    def private_to(self) -> int:
        return HOUSE


@dataclass(frozen=True, slots=True, kw_only=True)
class PhaseChanged(Event):
    """The round moved to a new phase."""

    phase: str


@dataclass(frozen=True, slots=True, kw_only=True)
class BoardDealt(Event):
    """Community cards turned face up: the flop (3), or the turn and river (2)."""

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayBet(Event):
    """A seat bet Play = ``multiple`` x Ante."""

    seat: int
    multiple: int
    amount: int
    timeout: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Checked(Event):
    """A seat checked (pre-flop or on the flop)."""

    seat: int
    timeout: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Folded(Event):
    """A seat folded on the river."""

    seat: int
    timeout: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class DealerRevealed(Event):
    """The dealer's hole cards turned up at showdown."""

    cards: tuple[Card, ...]
    value: int
    qualifies: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatSettled(Event):
    """One seat's bets settled."""

    result: SeatResult


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundSettled(Event):
    """Every seat settled: the players' total net and the house's (their sum is zero)."""

    players_net: int
    house_net: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundVoided(Event):
    """A misdeal or malfunction: every bet returned, nothing paid (spec/uth.md "Faults")."""

    reason: str
    refunds: tuple[tuple[int, int], ...]
    """(seat, amount returned) for every seat with money on the table."""
