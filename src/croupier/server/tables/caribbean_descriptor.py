"""Caribbean Stud Poker as the server knows it (:class:`.descriptor.GameDescriptor`)."""

from __future__ import annotations

from croupier.games.caribbean import CaribbeanConfig
from croupier.games.caribbean.config import MAX_BOXES
from croupier.server.tables import caribbean
from croupier.server.tables.caribbean_wire import CaribbeanSpots
from croupier.server.tables.descriptor import GameDescriptor, count, money

__all__ = ["DESCRIPTOR"]

_D = CaribbeanConfig()

DESCRIPTOR = GameDescriptor(
    name="caribbean",
    build=caribbean.CaribbeanFactory,
    settings=(
        count("max_seats", _D.max_seats, 1, MAX_BOXES),
        money("ante_min", _D.ante_min, at_most="ante_max"),
        money("ante_max", _D.ante_max),
        count("raise_multiple", _D.raise_multiple, 1, 10),
        money("max_payout", _D.max_payout, optional=True),
    ),
    lobby_limits=("ante_min", "ante_max"),
    operator=caribbean.SETTINGS,
    theory=caribbean.THEORY,
    theory_text="op.theory.caribbean",
    recall_view=caribbean.recall_view,
    advisor=caribbean.advice,
    spots=CaribbeanSpots,
)
