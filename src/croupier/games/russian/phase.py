"""Where a Russian Poker round stands."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Phase"]


class Phase(StrEnum):
    """Where the round stands."""

    BETTING = "betting"
    """Boxes are placed."""
    DECIDING = "deciding"
    """The open boxes decide, one at a time in box order."""
    BUYING = "buying"
    """The dealer is shown; boxes that stood against a dealer who does not qualify choose
    whether to buy the dealer's game."""
    SETTLED = "settled"
    VOIDED = "voided"
