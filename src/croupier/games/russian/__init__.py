"""Russian Poker (spec/russian.md): table settings, rules and the round state machine."""

from croupier.games.russian.actions import (
    BuyGame,
    Deal,
    DeclineBuy,
    Exchange,
    Fold,
    PlaceBet,
    PlaceBox,
    RussianAction,
    SixthCard,
)
from croupier.games.russian.audit import settle_line
from croupier.games.russian.box import BoxStatus, BoxView
from croupier.games.russian.config import (
    BetPaytable,
    BonusOnFold,
    BonusPaytable,
    Combination,
    DuplicateRankStraights,
    FailedBuyAnte,
    RussianConfig,
)
from croupier.games.russian.phase import Phase
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
from croupier.games.russian.state import RussianRound
from croupier.games.russian.views import RussianView

__all__ = [
    "BetKind",
    "BetOutcome",
    "BetPaytable",
    "BonusOnFold",
    "BonusPaytable",
    "BoxSettlement",
    "BoxStatus",
    "BoxView",
    "BuyGame",
    "Combination",
    "Deal",
    "DeclineBuy",
    "Draw",
    "DuplicateRankStraights",
    "Exchange",
    "FailedBuyAnte",
    "Fold",
    "Outcome",
    "Payout",
    "Phase",
    "PlaceBet",
    "PlaceBox",
    "RussianAction",
    "RussianConfig",
    "RussianRound",
    "RussianView",
    "SixthCard",
    "audit_box",
    "dealer_qualifies",
    "settle_box",
    "settle_line",
    "two_combination_pay",
]
