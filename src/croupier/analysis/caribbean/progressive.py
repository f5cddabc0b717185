"""The exact return of the progressive side bet, as a function of the jackpot meter.

The bet is settled on the player's own five cards, whatever the dealer holds; the optimal
main-game strategy raises with every hand the progressive pays (a flush or better beats
folding by far), so no paying hand is folded. With ``p(c)`` the chance of a five-card hand of
category ``c`` (C(52, 5) hands), a prize of ``a`` pays ``a`` and a prize of ``k`` % pays
``k`` % of the meter ``J``:

    return per unit bet = sum over c of p(c) * prize(c) / bet

(the bet is collected; the prize is paid instead: docs/rules.md "The progressive"). Several
winners of a percentage line in one round share it, which this single-box figure leaves out.

>>> from croupier.games.caribbean.config import DEFAULT_PROGRESSIVE
>>> r = progressive_return(DEFAULT_PROGRESSIVE, bet=100, jackpot=0)
>>> r, round(float(r), 4)
(Fraction(1385, 3822), 0.3624)
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

from croupier.errors import ConfigError
from croupier.evaluator import HandCategory
from croupier.games.caribbean.config import ProgressiveTable

__all__ = ["HAND_COUNTS", "progressive_return"]

HAND_COUNTS: dict[HandCategory, int] = {
    HandCategory.HIGH_CARD: 1_302_540,
    HandCategory.PAIR: 1_098_240,
    HandCategory.TWO_PAIR: 123_552,
    HandCategory.THREE_OF_A_KIND: 54_912,
    HandCategory.STRAIGHT: 10_200,
    HandCategory.FLUSH: 5_108,
    HandCategory.FULL_HOUSE: 3_744,
    HandCategory.FOUR_OF_A_KIND: 624,
    HandCategory.STRAIGHT_FLUSH: 36,
    HandCategory.ROYAL_FLUSH: 4,
}
"""Five-card hands of each category among the C(52, 5) = 2,598,960."""
assert sum(HAND_COUNTS.values()) == comb(52, 5)


def progressive_return(table: ProgressiveTable, *, bet: int, jackpot: int) -> Fraction:
    """What one progressive bet of ``bet`` returns on average, per unit bet, with the meter at
    ``jackpot`` (all in minor units).

    Raises:
        ConfigError: a bet that is not positive, or a negative meter.
    """
    if bet <= 0 or jackpot < 0:
        raise ConfigError(
            f"the bet ({bet}) must be positive and the jackpot ({jackpot}) not negative"
        )
    paid = Fraction(0)
    for category, count in HAND_COUNTS.items():
        prize = table.prize_for(category)
        if prize is None:
            continue
        amount = Fraction(jackpot * prize.percent, 100) if prize.percent else Fraction(prize.amount)
        paid += count * amount
    return paid / (comb(52, 5) * bet)
