"""What the engine reads from a config on every action, worked out once per config.

:class:`~croupier.games.holdem.state.CashHand` looks these up on every decision; a config is
frozen, so they are computed once and cached by the config's identity.
"""

from __future__ import annotations

from croupier.games.holdem.config import HoldemConfig, ReopenRule

__all__ = ["Rules", "rules_of"]


class Rules:
    """What the engine reads from a config on every action, worked out once per config."""

    __slots__ = ("cap", "casino", "plain", "players", "street_bets", "unit")

    def __init__(self, config: HoldemConfig) -> None:
        self.players = config.players
        self.unit = config.split.unit
        self.cap = config.raise_cap
        self.casino = config.reopen is ReopenRule.CASINO
        self.street_bets = tuple(config.street_bet(street) for street in range(4))
        self.plain = not config.rake.percent and not config.ante_trimming
        """No rake and no ante trimming: a pot won uncontested needs no pot building."""


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
