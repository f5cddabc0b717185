"""Suit isomorphism of the exact analysis: canonical boards, canonical flops, pair tables.

A deck here is any set of card ids closed under the 24 suit permutations (the full deck,
or whole ranks of it for the reduced runs of the tests). A permutation ``p`` maps card
``4 * rank + suit`` to ``4 * rank + p[suit]``. A set of cards is canonical when its code (the
ids sorted from high to low, six bits each) is the least over its orbit.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations, permutations
from typing import Any

import numba as nb
import numpy as np
import numpy.typing as npt

from croupier.errors import ConfigError

__all__: list[str] = []

I64 = npt.NDArray[np.int64]

PERMS: I64 = np.array(list(permutations(range(4))), dtype=np.int64)
"""The 24 suit permutations (row 0 is the identity)."""


def _card_perms() -> I64:
    cards = np.arange(52, dtype=np.int64)
    return (cards // 4 * 4)[None, :] + PERMS[:, cards % 4]


CARD_PERM: I64 = _card_perms()
"""``CARD_PERM[p, c]``: the card ``c`` becomes under permutation ``p``."""


@nb.njit(cache=True, parallel=True)
def _canonical_codes(
    sets: Any, card_perm: Any, codes: Any, perm_of: Any
) -> None:  # pragma: no cover - compiled
    """For each row of card ids: the least code over the 24 permutations and one perm reaching it."""
    n, k = sets.shape
    for i in nb.prange(n):
        best = np.int64(1) << 62
        arg = 0
        v = np.empty(k, dtype=np.int64)
        for p in range(24):
            for x in range(k):
                v[x] = card_perm[p, sets[i, x]]
            # sort descending (insertion sort of at most five elements)
            for x in range(1, k):
                y = x
                while y > 0 and v[y - 1] < v[y]:
                    v[y - 1], v[y] = v[y], v[y - 1]
                    y -= 1
            code = np.int64(0)
            for x in range(k):
                code = (code << 6) | v[x]
            if code < best:
                best = code
                arg = p
        codes[i] = best
        perm_of[i] = arg


def _combos(deck: I64, k: int) -> I64:
    index = np.array(list(combinations(range(len(deck)), k)), dtype=np.int64)
    return deck[index]


def _decode(code: int, k: int) -> list[int]:
    return [(code >> (6 * (k - 1 - j))) & 63 for j in range(k)]


@dataclass(frozen=True, slots=True, eq=False)
class DeckSymmetry:
    """Every table the kernels need for one deck."""

    deck: I64
    """The card ids in play, ascending."""
    pair_index: I64
    """Shape (52, 52): index of the two-card hand {a, b} among the deck's pairs, -1 if absent."""
    pair_cards: I64
    """Shape (pairs, 2): the cards of each pair."""
    pair_perm: I64
    """Shape (24, pairs): the pair a permutation maps each pair to."""
    pair_class: I64
    """Shape (pairs,): the starting-hand class 13 * i + j (0 = AA; suited above the diagonal)."""
    flop_class: I64
    """Shape (52**3,): index of the canonical flop of the sorted triple (a < b < c), by a*2704+b*52+c."""
    flop_perm: I64
    """Shape (52**3,): a permutation taking the triple to its canonical flop."""
    flop_weight: I64
    """Shape (flops,): how many flops each canonical flop stands for."""
    flop_stabilizer: npt.NDArray[np.bool_]
    """Shape (flops, 24): the permutations that map the canonical flop to itself."""


def hand_class(a: int, b: int) -> int:
    """The 13 x 13 grid cell of a two-card hand: row/column by rank from Ace down, suited above."""
    ra, rb = 12 - a // 4, 12 - b // 4
    hi, lo = min(ra, rb), max(ra, rb)
    if a % 4 == b % 4:
        return 13 * hi + lo
    return 13 * lo + hi


def class_name(cls: int) -> str:
    """``"AA"``, ``"AKs"`` or ``"AKo"`` for a grid cell."""
    i, j = divmod(cls, 13)
    symbols = "AKQJT98765432"
    if i == j:
        return symbols[i] * 2
    if i < j:
        return symbols[i] + symbols[j] + "s"
    return symbols[j] + symbols[i] + "o"


@cache
def deck_symmetry(deck_key: tuple[int, ...]) -> DeckSymmetry:
    """Build (and cache) the tables of a deck given as a sorted tuple of card ids."""
    deck = np.array(deck_key, dtype=np.int64)
    present = np.zeros(52, dtype=bool)
    present[deck] = True
    if len(deck) < 9 or any(not present[CARD_PERM[:, c]].all() for c in deck):
        raise ConfigError("a deck must hold whole ranks (all four suits) and at least 9 cards")
    pairs = _combos(deck, 2)
    pair_index = np.full((52, 52), -1, dtype=np.int64)
    pair_index[pairs[:, 0], pairs[:, 1]] = np.arange(len(pairs))
    pair_index[pairs[:, 1], pairs[:, 0]] = np.arange(len(pairs))
    pair_perm = pair_index[CARD_PERM[:, pairs[:, 0]], CARD_PERM[:, pairs[:, 1]]]
    pair_class = np.array([hand_class(int(a), int(b)) for a, b in pairs], dtype=np.int64)

    flops = _combos(deck, 3)
    fcodes = np.empty(len(flops), dtype=np.int64)
    fperm = np.empty(len(flops), dtype=np.int64)
    _canonical_codes(flops, CARD_PERM, fcodes, fperm)
    funique, findex, fweight = np.unique(fcodes, return_inverse=True, return_counts=True)
    flop_class = np.full(52**3, -1, dtype=np.int64)
    flop_perm = np.full(52**3, -1, dtype=np.int64)
    slot = flops[:, 0] * 2704 + flops[:, 1] * 52 + flops[:, 2]
    flop_class[slot] = findex
    flop_perm[slot] = fperm
    canon = np.array([_decode(int(c), 3) for c in funique], dtype=np.int64).reshape(-1, 3)
    stab = np.zeros((len(funique), 24), dtype=bool)
    mapped = np.sort(CARD_PERM[:, canon], axis=2)  # (24, flops, 3)
    stab[:, :] = (mapped == np.sort(canon, axis=1)[None]).all(axis=2).T
    return DeckSymmetry(
        deck=deck,
        pair_index=pair_index,
        pair_cards=pairs,
        pair_perm=pair_perm,
        pair_class=pair_class,
        flop_class=flop_class,
        flop_perm=flop_perm,
        flop_weight=fweight.astype(np.int64),
        flop_stabilizer=stab,
    )


@cache
def board_classes(deck_key: tuple[int, ...]) -> tuple[I64, I64]:
    """One canonical board per class of five-card boards (cards ascending) and class sizes."""
    deck = deck_symmetry(deck_key).deck
    boards5 = _combos(deck, 5)
    codes = np.empty(len(boards5), dtype=np.int64)
    perm_of = np.empty(len(boards5), dtype=np.int64)
    _canonical_codes(boards5, CARD_PERM, codes, perm_of)
    unique, weight = np.unique(codes, return_counts=True)
    boards = np.array([_decode(int(c), 5) for c in unique], dtype=np.int64).reshape(-1, 5)
    boards.sort(axis=1)
    return boards, weight.astype(np.int64)
