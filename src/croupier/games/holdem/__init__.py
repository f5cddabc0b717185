"""Texas Hold'em cash games: a pure state machine for one hand, its rules, events and bots.

>>> from croupier.deck import Shoe, seeded_source, shuffled
>>> hand = CashHand(HoldemConfig.cash(players=2, small_blind=1, big_blind=2),
...                 stacks=(100, 100), shoe=Shoe(shuffled(seeded_source(2))))
>>> hand.actor  # heads-up the button (position 1) acts first pre-flop
1
"""

from __future__ import annotations

# first: loading it picks the compiled engine when built from today's source, else pure Python
from croupier.games.holdem import _native  # noqa: F401
from croupier.games.holdem.actions import Call, Check, Fold, HoldemAction, Muck, Raise, Show
from croupier.games.holdem.audit import settle_line
from croupier.games.holdem.betting import Options
from croupier.games.holdem.config import (
    EXACT_SCALE,
    BettingStructure,
    FirstToShow,
    HoldemConfig,
    HoldemTableConfig,
    OddChip,
    Rake,
    ReopenRule,
    ShowdownRule,
    SplitPolicy,
)
from croupier.games.holdem.engine import all_in
from croupier.games.holdem.phase import Phase
from croupier.games.holdem.state import CashHand
from croupier.games.holdem.table import CashTable
from croupier.games.holdem.views import HandView, view_for

__all__ = [
    "EXACT_SCALE",
    "BettingStructure",
    "Call",
    "CashHand",
    "CashTable",
    "Check",
    "FirstToShow",
    "Fold",
    "HandView",
    "HoldemAction",
    "HoldemConfig",
    "HoldemTableConfig",
    "Muck",
    "OddChip",
    "Options",
    "Phase",
    "Raise",
    "Rake",
    "ReopenRule",
    "Show",
    "ShowdownRule",
    "SplitPolicy",
    "all_in",
    "settle_line",
    "view_for",
]
