"""The scalar API: values, categories, best five, descriptions, errors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from croupier.cards import Card, format_cards, parse_cards
from croupier.errors import InvalidCardsError, NotationError
from croupier.evaluator import (
    HandCategory,
    best_five,
    categories,
    category_of,
    evaluate,
    evaluate_batch,
    evaluate_ids,
)


@pytest.mark.parametrize(
    ("hand", "category", "description", "five"),
    [
        ("AsKsQsJsTs2d3c", HandCategory.ROYAL_FLUSH, "Royal flush", "AsKsQsJsTs"),
        ("9h8h7h6h5h", HandCategory.STRAIGHT_FLUSH, "Straight flush, Nine high", "9h8h7h6h5h"),
        ("Ad2d3d4d5d9c", HandCategory.STRAIGHT_FLUSH, "Straight flush, Five high", "5d4d3d2dAd"),
        ("KsKdKhKc2d", HandCategory.FOUR_OF_A_KIND, "Four of a kind, Kings", "KsKhKdKc2d"),
        (
            "KsKd6h6cKh2d3s",
            HandCategory.FULL_HOUSE,
            "Full house, Kings full of Sixes",
            "KsKhKd6h6c",
        ),
        ("Ah9h7h4h2h", HandCategory.FLUSH, "Flush, Ace high", "Ah9h7h4h2h"),
        ("As2d3h4c5s", HandCategory.STRAIGHT, "Straight, Five high", "5s4c3h2dAs"),
        ("7s7d7h4c2s", HandCategory.THREE_OF_A_KIND, "Three of a kind, Sevens", "7s7h7d4c2s"),
        ("KsKd6h6c2d", HandCategory.TWO_PAIR, "Two pair, Kings and Sixes", "KsKd6h6c2d"),
        ("QsQd9h6c2d", HandCategory.PAIR, "Pair of Queens", "QsQd9h6c2d"),
        ("AsKd9h6c2d", HandCategory.HIGH_CARD, "Ace-King high", "AsKd9h6c2d"),
    ],
)
def test_known_hands(hand: str, category: HandCategory, description: str, five: str) -> None:
    value = evaluate(hand)
    assert value.category is category
    assert value.description == description
    assert format_cards(value.best_five) == five


def test_ordering_examples() -> None:
    assert evaluate("As2d3h4c5s") < evaluate("2s3d4h5c6s")  # the wheel is the lowest straight
    assert evaluate("AsAdKhQcJs") > evaluate("AsAdKhQc9s")  # kickers break ties
    assert evaluate("AsAdKhQcJs") == evaluate("AhAcKdQdJh")  # suits never do
    assert evaluate("2s2d2h3c3s") > evaluate("AsKsQs9s7s")  # full house beats flush
    assert evaluate("AsKd9h6c2d7c8c") == evaluate("AsKd9h8c7c")


@given(st.lists(st.integers(0, 51), min_size=7, max_size=7, unique=True), st.permutations(range(4)))
def test_suit_permutation_and_card_order_do_not_matter(ids: list[int], perm: list[int]) -> None:
    value = evaluate_ids(ids)
    assert evaluate_ids([4 * (c // 4) + perm[c % 4] for c in ids]) == value
    assert evaluate_ids(list(reversed(ids))) == value
    assert evaluate_ids(ids[:6]) <= value  # a seventh card never hurts
    assert int(evaluate_batch(np.array([ids]))[0]) == value


def test_categories_vectorised_matches_scalar() -> None:
    values = np.arange(1, 7463)
    assert [category_of(int(v)) for v in values[::97]] == list(categories(values)[::97])


@pytest.mark.parametrize(
    ("cards", "error", "fragment"),
    [
        ("AsKd", InvalidCardsError, "5, 6 or 7 cards, not 2"),
        ("AsKdQdJdTd9d8d7d", InvalidCardsError, "not 8"),
        ("AsAsQdJdTd", InvalidCardsError, "As appears more than once"),
        ("AsKdQdJdTx", NotationError, "Tx"),
    ],
)
def test_bad_hands_are_named(cards: str, error: type[Exception], fragment: str) -> None:
    with pytest.raises(error, match=fragment):
        evaluate(cards)


def test_bad_batches_are_named() -> None:
    with pytest.raises(InvalidCardsError, match="shape"):
        evaluate_batch(np.zeros((3, 4), dtype=np.int8))
    with pytest.raises(InvalidCardsError, match=r"row 1 \(\[0, 1, 2, 3, 52\]\)"):
        evaluate_batch(np.array([[0, 1, 2, 3, 4], [0, 1, 2, 3, 52]]))
    with pytest.raises(InvalidCardsError, match="row 0"):
        evaluate_batch(np.array([[0, 0, 2, 3, 4]]), parallel=True)
    with pytest.raises(InvalidCardsError, match="outside"):
        evaluate_ids([0, 1, 2, 3, -1])


def test_best_five_of_seven_is_five_of_the_cards() -> None:
    cards = parse_cards("2c 7d 9h Jh Qh Kh Ah")
    five = best_five(cards)
    assert set(five) <= set(cards) and len(five) == 5
    assert all(isinstance(c, Card) for c in five)
