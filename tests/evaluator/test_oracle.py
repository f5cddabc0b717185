"""Agreement with phevaluator (a test-only dependency) on random hands, as orderings."""

from __future__ import annotations

import numpy as np
import pytest
from phevaluator import evaluate_cards

from croupier.evaluator import evaluate_batch

HANDS = 1_000_000


def random_hands(rng: np.random.Generator, count: int, size: int) -> np.ndarray:
    """``count`` random hands of ``size`` distinct card ids."""
    hands = rng.integers(0, 52, size=(count, size), dtype=np.int8)
    while True:
        ordered = np.sort(hands, axis=1)
        bad = np.flatnonzero((np.diff(ordered, axis=1) == 0).any(axis=1))
        if not len(bad):
            return hands
        hands[bad] = rng.integers(0, 52, size=(len(bad), size), dtype=np.int8)


@pytest.mark.parametrize("size", [5, 6, 7])
def test_orderings_match_phevaluator(size: int) -> None:
    rng = np.random.default_rng(size)
    hands = random_hands(rng, HANDS, size)
    ours = evaluate_batch(hands)
    theirs = np.fromiter((evaluate_cards(*h) for h in hands.tolist()), dtype=np.int64, count=HANDS)
    # phevaluator ranks 1 (royal flush) .. 7462 (7-5-4-3-2): lower is better.
    order = np.argsort(ours, kind="stable")
    assert np.all(np.diff(theirs[order]) <= 0)
    # both use the 7,462 classes, so the values are exact mirrors
    assert np.array_equal(ours, 7463 - theirs)
