"""Russian Poker (spec/russian.md): table settings, rules and the round state machine."""

from croupier.games.russian.config import (
    BetPaytable,
    BonusPaytable,
    Combination,
    DuplicateRankStraights,
    RussianConfig,
)
from croupier.games.russian.rules import (
    BetKind,
    BetOutcome,
    BoxSettlement,
    Draw,
    Outcome,
    Payout,
    audit_box,
    dealer_qualifies,
    settle_box,
    two_combination_pay,
)
from croupier.games.russian.state import BoxStatus, BoxView, Phase, RussianRound, RussianView

__all__ = [
    "BetKind",
    "BetOutcome",
    "BetPaytable",
    "BonusPaytable",
    "BoxSettlement",
    "BoxStatus",
    "BoxView",
    "Combination",
    "Draw",
    "DuplicateRankStraights",
    "Outcome",
    "Payout",
    "Phase",
    "RussianConfig",
    "RussianRound",
    "RussianView",
    "audit_box",
    "dealer_qualifies",
    "settle_box",
    "two_combination_pay",
]
