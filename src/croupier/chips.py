"""Money: integer minor units, and divisions that say where the remainder goes.

>>> split_evenly(Chips(101), 2)
((50, 50), 1)
>>> pay_ratio(Chips(105), 3, 2)
(157, 1)
"""

from __future__ import annotations

from typing import NewType

from croupier.errors import ConfigError

__all__ = ["Chips", "pay_ratio", "split_evenly"]

Chips = NewType("Chips", int)
"""An amount of money in integer minor units (cents). Never a float."""


def split_evenly(total: int, ways: int) -> tuple[tuple[Chips, ...], Chips]:
    """Divide ``total`` into ``ways`` equal whole shares; return the shares and the odd chips.

    Raises:
        ConfigError: ``ways`` is not positive or ``total`` is negative.
    """
    if ways <= 0:
        raise ConfigError(f"cannot split {total} chips {ways} ways")
    if total < 0:
        raise ConfigError(f"cannot split a negative amount {total}")
    share, odd = divmod(total, ways)
    return tuple(Chips(share) for _ in range(ways)), Chips(odd)


def pay_ratio(stake: int, numerator: int, denominator: int) -> tuple[Chips, int]:
    """Pay ``stake`` at ``numerator:denominator``, rounded down to the minor unit.

    Returns the payout and the remainder that was rounded away, in units of
    ``1/denominator`` of a minor unit (0 when the payout is exact).
    """
    if stake < 0 or numerator < 0 or denominator <= 0:
        raise ConfigError(f"cannot pay {stake} at {numerator}:{denominator}")
    paid, remainder = divmod(stake * numerator, denominator)
    return Chips(paid), remainder
