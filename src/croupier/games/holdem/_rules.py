"""What the engine reads from a config on every action, worked out once per config.

:class:`~croupier.games.holdem.state.CashHand` looks these up on every decision; a config is
frozen, so they are computed once and cached by the config's identity.
"""

from __future__ import annotations

from croupier.games.holdem.betting import opener
from croupier.games.holdem.config import (
    BettingStructure,
    FirstToShow,
    HoldemConfig,
    OddChip,
    ReopenRule,
    SplitPolicy,
)

__all__ = ["Rules", "rules_of"]


class Rules:
    """What the engine reads from a config on every action, worked out once per config."""

    __slots__ = (
        "after",
        "blinds",
        "cap",
        "casino",
        "forced",
        "no_limit",
        "opener",
        "plain",
        "players",
        "rotation",
        "shows_hand_aggressor",
        "simple_split",
        "street_bets",
        "unit",
    )

    def __init__(self, config: HoldemConfig) -> None:
        n = self.players = config.players
        self.unit = config.split.unit
        self.cap = config.raise_cap
        self.casino = config.reopen is ReopenRule.CASINO
        self.no_limit = config.structure is BettingStructure.NO_LIMIT
        self.street_bets = tuple(config.street_bet(street) for street in range(4))
        self.plain = not config.rake.percent and not config.ante_trimming
        """No rake and no ante trimming: a pot won uncontested needs no pot building."""
        self.simple_split = (
            self.plain and config.split is SplitPolicy.LIVE and config.odd_chip is OddChip.POSITION
        )
        """Also whole shares with the odd chip by position: the showdown's direct settlement
        (``showdown.settle_simple``) applies."""
        # spec/phh.md 2: the arrays apply reversed heads-up
        blinds = config.blinds_or_straddles if n != 2 else config.blinds_or_straddles[::-1]
        self.blinds = tuple(blinds)
        self.forced = (
            ()
            if any(config.antes)
            else tuple((seat, blind) for seat, blind in enumerate(blinds) if blind)
        )
        """(player, amount) of each blind or straddle in posting order; empty when the
        table has antes (then ``betting.post_forced_bets`` posts them)."""
        self.opener = opener(config, street=0, bets=blinds)
        """Who acts first pre-flop when every blind and straddle was posted in full."""
        self.after = tuple((*range(seat + 1, n), *range(seat)) for seat in range(n))
        """The other players in order, clockwise from the one left of each player."""
        self.rotation = tuple((*range(seat, n), *range(seat)) for seat in range(n))
        """Every player in order, clockwise from each player."""
        self.shows_hand_aggressor = config.first_to_show is FirstToShow.HAND
        """The last bettor or raiser of the whole hand shows first (seed 002), not the
        river's (``first_to_show = "river"``)."""


_RULES: dict[int, tuple[HoldemConfig, Rules]] = {}


def rules_of(config: HoldemConfig) -> Rules:
    """The config's :class:`Rules`, cached by identity (configs are frozen)."""
    entry = _RULES.get(id(config))
    if entry is not None and entry[0] is config:
        return entry[1]
    if len(_RULES) >= 64:
        _RULES.clear()
    rules = Rules(config)
    _RULES[id(config)] = (config, rules)
    return rules
