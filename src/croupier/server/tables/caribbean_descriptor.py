"""Caribbean Stud Poker as the server knows it (:class:`.descriptor.GameDescriptor`)."""

from __future__ import annotations

from croupier.games.caribbean import CaribbeanConfig
from croupier.games.caribbean.config import DEFAULT_RAISE, MAX_BOXES, Dealing
from croupier.server.tables import caribbean
from croupier.server.tables.caribbean_wire import CaribbeanSpots
from croupier.server.tables.descriptor import GameDescriptor, choice, count, money, paytable

__all__ = ["DESCRIPTOR"]

_D = CaribbeanConfig()
_RAISE = DEFAULT_RAISE.to_mapping()

DESCRIPTOR = GameDescriptor(
    name="caribbean",
    build=caribbean.CaribbeanFactory,
    settings=(
        count("max_seats", _D.max_seats, 1, MAX_BOXES),
        money("ante_min", _D.ante_min, at_most="ante_max"),
        money("ante_max", _D.ante_max),
        count("raise_multiple", _D.raise_multiple, 1, 10),
        money("max_payout", _D.max_payout, optional=True),
        paytable("raise_paytable", _RAISE, tuple(_RAISE), fractions=True),
        # docs/rules.md "The progressive": its one bet (none: no progressive at the table),
        # the meter the table starts with, and the dealing order
        money("progressive_bet", _D.progressive_bet, optional=True),
        money("jackpot", 0, low=0),
        choice("dealing", _D.dealing, tuple(Dealing)),
    ),
    lobby_limits={"min": "ante_min", "max": "ante_max"},
    operator=caribbean.SETTINGS,
    theory=caribbean.THEORY,
    theory_text="op.theory.caribbean",
    recall_view=caribbean.recall_view,
    advisor=caribbean.advice,
    costs=caribbean.costs,
    spots=CaribbeanSpots,
)
