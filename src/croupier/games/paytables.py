"""Pay tables as data: odds per hand category as integer ratios, validated.

>>> table = PayTable.from_mapping("blind", {"royal_flush": "500:1", "flush": "3:2"})
>>> table.line_for(HandCategory.FLUSH)
PayLine(category=<HandCategory.FLUSH: 5>, numerator=3, denominator=2)
>>> table.line_for(HandCategory.PAIR) is None
True
>>> table.to_mapping()
{'royal_flush': '500:1', 'flush': '3:2'}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import pairwise

from croupier.errors import ConfigError
from croupier.evaluator import HandCategory

__all__ = ["PayLine", "PayTable", "parse_ratio"]


@dataclass(frozen=True, slots=True)
class PayLine:
    """One line of a pay table: ``category`` pays ``numerator:denominator``."""

    category: HandCategory
    numerator: int
    denominator: int = 1

    @property
    def label(self) -> str:
        """``"Flush 3:2"``."""
        return f"{self.category.label} {self.numerator}:{self.denominator}"


def parse_ratio(text: str | int) -> tuple[int, int]:
    """Parse ``"3:2"``, ``"500:1"``, ``"500"`` or an int into (numerator, denominator)."""
    if isinstance(text, bool):
        raise ConfigError(f"pay ratio {text!r} is not a number like '3:2'")
    if isinstance(text, int):
        return text, 1
    parts = str(text).strip().split(":")
    try:
        if len(parts) == 1:
            return int(parts[0]), 1
        if len(parts) == 2:
            return int(parts[0]), int(parts[1])
    except ValueError:
        pass
    raise ConfigError(f"pay ratio {text!r} is not a ratio like '3:2'")


@dataclass(frozen=True, slots=True)
class PayTable:
    """A named pay table; categories it does not list are not paid by it.

    Raises:
        ConfigError: a category listed twice, a negative or non-integer ratio, a zero
            denominator, or a better hand paying less than a worse one.
    """

    name: str
    lines: tuple[PayLine, ...]

    def __post_init__(self) -> None:
        seen: set[HandCategory] = set()
        for line in self.lines:
            if line.category in seen:
                raise ConfigError(f"pay table {self.name!r} lists {line.category.label} twice")
            seen.add(line.category)
            for part in (line.numerator, line.denominator):
                if not isinstance(part, int) or isinstance(part, bool):
                    raise ConfigError(f"pay table {self.name!r}: {part!r} is not an integer")
            if line.numerator < 0 or line.denominator <= 0:
                raise ConfigError(
                    f"pay table {self.name!r}: {line.category.label} pays "
                    f"{line.numerator}:{line.denominator}, which is not a valid ratio"
                )
        ordered = sorted(self.lines, key=lambda ln: ln.category)
        for lower, higher in pairwise(ordered):
            if higher.numerator * lower.denominator < lower.numerator * higher.denominator:
                raise ConfigError(
                    f"pay table {self.name!r}: {higher.label} pays less than {lower.label}"
                )

    def line_for(self, category: HandCategory) -> PayLine | None:
        """The line that pays ``category``, or None."""
        for line in self.lines:
            if line.category is category:
                return line
        return None

    @property
    def lowest(self) -> HandCategory:
        """The lowest category the table pays."""
        return min(line.category for line in self.lines)

    @classmethod
    def from_mapping(cls, name: str, mapping: Mapping[str, str | int]) -> PayTable:
        """Build from ``{"royal_flush": "500:1", ...}`` (category names, any case)."""
        lines = []
        for key, ratio in mapping.items():
            try:
                category = HandCategory[key.strip().upper().replace(" ", "_").replace("-", "_")]
            except KeyError:
                raise ConfigError(f"pay table {name!r}: unknown hand category {key!r}") from None
            numerator, denominator = parse_ratio(ratio)
            lines.append(PayLine(category, numerator, denominator))
        return cls(name, tuple(sorted(lines, key=lambda ln: ln.category, reverse=True)))

    def to_mapping(self) -> dict[str, str]:
        """The table as ``{"royal_flush": "500:1", ...}``, best hand first."""
        return {
            line.category.name.lower(): f"{line.numerator}:{line.denominator}"
            for line in sorted(self.lines, key=lambda ln: ln.category, reverse=True)
        }
