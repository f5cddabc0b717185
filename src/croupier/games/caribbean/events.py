"""Frozen records of everything that happens in a Caribbean Stud round, in order.

Each has its wire name in ``kind`` and says who may see its cards
(:mod:`croupier.games.protocol`): a box's five cards its owner alone; the dealer's five
nobody (:data:`HOUSE`) until they are revealed at the showdown, except the up card, which
:class:`UpcardShown` shows everyone as it is dealt.
"""

from __future__ import annotations

from dataclasses import dataclass

from croupier.cards import Card
from croupier.chips import Chips
from croupier.games.caribbean.rules import BoxResult
from croupier.games.protocol import HOUSE, Event

__all__ = [
    "BetsPlaced",
    "BetsWithdrawn",
    "BettingClosed",
    "BoxSettled",
    "CaribbeanEvent",
    "DealerHandDealt",
    "DealerRevealed",
    "Folded",
    "HandDealt",
    "PhaseChanged",
    "ProgressivePlaced",
    "Raised",
    "RoundSettled",
    "RoundVoided",
    "UpcardShown",
]

_NOTHING = Chips(0)


@dataclass(frozen=True, slots=True, kw_only=True)
class CaribbeanEvent(Event):
    """Base of every Caribbean Stud event."""


@dataclass(frozen=True, slots=True, kw_only=True)
class BetsPlaced(CaribbeanEvent):
    """A seat placed (or replaced) its Ante and its progressive bet (0: none)."""

    kind = "bets_placed"

    seat: int
    ante: Chips
    progressive: Chips


@dataclass(frozen=True, slots=True, kw_only=True)
class ProgressivePlaced(CaribbeanEvent):
    """A seat added the progressive bet after its Ante, in the same betting window."""

    kind = "progressive_placed"

    seat: int
    amount: Chips


@dataclass(frozen=True, slots=True, kw_only=True)
class BetsWithdrawn(CaribbeanEvent):
    """A seat took its bets back before betting closed."""

    kind = "bets_withdrawn"

    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BettingClosed(CaribbeanEvent):
    """No more bets: the seats in play, in dealing order, and the jackpot meter the round's
    progressive prizes are paid from."""

    kind = "betting_closed"

    seats: tuple[int, ...]
    jackpot: Chips = _NOTHING


@dataclass(frozen=True, slots=True, kw_only=True)
class HandDealt(CaribbeanEvent):
    """A box's five cards, face down: its owner sees them."""

    kind = "hand_dealt"
    secret = ("cards",)

    seat: int
    cards: tuple[Card, ...]

    @property
    def audience(self) -> int:
        return self.seat


@dataclass(frozen=True, slots=True, kw_only=True)
class DealerHandDealt(CaribbeanEvent):
    """The dealer's five cards in the order dealt (the house's record)."""

    kind = "dealer_hand_dealt"
    secret = ("cards",)

    cards: tuple[Card, ...]

    @property
    def audience(self) -> int:
        return HOUSE


@dataclass(frozen=True, slots=True, kw_only=True)
class UpcardShown(CaribbeanEvent):
    """The dealer's last card turned face up for everyone."""

    kind = "upcard_shown"

    card: Card


@dataclass(frozen=True, slots=True, kw_only=True)
class PhaseChanged(CaribbeanEvent):
    """The round moved to a new phase."""

    kind = "phase_changed"

    phase: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Raised(CaribbeanEvent):
    """A seat stayed in and bet the Raise."""

    kind = "raised"

    seat: int
    amount: Chips
    timeout: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Folded(CaribbeanEvent):
    """A seat folded (by choice, or as its time ran out)."""

    kind = "folded"

    seat: int
    timeout: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class DealerRevealed(CaribbeanEvent):
    """The dealer's hand turned up at the showdown."""

    kind = "dealer_revealed"

    cards: tuple[Card, ...]
    value: int
    qualifies: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class BoxSettled(CaribbeanEvent):
    """One box's bets settled."""

    kind = "box_settled"

    result: BoxResult


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundSettled(CaribbeanEvent):
    """Every box settled: the players' total net and the house's (their sum is zero), and
    how much the progressive prizes took from the jackpot meter."""

    kind = "round_settled"

    players_net: Chips
    house_net: Chips
    jackpot_paid: Chips = _NOTHING


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundVoided(CaribbeanEvent):
    """A misdeal or malfunction: every bet returned, nothing paid."""

    kind = "round_voided"

    reason: str
    refunds: tuple[tuple[int, Chips], ...]
    """(seat, amount returned) for every seat with money on the table."""
