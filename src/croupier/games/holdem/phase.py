"""Where a hand of hold'em stands, and the names of its streets."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["STREET_NAMES", "Phase"]

STREET_NAMES = ("pre-flop", "flop", "turn", "river")


class Phase(StrEnum):
    """Where the hand stands (the names every engine gives the same moments:
    :mod:`croupier.games.protocol`)."""

    HOLE = "hole"
    """Waiting for hole cards (only when no shoe was handed in)."""
    BETTING = "betting"
    BOARD = "board"
    """Waiting for the next street's board cards (no shoe)."""
    SHOWDOWN = "showdown"
    """Betting is over; players show or muck, remaining board cards may still come."""
    SETTLED = "settled"
    """The pots are paid."""
    COMPLETE = "settled"
    """The engine's internal name for :attr:`SETTLED` (the same member)."""
    VOIDED = "voided"
    """Voided for a fault: every player's chips back where the hand found them."""
