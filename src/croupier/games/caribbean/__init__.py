"""Caribbean Stud Poker (docs/rules.md "Caribbean Stud Poker"): table settings, rules, events
and the round state machine."""

from croupier.games.caribbean.actions import (
    AddProgressive,
    CaribbeanAction,
    Deal,
    Fold,
    PlaceBets,
    Raise,
    WithdrawBets,
)
from croupier.games.caribbean.audit import audit_line, settle_hand, settle_line, settle_mapping
from croupier.games.caribbean.config import (
    DEFAULT_PROGRESSIVE,
    DEFAULT_RAISE,
    MAX_BOXES,
    CaribbeanConfig,
    Dealing,
    Prize,
    ProgressiveTable,
)
from croupier.games.caribbean.rules import (
    Bet,
    BetResult,
    BoxResult,
    Comparison,
    Outcome,
    dealer_qualifies,
    opening_stake,
    progressive_results,
    qualify_min,
    settle_box,
)
from croupier.games.caribbean.state import BoxView, CaribbeanRound, Phase, SeatView

__all__ = [
    "DEFAULT_PROGRESSIVE",
    "DEFAULT_RAISE",
    "MAX_BOXES",
    "AddProgressive",
    "Bet",
    "BetResult",
    "BoxResult",
    "BoxView",
    "CaribbeanAction",
    "CaribbeanConfig",
    "CaribbeanRound",
    "Comparison",
    "Deal",
    "Dealing",
    "Fold",
    "Outcome",
    "Phase",
    "PlaceBets",
    "Prize",
    "ProgressiveTable",
    "Raise",
    "SeatView",
    "WithdrawBets",
    "audit_line",
    "dealer_qualifies",
    "opening_stake",
    "progressive_results",
    "qualify_min",
    "settle_box",
    "settle_hand",
    "settle_line",
    "settle_mapping",
]
