"""Published counts: every five-card hand, every seven-card hand."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from croupier.evaluator import (
    CATEGORY_COUNTS_5,
    MAX_VALUE,
    HandCategory,
    categories,
    enumerate7_histogram,
    evaluate_batch,
)

# Published five-card frequencies (e.g. Wikipedia "Poker probability"); royal split from the SF.
FIVE_CARD_COUNTS = {
    HandCategory.ROYAL_FLUSH: 4,
    HandCategory.STRAIGHT_FLUSH: 36,
    HandCategory.FOUR_OF_A_KIND: 624,
    HandCategory.FULL_HOUSE: 3_744,
    HandCategory.FLUSH: 5_108,
    HandCategory.STRAIGHT: 10_200,
    HandCategory.THREE_OF_A_KIND: 54_912,
    HandCategory.TWO_PAIR: 123_552,
    HandCategory.PAIR: 1_098_240,
    HandCategory.HIGH_CARD: 1_302_540,
}

# Published seven-card frequencies (best five of seven), 133,784,560 hands.
SEVEN_CARD_COUNTS = {
    HandCategory.ROYAL_FLUSH: 4_324,
    HandCategory.STRAIGHT_FLUSH: 41_584 - 4_324,
    HandCategory.FOUR_OF_A_KIND: 224_848,
    HandCategory.FULL_HOUSE: 3_473_184,
    HandCategory.FLUSH: 4_047_644,
    HandCategory.STRAIGHT: 6_180_020,
    HandCategory.THREE_OF_A_KIND: 6_461_620,
    HandCategory.TWO_PAIR: 31_433_400,
    HandCategory.PAIR: 58_627_800,
    HandCategory.HIGH_CARD: 23_294_460,
}


def _all_five_card_hands() -> np.ndarray:
    return np.array(list(combinations(range(52), 5)), dtype=np.int8)


def test_every_five_card_hand() -> None:
    values = evaluate_batch(_all_five_card_hands(), parallel=True)
    assert len(values) == 2_598_960
    distinct = np.unique(values)
    assert len(distinct) == 7_462
    assert distinct[0] == 1 and distinct[-1] == MAX_VALUE
    counts = np.bincount(categories(values), minlength=10)
    assert {HandCategory(i): int(n) for i, n in enumerate(counts)} == FIVE_CARD_COUNTS
    classes = np.bincount(categories(distinct), minlength=10)
    assert {HandCategory(i): int(n) for i, n in enumerate(classes)} == CATEGORY_COUNTS_5


def test_every_seven_card_hand_by_running_sums() -> None:
    histogram = enumerate7_histogram()
    assert histogram.sum() == 133_784_560
    assert np.count_nonzero(histogram) == 4_824  # distinct best-five values reachable with 7 cards
    by_category = np.bincount(categories(np.arange(1, MAX_VALUE + 1)), weights=histogram[1:])
    assert {HandCategory(i): int(n) for i, n in enumerate(by_category)} == SEVEN_CARD_COUNTS


def _seven_card_chunks(first_cards: range) -> np.ndarray:
    """All seven-card hands whose lowest card is in ``first_cards``, as an (N, 7) array."""
    rows = []
    for first in first_cards:
        rest = np.array(list(combinations(range(first + 1, 52), 6)), dtype=np.int8)
        if len(rest):
            rows.append(np.hstack([np.full((len(rest), 1), first, dtype=np.int8), rest]))
    return np.vstack(rows)


def test_batch_agrees_with_enumeration_on_a_sample_of_seven_card_hands() -> None:
    hands = _seven_card_chunks(range(40, 46))  # every hand whose lowest card is Qc or above
    values = evaluate_batch(hands)
    scalar = np.array([_scalar(h) for h in hands[:: max(1, len(hands) // 3000)].tolist()])
    assert np.array_equal(values[:: max(1, len(hands) // 3000)], scalar)


def _scalar(ids: list[int]) -> int:
    from croupier.evaluator import evaluate_ids

    return evaluate_ids(ids)


@pytest.mark.slow
def test_every_seven_card_hand_through_the_batch_api() -> None:
    total = np.zeros(MAX_VALUE + 1, dtype=np.int64)
    for first in range(46):
        chunk = _seven_card_chunks(range(first, first + 1))
        total += np.bincount(evaluate_batch(chunk, parallel=True), minlength=MAX_VALUE + 1)
    assert np.array_equal(total, enumerate7_histogram())


def test_shipped_tables_equal_a_fresh_build() -> None:
    from croupier.evaluator._tables import Tables, build_tables, tables

    shipped, fresh = tables(), build_tables()
    for name in Tables.__dataclass_fields__:
        assert np.array_equal(getattr(shipped, name), getattr(fresh, name)), name
