"""Russian Poker as the server knows it (:class:`.descriptor.GameDescriptor`)."""

from __future__ import annotations

from croupier.games.russian import RussianConfig
from croupier.server.tables import russian, russian_advice
from croupier.server.tables.descriptor import GameDescriptor, Setting, count, money
from croupier.server.tables.russian_wire import RussianSpots

__all__ = ["DESCRIPTOR"]

_D = RussianConfig()

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
        Setting(name="dealer_upcard", kind="flag", default=_D.dealer_upcard),
    ),
    lobby_limits=("ante_min", "ante_max"),
    operator=russian.SETTINGS,
    theory=russian.THEORY,
    theory_text="op.theory.russian",
    recall_view=russian.recall_view,
    advisor=russian_advice.advice,
    costs=russian_advice.costs,
    spots=RussianSpots,
)
