"""Where a hand of hold'em stands, and the names of its streets."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["STREET_NAMES", "Phase"]

STREET_NAMES = ("pre-flop", "flop", "turn", "river")


class Phase(StrEnum):
    """Where the hand stands."""

    HOLE = "hole"
    """Waiting for hole cards (only when no shoe was handed in)."""
    BETTING = "betting"
    BOARD = "board"
    """Waiting for the next street's board cards (no shoe)."""
    SHOWDOWN = "showdown"
    """Betting is over; players show or muck, remaining board cards may still come."""
    COMPLETE = "complete"
