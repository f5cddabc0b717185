"""Russian Poker as the server knows it (:class:`.descriptor.GameDescriptor`)."""

from __future__ import annotations

from dataclasses import asdict

from croupier.games.russian import RussianConfig
from croupier.games.russian.config import BonusOnFold, DuplicateRankStraights, FailedBuyAnte
from croupier.server.tables import russian, russian_advice
from croupier.server.tables.descriptor import (
    GameDescriptor,
    choice,
    count,
    flag,
    money,
    paytable,
)
from croupier.server.tables.russian_wire import RussianSpots

__all__ = ["DESCRIPTOR"]

_D = RussianConfig()
_BET = asdict(_D.bet_paytable)
_BONUS = asdict(_D.bonus_paytable)

DESCRIPTOR = GameDescriptor(
    name="russian",
    build=russian.RussianFactory,
    settings=(
        count("max_players", _D.max_players, 1, 4),
        count("boxes", _D.boxes, 1, 8),
        money("ante_min", _D.ante_min, at_most="ante_max"),
        money("ante_max", _D.ante_max),
        money("bonus_min", _D.bonus_min, at_most="bonus_max"),
        money("bonus_max", _D.bonus_max),
        money("max_payout", _D.max_payout, optional=True),
        # the Bet and the fees in Antes (spec/russian.md: 2, 1, 1, 1); a casino's table keeps
        # them within ten Antes (the engine alone, for the analysis, takes any whole number)
        count("bet_multiple", _D.bet_multiple, 1, 10),
        count("draw_fee_multiple", _D.draw_fee_multiple, 1, 10),
        count("buy_fee_multiple", _D.buy_fee_multiple, 1, 10),
        count("insurance_min_multiple", _D.insurance_min_multiple, 1, 10),
        flag("dealer_upcard", _D.dealer_upcard),
        count("open_boxes_per_player", _D.open_boxes_per_player, 1, 2),
        count("exchange_min", _D.exchange_min, 1, 5, at_most="exchange_max"),
        count("exchange_max", _D.exchange_max, 1, 5),
        flag("rebuy_same_rank", _D.rebuy_same_rank),
        flag("ante_pays_on_win", _D.ante_pays_on_win),
        flag("blind_insurance", _D.blind_insurance),
        flag("blind_sixth_card", _D.blind_sixth_card),
        choice(
            "duplicate_rank_straights",
            _D.duplicate_rank_straights,
            tuple(DuplicateRankStraights),
        ),
        choice("failed_buy_ante", _D.failed_buy_ante, tuple(FailedBuyAnte)),
        choice("bonus_on_fold", _D.bonus_on_fold, tuple(BonusOnFold)),
        paytable("bet_paytable", _BET, tuple(_BET)),
        paytable("bonus_paytable", _BONUS, tuple(_BONUS)),
    ),
    lobby_limits={"min": "ante_min", "max": "ante_max"},
    operator=russian.SETTINGS,
    theory=russian.THEORY,
    theory_text="op.theory.russian",
    recall_view=russian.recall_view,
    advisor=russian_advice.advice,
    costs=russian_advice.costs,
    spots=RussianSpots,
)
