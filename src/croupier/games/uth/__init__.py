"""Ultimate Texas Hold'em with the Trips side bet: config, rules, events and the round state."""

from croupier.games.uth.audit import audit_line, settle_hand, settle_mapping
from croupier.games.uth.config import DEFAULT_BLIND, DEFAULT_TRIPS, MAX_BOXES, UthConfig
from croupier.games.uth.rules import (
    Bet,
    BetResult,
    Comparison,
    Outcome,
    SeatResult,
    dealer_qualifies,
    settle_seat,
)
from croupier.games.uth.state import SHARED_SEAT, BoxView, Phase, SeatView, UthRound

__all__ = [
    "DEFAULT_BLIND",
    "DEFAULT_TRIPS",
    "MAX_BOXES",
    "SHARED_SEAT",
    "Bet",
    "BetResult",
    "BoxView",
    "Comparison",
    "Outcome",
    "Phase",
    "SeatResult",
    "SeatView",
    "UthConfig",
    "UthRound",
    "audit_line",
    "dealer_qualifies",
    "settle_hand",
    "settle_mapping",
    "settle_seat",
]
