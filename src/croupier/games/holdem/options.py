"""What the player to act may do: :class:`Options` (``CashHand.options()``; also exported by
:mod:`.betting`, where the rules that fill it are)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Options"]


@dataclass(frozen=True, slots=True)
class Options:
    """What the player to act may do now (``CashHand.options()``)."""

    seat: int
    to_call: int
    """Chips to add to call, capped at the stack (0: checking is possible)."""
    min_raise_to: int | None
    """Smallest bet or raise total, ``None`` if betting or raising is not allowed."""
    max_raise_to: int | None
    stack: int
    bet: int
    pot: int
    """All chips in the middle, current bets included."""
    step: int = 1
    """Bets are whole multiples of this (``EXACT_SCALE`` at tables that split exactly)."""

    @property
    def can_check(self) -> bool:
        return self.to_call == 0
