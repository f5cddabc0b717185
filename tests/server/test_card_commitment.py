"""The card-by-card commitment of Hold'em hands (server/tables/fairness.py): any set of
cards opens and checks against the commitment, nothing else does, and a hidden card cannot be
recovered from the published leaves and openings."""

from __future__ import annotations

import hashlib

from hypothesis import given
from hypothesis import strategies as st

from croupier.cards import DECK, format_cards
from croupier.deck import seeded_source, shuffled
from croupier.server.tables.fairness import (
    card_commitment,
    card_leaves,
    card_salt,
    new_salt,
    open_cards,
    positions_of,
    verify_openings,
)


def _deck(seed: int) -> str:
    return format_cards(shuffled(seeded_source(seed)), " ")


@given(seed=st.integers(0, 2**32 - 1), positions=st.sets(st.integers(0, 51)))
def test_any_cards_open_against_the_commitment(seed: int, positions: set[int]) -> None:
    salt, deck = f"{seed:032x}", _deck(seed)
    root, leaves = card_commitment(salt=salt, deck=deck), card_leaves(salt=salt, deck=deck)
    openings = open_cards(salt=salt, deck=deck, positions=positions)
    assert verify_openings(commitment=root, leaves=leaves, openings=openings)
    assert sorted(int(i) for i in openings) == sorted(positions)
    # The leaves are the commitment's: SHA-256 of all 52 joined by spaces.
    assert hashlib.sha256(" ".join(leaves).encode()).hexdigest() == root


@given(seed=st.integers(0, 2**32 - 1), position=st.integers(0, 51), other=st.integers(1, 51))
def test_a_false_opening_is_caught(seed: int, position: int, other: int) -> None:
    salt, deck = f"{seed:032x}", _deck(seed)
    root, leaves = card_commitment(salt=salt, deck=deck), card_leaves(salt=salt, deck=deck)
    cards = deck.split()
    wrong_card = cards[(position + other) % 52]
    key = str(position)
    bad_card = {key: [card_salt(salt, position), wrong_card]}
    bad_salt = {key: [card_salt(salt, (position + other) % 52), cards[position]]}
    moved = {str((position + other) % 52): [card_salt(salt, position), cards[position]]}
    for openings in (bad_card, bad_salt, moved):
        assert not verify_openings(commitment=root, leaves=leaves, openings=openings)
    swapped = leaves[:]
    swapped[position], swapped[(position + other) % 52] = (
        swapped[(position + other) % 52],
        swapped[position],
    )
    assert not verify_openings(commitment=root, leaves=swapped, openings={})


def test_a_hidden_card_cannot_be_read_from_what_is_published() -> None:
    """Without the round's salt, a hidden leaf matches no card by trial: the card salts are
    HMACs of the secret salt, so the openings of the other 50 cards do not give it away."""
    salt, deck = new_salt(), _deck(7)
    leaves = card_leaves(salt=salt, deck=deck)
    hidden = {3, 5}
    openings = open_cards(salt=salt, deck=deck, positions=set(range(52)) - hidden)
    published_salts = [s for s, _ in openings.values()]
    every_card = DECK
    for position in hidden:
        guesses = {
            hashlib.sha256(f"{s}:{position}:{card}".encode()).hexdigest()
            for s in published_salts
            for card in map(str, every_card)
        }
        assert leaves[position] not in guesses


@given(seed=st.integers(0, 2**32 - 1), picks=st.sets(st.integers(0, 51)))
def test_positions_of_finds_each_card_where_the_deck_has_it(seed: int, picks: set[int]) -> None:
    deck = _deck(seed)
    cards = deck.split()
    assert positions_of(deck, [cards[i] for i in picks]) == picks
