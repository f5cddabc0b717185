"""The two-combination rule: every test vector of spec/russian.md, and the options."""

from __future__ import annotations

import pytest

from croupier.cards import parse_cards
from croupier.games.russian import (
    BetPaytable,
    Combination,
    DuplicateRankStraights,
    two_combination_pay,
)
from croupier.games.russian.rules import find_combinations

# spec/russian.md "Two combinations": six or five cards -> total multiple of the Bet
SPEC_VECTORS = [
    ("Ah Kh Qh Jh Th 9h", 150),
    ("Ah Kh Qh Jh Th 8h", 105),
    ("Ah Kh Qh Jh Th 9s", 104),
    ("Kh Qh Jh Th 9h 8h", 100),
    ("Kh Qh Jh Th 9h 2h", 55),
    ("Kh Qh Jh Th 9h 8s", 54),
    ("5h 4h 3h 2h Ah Ks", 51),
    ("Ah As Ad Ac 8h 8s", 27),
    ("Ah As Ad Ac Kh", 21),
    ("Ah As Ad 8h 8s 8c", 14),
    ("Ah As Ad Kh 8s 8c", 8),
    ("Kh Qh Jh 8h 7h 2h", 10),
    ("Kh Qh Jh Ts 9h 7h", 9),
    ("Kh Qh Jh 8h 7h 7s", 6),
    ("As Kh Qh Jh 7h 2h", 6),
    ("Kh Qs Jd Tc 9h 8s", 8),
    ("5h 4s 3d 2c Ah Ks", 5),
    ("Ah As Ad Kh 2c", 4),
    ("Kh Ks 8d 8h 2c 2s", 4),
    ("Kh Ks 8d 8h Ac", 3),
    ("Kh Ks Ac 8d 5h", 2),
    ("8h 8s Ac Kd 5h", 2),
]


def test_there_are_22_vectors() -> None:
    assert len(SPEC_VECTORS) == 22


@pytest.mark.parametrize(("hand", "pays"), SPEC_VECTORS)
def test_spec_vector(hand: str, pays: int) -> None:
    assert two_combination_pay(parse_cards(hand)).multiple == pays


@pytest.mark.parametrize(("hand", "pays"), SPEC_VECTORS)
def test_spec_vector_does_not_depend_on_card_order(hand: str, pays: int) -> None:
    cards = parse_cards(hand)
    assert two_combination_pay(cards[::-1]).multiple == pays


@pytest.mark.parametrize(
    ("hand", "pays"),
    [
        ("Ah Kh Qh Jh Th", 100),  # a royal alone: its flush and Ace-King add no new card
        ("Ah Kd 9c 5s 3h", 1),
        ("Qh Jd 9c 5s 3h", 0),
        ("Ah As Kd Kc 2c", 2),  # Ace-King inside the two pair
        ("Ah As Kd 8c 2c", 2),
        ("Ah As Ad Kh Kc", 7),  # full house; Ace-King inside it
        ("Ks Kd Kh Kc Ah", 21),
        ("9h 9s 9c 4d 2c", 3),
    ],
)
def test_five_card_hands(hand: str, pays: int) -> None:
    assert two_combination_pay(parse_cards(hand)).multiple == pays


def test_duplicate_rank_straights_option() -> None:
    hand = parse_cards("Kh Qs Jd Tc 9h 9s")
    two = two_combination_pay(hand)
    assert two.multiple == 8
    assert two.combinations == (Combination.STRAIGHT, Combination.STRAIGHT)
    pair = two_combination_pay(
        hand, duplicate_rank_straights=DuplicateRankStraights.STRAIGHT_PLUS_PAIR
    )
    assert pair.multiple == 5
    assert pair.combinations == (Combination.STRAIGHT, Combination.PAIR)


def test_custom_paytable() -> None:
    table = BetPaytable(ace_king=0, pair=1)
    assert two_combination_pay(parse_cards("8h 8s Ac Kd 5h"), paytable=table).multiple == 1


def test_pay_line_names_both_combinations() -> None:
    assert two_combination_pay(parse_cards("5h 4h 3h 2h Ah Ks")).line == (
        "Straight flush + Ace-King"
    )


def test_defining_cards() -> None:
    found = dict(find_combinations(parse_cards("Kh Ks 8d 8h Ac")))
    assert set(found) == {Combination.PAIR, Combination.TWO_PAIR, Combination.ACE_KING}
    assert {str(c) for c in found[Combination.TWO_PAIR]} == {"Kh", "Ks", "8d", "8h"}


def test_public_surface() -> None:
    import croupier.games.russian as russian

    assert russian.__all__ == sorted(russian.__all__)
    for name in russian.__all__:
        assert hasattr(russian, name)
