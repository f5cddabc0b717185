"""Texas Hold'em cash games: a pure state machine for one hand, its rules, events and bots.

>>> from croupier.deck import Shoe, seeded_source, shuffled
>>> hand = CashHand(HoldemConfig.cash(players=2, small_blind=1, big_blind=2),
...                 stacks=(100, 100), shoe=Shoe(shuffled(seeded_source(2))))
>>> hand.actor  # heads-up the button (position 1) acts first pre-flop
1
"""

from __future__ import annotations

from croupier.games.holdem.betting import Options
from croupier.games.holdem.config import (
    EXACT_SCALE,
    BettingStructure,
    HoldemConfig,
    OddChip,
    Rake,
    ReopenRule,
    ShowdownRule,
    SplitPolicy,
)
from croupier.games.holdem.state import CashHand, Phase
from croupier.games.holdem.table import CashTable
from croupier.games.holdem.views import HandView, view_for

__all__ = [
    "EXACT_SCALE",
    "BettingStructure",
    "CashHand",
    "CashTable",
    "HandView",
    "HoldemConfig",
    "OddChip",
    "Options",
    "Phase",
    "Rake",
    "ReopenRule",
    "ShowdownRule",
    "SplitPolicy",
    "view_for",
]
