"""First hands up to suit symmetry: the classes the exact analysis values.

Two hands are in one class when a permutation of the suits that maps the deck onto itself
maps one onto the other; every option has the same value for both. A class is named by its
smallest image (five card ids sorted, six bits each); its weight is the number of hands in
it. With the full deck the 2,598,960 hands fall into 134,459 classes.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations
from typing import Any

import numba as nb
import numpy as np
import numpy.typing as npt

__all__: list[str] = []

FULL_DECK = (1 << 52) - 1


@dataclass(frozen=True, slots=True)
class HandClasses:
    """The classes of first hands of a deck, grouped by rank multiset."""

    cards: npt.NDArray[np.int64]
    """(C, 5) sorted card ids of each class's representative."""
    weights: npt.NDArray[np.int64]
    """Hands in each class."""
    rank_counts: npt.NDArray[np.int64]
    """(P, 13) the rank multisets, in the order the classes are grouped."""
    start: npt.NDArray[np.int64]
    """Classes ``start[i]:start[i + 1]`` have ranks ``rank_counts[i]``."""

    @property
    def hands(self) -> int:
        """All first hands of the deck."""
        return int(self.weights.sum())


def deck_permutations(deck: int) -> npt.NDArray[np.int64]:
    """The suit permutations that map ``deck`` onto itself (rows: new suit of each suit)."""
    out = []
    for perm in permutations(range(4)):
        image = 0
        for c in range(52):
            if deck >> c & 1:
                image |= 1 << (4 * (c >> 2) + perm[c & 3])
        if image == deck:
            out.append(perm)
    return np.array(out, dtype=np.int64)


@nb.njit(cache=True)
def _codes(cards: Any, perms: Any) -> Any:  # pragma: no cover - compiled
    """The class code of every five-card subset of ``cards`` (colex order)."""
    n = cards.shape[0]
    total = n * (n - 1) * (n - 2) * (n - 3) * (n - 4) // 120
    codes = np.empty(total, dtype=np.int64)
    hand = np.empty(5, dtype=np.int64)
    mapped = np.empty(5, dtype=np.int64)
    idx = 0
    for e in range(4, n):
        hand[4] = cards[e]
        for d in range(3, e):
            hand[3] = cards[d]
            for c in range(2, d):
                hand[2] = cards[c]
                for b in range(1, c):
                    hand[1] = cards[b]
                    for a in range(b):
                        hand[0] = cards[a]
                        best = np.int64(1) << 62
                        for p in range(perms.shape[0]):
                            for j in range(5):
                                mapped[j] = (hand[j] & ~3) | perms[p, hand[j] & 3]
                            # insertion sort of five
                            for i in range(1, 5):
                                x = mapped[i]
                                k = i - 1
                                while k >= 0 and mapped[k] > x:
                                    mapped[k + 1] = mapped[k]
                                    k -= 1
                                mapped[k + 1] = x
                            code = np.int64(0)
                            for j in range(5):
                                code = (code << 6) | mapped[j]
                            best = min(best, code)
                        codes[idx] = best
                        idx += 1
    return codes


def hand_classes(deck: int = FULL_DECK) -> HandClasses:
    """Every class of first hands of ``deck``, grouped by rank multiset."""
    cards = np.array([c for c in range(52) if deck >> c & 1], dtype=np.int64)
    codes, weights = np.unique(_codes(cards, deck_permutations(deck)), return_counts=True)
    shifts = np.array([24, 18, 12, 6, 0], dtype=np.int64)
    reps = (codes[:, None] >> shifts[None, :]) & 63
    counts = np.zeros((len(reps), 13), dtype=np.int64)
    for j in range(5):
        np.add.at(counts, (np.arange(len(reps)), reps[:, j] >> 2), 1)
    key = (counts * 5 ** np.arange(13, dtype=np.int64)).sum(axis=1)
    order = np.lexsort((codes, key))
    reps, weights, counts, key = reps[order], weights[order], counts[order], key[order]
    _, first = np.unique(key, return_index=True)
    return HandClasses(
        cards=np.ascontiguousarray(reps),
        weights=weights.astype(np.int64),
        rank_counts=np.ascontiguousarray(counts[first]),
        start=np.append(first, len(reps)).astype(np.int64),
    )
