"""Hands named in full (with kickers) and what decides between two hands."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from croupier.errors import InvalidCardsError
from croupier.evaluator import MAX_VALUE, describe, evaluate, versus


@pytest.mark.parametrize(
    ("hand", "full"),
    [
        ("QsQd As Kd 9c 2h 3c", "Pair of Queens, Ace-King-Nine kicker"),
        ("Ks Kd 6h 6c Ad 2c", "Two pair, Kings and Sixes, Ace kicker"),
        ("Ks Kd 6h 6c 6d 2c", "Full house, Sixes full of Kings"),
        ("7s 7d 7h Ac Td 2c", "Three of a kind, Sevens, Ace-Ten kicker"),
        ("As Ad Ah Ac Kd Qd", "Four of a kind, Aces, King kicker"),
        ("Ah 9h 7h 4h 2h Kc", "Flush, Ace-Nine-Seven-Four-Two"),
        ("As Kd 9c 7h 4d 2c", "Ace-King-Nine-Seven-Four high"),
        ("As 2d 3h 4c 5s", "Straight, Five high"),
        ("9h 8h 7h 6h 5h", "Straight flush, Nine high"),
        ("As Ks Qs Js Ts", "Royal flush"),
    ],
)
def test_full_descriptions_name_every_rank_that_counts(hand: str, full: str) -> None:
    value = evaluate(hand)
    assert value.full_description == full
    assert describe(value.value, kickers=True) == full


def test_full_descriptions_tell_every_hand_class_apart() -> None:
    # 7,462 classes, 7,462 different names: two hands read the same only when they tie
    names = [describe(v, kickers=True) for v in range(1, MAX_VALUE + 1)]
    assert len(set(names)) == MAX_VALUE
    # the short form names the category and its main ranks only (13 pairs, 13 x 13 fulls)
    short = {describe(v) for v in range(1, MAX_VALUE + 1)}
    assert "Pair of Queens" in short and len(short) < 1_000


@pytest.mark.parametrize(
    ("better", "worse", "why"),
    [
        ("QsQd As Kd 9c", "QhQc Ah Kc 8d", "the Nine kicker beats the Eight"),
        ("QsQd 7s 5d 3c", "JsJd As Kd Qc", "Queens beat Jacks"),
        ("KsKd 6s 6d 2c", "KhKc 5h 5d Ac", "Sixes beat Fives"),
        ("KsKd 6s 6d 3c", "KhKc 6h 6c 2d", "the Three kicker beats the Two"),
        ("As Kd 9c 7h 4d", "Ah Kc 9d 7s 3c", "the Four kicker beats the Three"),
        ("As Kd 9c 7h 4d", "Kh Qc 9d 7s 3c", "Ace high beats King high"),
        ("Ah 9h 7h 4h 3h", "As 9s 7s 4s 2s", "the Three beats the Two"),
        ("6s 5d 4c 3h 2d", "As 2h 3c 4d 5s", "Six high beats Five high"),
        ("2h 2d 7h 5c 3d", "As Kd 9c 7h 4d", "Pair of Twos beats Ace-King high"),
        ("QsQd As Kd 9c", "QhQc Ah Kc 9d", "equal hands"),
    ],
)
def test_versus_names_what_decides(better: str, worse: str, why: str) -> None:
    assert versus(evaluate(better).value, evaluate(worse).value) == why


@given(st.integers(1, MAX_VALUE), st.integers(1, MAX_VALUE))
def test_versus_answers_for_every_pair_in_order_and_refuses_the_wrong_order(a: int, b: int) -> None:
    high, low = max(a, b), min(a, b)
    text = versus(high, low)
    assert (text == "equal hands") == (a == b)
    if a != b:
        with pytest.raises(InvalidCardsError, match="does not beat"):
            versus(low, high)


@pytest.mark.parametrize("value", [0, MAX_VALUE + 1])
def test_names_refuse_values_outside_the_range(value: int) -> None:
    with pytest.raises(InvalidCardsError, match="outside"):
        describe(value, kickers=True)
    with pytest.raises(InvalidCardsError, match="outside"):
        versus(value, value)
