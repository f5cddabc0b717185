"""Ultimate Texas Hold'em with the Trips side bet: config, rules, events and the round state."""

from croupier.games.uth.actions import (
    AddTrips,
    Check,
    Deal,
    Fold,
    PlaceBets,
    Play,
    UthAction,
    WithdrawBets,
)
from croupier.games.uth.audit import audit_line, settle_hand, settle_line, settle_mapping
from croupier.games.uth.config import DEFAULT_BLIND, DEFAULT_TRIPS, MAX_BOXES, UthConfig
from croupier.games.uth.events import AntesReturned
from croupier.games.uth.rules import (
    Bet,
    BetResult,
    Comparison,
    Outcome,
    SeatResult,
    dealer_qualifies,
    opening_stake,
    settle_seat,
)
from croupier.games.uth.state import SHARED_SEAT, BoxView, Phase, SeatView, UthRound

__all__ = [
    "DEFAULT_BLIND",
    "DEFAULT_TRIPS",
    "MAX_BOXES",
    "SHARED_SEAT",
    "AddTrips",
    "AntesReturned",
    "Bet",
    "BetResult",
    "BoxView",
    "Check",
    "Comparison",
    "Deal",
    "Fold",
    "Outcome",
    "Phase",
    "PlaceBets",
    "Play",
    "SeatResult",
    "SeatView",
    "UthAction",
    "UthConfig",
    "UthRound",
    "WithdrawBets",
    "audit_line",
    "dealer_qualifies",
    "opening_stake",
    "settle_hand",
    "settle_line",
    "settle_mapping",
    "settle_seat",
]
