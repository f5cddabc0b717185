"""Bet sizing rules: minimum and maximum raise-to amounts per betting structure.

The rules follow spec/holdem.md "A hand" and, where the spec is silent, PokerKit (so that PHH
files written by other tools replay): the minimum raise is the largest bet or raise increment of
the street, at least the street's minimum bet; blinds and straddles are not raises.

>>> from croupier.games.holdem.config import BettingStructure as B
>>> raise_bounds(B.NO_LIMIT, stack=1000, bet=0, max_bet=100, increment=100, street_bet=100,
...              pot_total=250)
(200, 1000)
>>> raise_bounds(B.POT_LIMIT, stack=1000, bet=0, max_bet=100, increment=100, street_bet=100,
...              pot_total=250)
(200, 450)
>>> raise_bounds(B.FIXED_LIMIT, stack=1000, bet=0, max_bet=100, increment=100, street_bet=100,
...              pot_total=250)
(200, 200)
"""

from __future__ import annotations

from dataclasses import dataclass

from croupier.games.holdem.config import BettingStructure

__all__ = ["Options", "raise_bounds"]


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


def raise_bounds(
    structure: BettingStructure,
    *,
    stack: int,
    bet: int,
    max_bet: int,
    increment: int,
    street_bet: int,
    pot_total: int,
) -> tuple[int, int]:
    """The smallest and largest street totals a bet or raise may go to.

    Args:
        stack: chips the player has behind.
        bet: what the player already put in on this street.
        max_bet: the largest street total so far.
        increment: the largest full bet or raise increment of this street (0 before any).
        street_bet: the street's minimum bet (No-/Pot-Limit) or fixed size (Fixed-Limit).
        pot_total: all chips in the middle, current street bets included.

    An all-in for less than the minimum is always allowed (table stakes), so both bounds are
    capped at ``stack + bet``. Pot-Limit: call, then raise by the pot after the call.
    """
    all_in = stack + bet
    min_to = min(all_in, max_bet + max(increment, street_bet))
    if structure is BettingStructure.FIXED_LIMIT:
        return min_to, min_to
    if structure is BettingStructure.POT_LIMIT:
        # spec/holdem.md Decision (Pot-Limit): to = max_bet + (pot + amount to call)
        return min_to, min(all_in, max(min_to, 2 * max_bet - bet + pot_total))
    return min_to, all_in
