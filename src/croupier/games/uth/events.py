"""Frozen records of everything that happens in a UTH round, in the order it happens.

Each has its wire name in ``kind``. Events that carry hidden cards (hole cards, the dealer's
cards, burns) say so with their ``audience`` (:mod:`croupier.games.protocol`): the seat that
may see them, or :data:`HOUSE` for cards no player may see before the showdown; ``seen_by``
is the event as one seat sees it. On a live table the one shared player hand is dealt face
up: its ``HoleCardsDealt`` (seat :data:`SHARED_SEAT`) is public.
"""

from __future__ import annotations

from dataclasses import dataclass

from croupier.cards import Card
from croupier.chips import Chips
from croupier.games.protocol import HOUSE, PUBLIC, Event
from croupier.games.uth.rules import SeatResult

__all__ = [
    "HOUSE",
    "PUBLIC",
    "SHARED_SEAT",
    "AntesReturned",
    "BetsPlaced",
    "BetsWithdrawn",
    "BettingClosed",
    "BoardDealt",
    "CardBurned",
    "Checked",
    "DealerCardsDealt",
    "DealerRevealed",
    "Folded",
    "HoleCardsDealt",
    "LimitsChanged",
    "PhaseChanged",
    "PlayBet",
    "RoundSettled",
    "RoundVoided",
    "SeatSettled",
    "TripsPlaced",
    "UthEvent",
]

SHARED_SEAT = -1
"""The seat number of the one player hand of a shared-hand (live) table, in events."""


@dataclass(frozen=True, slots=True, kw_only=True)
class UthEvent(Event):
    """Base of every UTH event."""


@dataclass(frozen=True, slots=True, kw_only=True)
class BetsPlaced(UthEvent):
    """A seat placed (or replaced) its Ante, Blind and Trips."""

    kind = "bets_placed"

    seat: int
    ante: Chips
    blind: Chips
    trips: Chips


@dataclass(frozen=True, slots=True, kw_only=True)
class TripsPlaced(UthEvent):
    """A seat added Trips after its Ante, in the same betting window (seed 001)."""

    kind = "trips_placed"

    seat: int
    trips: Chips


@dataclass(frozen=True, slots=True, kw_only=True)
class BetsWithdrawn(UthEvent):
    """A seat took its bets back before betting closed."""

    kind = "bets_withdrawn"

    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class LimitsChanged(UthEvent):
    """The house changed the table's limits during the betting window (seed 003: "tudi med
    igro"): every bet placed from now on is checked against them; the bets placed stand."""

    kind = "limits_changed"

    ante_min: Chips
    ante_max: Chips
    trips_min: Chips
    trips_max: Chips
    bet_unit: Chips


@dataclass(frozen=True, slots=True, kw_only=True)
class BettingClosed(UthEvent):
    """No more bets: the seats in play, in dealing order."""

    kind = "betting_closed"

    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class HoleCardsDealt(UthEvent):
    """A seat's two hole cards."""

    kind = "hole_cards_dealt"
    secret = ("cards",)

    seat: int
    cards: tuple[Card, ...]

    @property
    def audience(self) -> int:
        return PUBLIC if self.seat == SHARED_SEAT else self.seat


@dataclass(frozen=True, slots=True, kw_only=True)
class DealerCardsDealt(UthEvent):
    """The dealer's two hole cards, face down."""

    kind = "dealer_cards_dealt"
    secret = ("cards",)

    cards: tuple[Card, ...]

    @property
    def audience(self) -> int:
        return HOUSE


@dataclass(frozen=True, slots=True, kw_only=True)
class CardBurned(UthEvent):
    """A card discarded face down (the same class as Hold'em's burn; this wire name is
    protocol version 1's, which the UTH client knows)."""

    kind = "card_burnt"
    secret = ("card",)

    card: Card

    @property
    def audience(self) -> int:
        return HOUSE


@dataclass(frozen=True, slots=True, kw_only=True)
class PhaseChanged(UthEvent):
    """The round moved to a new phase."""

    kind = "phase_changed"

    phase: str


@dataclass(frozen=True, slots=True, kw_only=True)
class BoardDealt(UthEvent):
    """Community cards turned face up: the flop (3), or the turn and river (2)."""

    kind = "board_dealt"

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayBet(UthEvent):
    """A seat bet Play = ``multiple`` x Ante."""

    kind = "play_bet"

    seat: int
    multiple: int
    amount: Chips
    timeout: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Checked(UthEvent):
    """A seat checked (pre-flop or on the flop)."""

    kind = "checked"

    seat: int
    timeout: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Folded(UthEvent):
    """A seat folded on the river."""

    kind = "folded"

    seat: int
    timeout: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class DealerRevealed(UthEvent):
    """The dealer's hole cards turned up at showdown."""

    kind = "dealer_revealed"

    cards: tuple[Card, ...]
    value: int
    qualifies: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class AntesReturned(UthEvent):
    """The dealer does not qualify: before looking at any player's hand the dealer returns
    the Ante of every box still in play, right to left (spec/uth.md "Showdown", seed 003:
    "Delivec od desne proti levi povrne vsakemu igralcu njegov ante. To naredi preden pogleda
    igralčeve kombinacije"); the other bets are settled after, box by box.
    Each box's :class:`SeatSettled` then shows its Ante as a push."""

    kind = "antes_returned"

    antes: tuple[tuple[int, Chips], ...]
    """(seat, Ante returned) of each box still in play, right to left."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatSettled(UthEvent):
    """One seat's bets settled."""

    kind = "seat_settled"

    result: SeatResult


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundSettled(UthEvent):
    """Every seat settled: the players' total net and the house's (their sum is zero)."""

    kind = "round_settled"

    players_net: Chips
    house_net: Chips


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundVoided(UthEvent):
    """A misdeal or malfunction: every bet returned, nothing paid (spec/uth.md "Faults")."""

    kind = "round_voided"

    reason: str
    refunds: tuple[tuple[int, Chips], ...]
    """(seat, amount returned) for every seat with money on the table."""
