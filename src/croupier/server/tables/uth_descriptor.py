"""Ultimate Texas Hold'em as the server knows it (:class:`.descriptor.GameDescriptor`)."""

from __future__ import annotations

from croupier.games.uth import UthConfig
from croupier.games.uth.config import MAX_BOXES
from croupier.server.tables import uth, uth_advice, uth_costs
from croupier.server.tables.descriptor import GameDescriptor, Setting, count, money
from croupier.server.tables.uth_wire import UthSpots

__all__ = ["DESCRIPTOR"]

_D = UthConfig()

DESCRIPTOR = GameDescriptor(
    name="uth",
    build=uth.UthFactory,
    settings=(
        count("max_seats", _D.max_seats or 6, 1, MAX_BOXES),
        Setting(name="shared_hand", kind="flag", default=_D.shared_hand),
        money("ante_min", _D.ante_min, at_most="ante_max"),
        money("ante_max", _D.ante_max),
        money("trips_min", _D.trips_min, at_most="trips_max"),
        money("trips_max", _D.trips_max),
        money("max_payout", _D.max_payout, optional=True),
    ),
    lobby_limits=("ante_min", "ante_max"),
    operator=uth.SETTINGS,
    theory=uth.THEORY,
    theory_text="op.theory.uth",
    recall_view=uth.recall_view,
    advisor=uth_advice.advice,
    advice_path=uth_advice.PATH,
    costs=uth_costs.costs,
    spots=UthSpots,
)
