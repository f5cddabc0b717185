"""Texas Hold'em cash games as the server knows them (:class:`.descriptor.GameDescriptor`)."""

from __future__ import annotations

from croupier.games.holdem.config import MAX_PLAYERS, MIN_PLAYERS
from croupier.server.tables import holdem
from croupier.server.tables.descriptor import GameDescriptor, Setting, count, money

__all__ = ["DESCRIPTOR"]

# The server's defaults (module docstring of :mod:`.holdem`): 1/2 blinds in cents, buy-in
# from 40 to 100 big blinds, six seats.
_BIG = 200

DESCRIPTOR = GameDescriptor(
    name="holdem",
    build=holdem.HoldemFactory,
    settings=(
        Setting(
            name="structure",
            kind="choice",
            default="no-limit",
            choices=("no-limit", "pot-limit", "fixed-limit"),
        ),
        money("small_blind", _BIG // 2, at_most="big_blind"),
        money("big_blind", _BIG),
        count("max_seats", 6, MIN_PLAYERS, MAX_PLAYERS),
        money("min_buy_in", 40 * _BIG, at_most="max_buy_in"),
        money("max_buy_in", 100 * _BIG),
        Setting(name="rake_percent", kind="percent", default=0, low=0, high=100),
        money("rake_cap", None),
        Setting(name="no_flop_no_drop", kind="flag", default=True),
    ),
    lobby_limits=("small_blind", "big_blind"),
    operator=holdem.SETTINGS,
    theory=holdem.THEORY,
    recall_view=holdem.recall_view,
)
