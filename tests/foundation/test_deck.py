"""The shuffle is uniform, and the same test catches the classic broken shuffle."""

from __future__ import annotations

import random
import secrets

import numpy as np
import pytest
from scipy.stats import chi2

from croupier.cards import DECK, parse_cards
from croupier.deck import PyRandomSource, RandomSource, Shoe, seeded_source, shuffled
from croupier.errors import InvalidCardsError
from croupier.server.rng import live_shoe

SHUFFLES = 20_000


def _broken_shuffle(source: RandomSource) -> tuple[int, ...]:
    """The classic mistake: swap each position with any position, not only the remaining ones."""
    order = list(range(52))
    for i in range(52):
        j = source.randbelow(52)
        order[i], order[j] = order[j], order[i]
    return tuple(order)


def _chi_square_p(orders: list[tuple[int, ...]]) -> float:
    """p-value of card x position counts under uniformity (dof = 51 * 51)."""
    counts = np.zeros((52, 52), dtype=np.int64)
    positions = np.arange(52)
    for order in orders:
        counts[np.asarray(order), positions] += 1
    expected = len(orders) / 52
    statistic = float(((counts - expected) ** 2 / expected).sum())
    return float(chi2.sf(statistic, 51 * 51))


def test_fisher_yates_is_uniform() -> None:
    source = seeded_source(20261121)
    orders = [tuple(c.id for c in shuffled(source)) for _ in range(SHUFFLES)]
    assert _chi_square_p(orders) > 0.001


def test_the_same_test_catches_the_broken_shuffle() -> None:
    source = seeded_source(20261121)
    orders = [_broken_shuffle(source) for _ in range(SHUFFLES)]
    assert _chi_square_p(orders) < 1e-6


def test_shuffle_is_a_permutation_from_any_source() -> None:
    for source in (
        seeded_source(1),
        PyRandomSource(random.Random(1)),
        PyRandomSource(secrets.SystemRandom()),
    ):
        order = shuffled(source)
        assert sorted(order) == list(DECK)


def test_seeded_shuffles_are_reproducible() -> None:
    assert shuffled(seeded_source(5)) == shuffled(seeded_source(5))
    assert shuffled(seeded_source(5)) != shuffled(seeded_source(6))


def test_shoe_deals_in_order_with_burns() -> None:
    shoe = Shoe.parse("As Kd Qh Jc Ts")
    assert shoe.draw(2) == parse_cards("As Kd")
    assert str(shoe.burn()) == "Qh"
    assert shoe.draw_one() == parse_cards("Jc")[0]
    assert shoe.position == 4 and shoe.remaining == 1
    with pytest.raises(InvalidCardsError, match="cannot deal 2 cards from a shoe with 1 left"):
        shoe.draw(2)
    assert shoe.remaining == 1


def test_shoe_refuses_repeated_cards() -> None:
    with pytest.raises(InvalidCardsError, match="As appears more than once"):
        Shoe.parse("As Kd As")


def test_live_shoe_is_a_full_deck() -> None:
    shoe = live_shoe()
    assert sorted(shoe.order) == list(DECK)
