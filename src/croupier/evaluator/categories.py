"""Hand categories, lowest first, and the value ranges they occupy."""

from __future__ import annotations

from enum import IntEnum

__all__ = ["CATEGORY_COUNTS_5", "HandCategory"]


class HandCategory(IntEnum):
    """The category of a poker hand; royal flush is its own category because pay tables pay it."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9

    @property
    def label(self) -> str:
        """The display name (``"Full house"``)."""
        return self.name.replace("_", " ").capitalize()


CATEGORY_COUNTS_5: dict[HandCategory, int] = {
    HandCategory.HIGH_CARD: 1277,
    HandCategory.PAIR: 2860,
    HandCategory.TWO_PAIR: 858,
    HandCategory.THREE_OF_A_KIND: 858,
    HandCategory.STRAIGHT: 10,
    HandCategory.FLUSH: 1277,
    HandCategory.FULL_HOUSE: 156,
    HandCategory.FOUR_OF_A_KIND: 156,
    HandCategory.STRAIGHT_FLUSH: 9,
    HandCategory.ROYAL_FLUSH: 1,
}
"""How many distinct five-card hand values (equivalence classes) each category has: 7,462 in all."""
