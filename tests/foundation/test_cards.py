"""Cards: notation round trips, ids, and errors that name what was wrong."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from croupier.cards import DECK, Card, Rank, Suit, check_distinct, format_cards, parse_cards
from croupier.errors import InvalidCardsError, NotationError


def test_ids_follow_four_rank_plus_suit() -> None:
    assert Card.parse("2c").id == 0
    assert Card.parse("2d").id == 1
    assert Card.parse("2s").id == 3
    assert Card.parse("3c").id == 4
    assert Card.parse("As").id == 51
    assert [c.id for c in DECK] == list(range(52))


def test_ten_is_accepted_as_10_and_printed_as_t() -> None:
    assert Card.parse("10d") == Card.parse("Td")
    assert str(Card.parse("10d")) == "Td"


@given(st.integers(0, 51))
def test_notation_and_repr_round_trip(card_id: int) -> None:
    card = Card.from_id(card_id)
    assert Card.parse(str(card)) == card
    assert eval(repr(card)) == card
    assert card.rank == Rank(card_id // 4)
    assert card.suit == Suit(card_id % 4)


@given(st.lists(st.integers(0, 51), unique=True, max_size=10), st.sampled_from(["", " ", ","]))
def test_list_parsing_round_trips(ids: list[int], sep: str) -> None:
    cards = tuple(Card.from_id(i) for i in ids)
    assert parse_cards(format_cards(cards, sep)) == cards


def test_parse_cards_together_and_apart() -> None:
    assert parse_cards("As Kd") == parse_cards("AsKd") == (Card.parse("As"), Card.parse("Kd"))
    assert parse_cards("10h9h") == (Card.parse("Th"), Card.parse("9h"))


@pytest.mark.parametrize(
    ("text", "fragment"),
    [("Xs", "'Xs'"), ("Ax", "'Ax'"), ("A", "'A'"), ("Asss", "'Asss'")],
)
def test_bad_card_names_the_text(text: str, fragment: str) -> None:
    with pytest.raises(NotationError, match=fragment):
        Card.parse(text)


def test_bad_list_names_the_position() -> None:
    with pytest.raises(NotationError, match="'Zz'"):
        parse_cards("As Zz Kd")


@pytest.mark.parametrize("bad", [-1, 52, 100])
def test_id_outside_range_is_refused(bad: int) -> None:
    with pytest.raises(InvalidCardsError, match=str(bad)):
        Card.from_id(bad)
    with pytest.raises(InvalidCardsError):
        Card(bad)


def test_duplicates_are_named() -> None:
    with pytest.raises(InvalidCardsError, match="Kd appears more than once"):
        check_distinct(parse_cards("As Kd Kd"))


def test_errors_are_value_errors() -> None:
    with pytest.raises(ValueError):
        Card.parse("??")
