"""Money: integer minor units, and divisions that say where the remainder goes.

>>> split_evenly(Chips(101), 2)
((50, 50), 1)
>>> pay_ratio(Chips(105), 3, 2)
(157, 1)
>>> format_money(-12345), parse_money("12.5")
('-123.45', 1250)
"""

from __future__ import annotations

from typing import NewType

from croupier.errors import ConfigError, NotationError

__all__ = ["Chips", "format_money", "parse_money", "pay_ratio", "split_evenly"]

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


def format_money(amount: int, *, unit: int = 100) -> str:
    """Write minor units as major units with exact decimals (``12345`` -> ``"123.45"``)."""
    sign = "-" if amount < 0 else ""
    major, minor = divmod(abs(amount), unit)
    digits = len(str(unit)) - 1
    return f"{sign}{major}.{minor:0{digits}d}" if digits else f"{sign}{major}"


def parse_money(text: str, *, unit: int = 100) -> Chips:
    """Read major units (``"12.50"``, ``"12"``) into minor units, exactly; no float involved.

    Raises:
        NotationError: not a non-negative amount with at most the unit's decimals.
    """
    cleaned = text.strip()
    major, _, minor = cleaned.partition(".")
    digits = len(str(unit)) - 1
    if not major.isdigit() or (minor and not minor.isdigit()) or len(minor) > digits:
        raise NotationError(f"amount {text!r} is not a number with at most {digits} decimals")
    return Chips(int(major) * unit + (int(minor.ljust(digits, "0")) if minor else 0))
