"""The phases of a UTH round, a box's state and what a seat may see of it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from croupier.cards import Card
from croupier.chips import Chips
from croupier.games.uth.actions import play_stake
from croupier.games.uth.rules import SeatResult, opening_stake

__all__ = ["DECISION_PHASES", "Box", "BoxView", "Phase", "SeatView"]


class Phase(StrEnum):
    """The phases of a round, in order."""

    BETTING = "betting"
    PREFLOP = "pre-flop"
    FLOP = "flop"
    RIVER = "river"
    SHOWDOWN = "showdown"
    SETTLED = "settled"
    VOIDED = "voided"


DECISION_PHASES = (Phase.PREFLOP, Phase.FLOP, Phase.RIVER)


@dataclass(frozen=True, slots=True, kw_only=True)
class BoxView:
    """The public state of one seat's box."""

    seat: int
    ante: Chips
    blind: Chips
    trips: Chips
    play: Chips
    play_multiple: int
    folded: bool
    decided: bool
    """Whether the seat has no decision left in the current phase."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatView:
    """What one seat may see: its own cards, the board so far, the dealer's after showdown
    (``seat`` ``None``: a spectator, who sees what a seat without a box sees)."""

    seat: int | None
    phase: Phase
    hole: tuple[Card, ...]
    board: tuple[Card, ...]
    dealer: tuple[Card, ...] | None
    box: BoxView | None
    legal: tuple[str, ...]
    """The seat's legal actions now: ``"check"``, ``"4x"``, ``"3x"``, ``"2x"``, ``"1x"``, ``"fold"``."""
    result: SeatResult | None


class Box:
    """One seat's box in a round (the round's own, mutable; :class:`BoxView` is public)."""

    __slots__ = ("ante", "decided", "folded", "hole", "multiple", "seat", "trips")

    def __init__(self, seat: int, ante: int, trips: int) -> None:
        self.seat = seat
        self.ante = ante
        self.trips = trips
        self.multiple = 0
        self.folded = False
        self.decided = False
        self.hole: tuple[Card, ...] = ()

    @property
    def play(self) -> int:
        return play_stake(multiple=self.multiple, ante=self.ante)

    @property
    def staked(self) -> int:
        return opening_stake(ante=self.ante, trips=self.trips) + self.play

    def view(self) -> BoxView:
        return BoxView(
            seat=self.seat,
            ante=Chips(self.ante),
            blind=Chips(self.ante),
            trips=Chips(self.trips),
            play=Chips(self.play),
            play_multiple=self.multiple,
            folded=self.folded,
            decided=self.decided,
        )
