"""Rank-level tables for the exact analysis: what a hand value means, the dealer's
non-qualifying rank sets and what buying does to each, and counts over 13-bit rank masks.

Suits matter to a dealer hand only through flushes, so the analysis counts dealer hands by
rank multiset (``prod C(available_r, count_r)``) and corrects the flush-suited ones suit by
suit with the masks of ranks still available in each suit (see :mod:`._state`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations, combinations_with_replacement
from typing import Any

import numba as nb
import numpy as np
import numpy.typing as npt

from croupier.evaluator import evaluate_ids

__all__: list[str] = []

HC, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL, QUADS, SF, ROYAL = range(10)
ACE, KING = 12, 11
STRAIGHT_MASKS = np.array(
    [0b1_0000_0000_1111, *((0b11111 << low) for low in range(9))], dtype=np.int64
)
"""The ten straights as rank masks, lowest (the wheel, index 0) first."""


def _nonflush_ids(ranks: tuple[int, ...]) -> list[int]:
    """Card ids for the sorted ``ranks`` with suits that never make a flush: each copy of a
    rank takes the next suit; five distinct ranks take suits 0, 1, 2, 3, 0."""
    if len(set(ranks)) == len(ranks):
        return [4 * r + s for r, s in zip(ranks, (0, 1, 2, 3, 0), strict=False)]
    seen: dict[int, int] = {}
    out = []
    for r in ranks:
        out.append(4 * r + seen.get(r, 0))
        seen[r] = seen.get(r, 0) + 1
    return out


def _describe(ranks: tuple[int, ...], category: int) -> tuple[int, ...]:
    """The ranks that order hands within ``category``, most significant first."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    by_count = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    if category in (STRAIGHT, SF, ROYAL):
        mask = sum(1 << r for r in ranks)
        return (3 if mask == STRAIGHT_MASKS[0] else max(ranks),)
    return tuple(by_count)


@dataclass(frozen=True, slots=True)
class ValueTable:
    """Every hand value (0..7462) described: category and ordering ranks (-1 pads)."""

    category: npt.NDArray[np.int64]
    ranks: npt.NDArray[np.int64]
    """(7463, 5): ordering ranks, most significant first."""
    mask: npt.NDArray[np.int64]
    """13-bit mask of the ranks of a hand with that value."""


@cache
def value_table() -> ValueTable:
    """The description of every value, from the evaluator."""
    category = np.full(7463, -1, dtype=np.int64)
    ranks = np.full((7463, 5), -1, dtype=np.int64)
    mask = np.zeros(7463, dtype=np.int64)
    bounds = (1277, 4137, 4995, 5853, 5863, 7140, 7296, 7452, 7461, 7462)
    for multiset in combinations_with_replacement(range(13), 5):
        if max(multiset.count(r) for r in multiset) > 4:
            continue
        for suited in (False, True):
            if suited and len(set(multiset)) < 5:
                continue
            ids = [4 * r for r in multiset] if suited else _nonflush_ids(multiset)
            value = evaluate_ids(ids)
            cat = int(np.searchsorted(bounds, value))
            desc = _describe(multiset, cat)
            category[value] = cat
            ranks[value, : len(desc)] = desc
            mask[value] = sum(1 << r for r in set(multiset))
    assert (category[1:] >= 0).all()
    return ValueTable(category=category, ranks=ranks, mask=mask)


@dataclass(frozen=True, slots=True)
class DealerSets:
    """The 1,113 rank sets of a non-qualifying dealer hand and what a bought card makes.

    For set ``i``: ``mask``, ``top`` (the replaced rank), ``kept`` (4 ranks); for each rank
    ``r``: ``new_value[i, r]`` is the value of the bought hand when the new card has rank
    ``r`` and no flush (a pair for a kept rank, a straight or a high card otherwise; 0 for
    the top rank), and ``flush_value[i, r]`` when it also makes a flush with the four kept
    cards (0 for kept ranks; column 13: the flush of the set itself, which a new card of the
    top rank makes when the rebuy option is off).
    """

    mask: npt.NDArray[np.int64]
    top: npt.NDArray[np.int64]
    kept_mask: npt.NDArray[np.int64]
    new_value: npt.NDArray[np.int64]
    flush_value: npt.NDArray[np.int64]
    qualifies: npt.NDArray[np.bool_]
    """``qualifies[i, r]``: the bought hand (no flush) qualifies."""
    kept: npt.NDArray[np.int64]
    """(count, 4): the kept ranks."""
    straight_ranks: npt.NDArray[np.int64]
    """(count, 2): the ranks that make a straight with the kept four (-1: none)."""


@cache
def dealer_sets() -> DealerSets:
    """The non-qualifying rank sets, colex order."""
    sets = []
    for ranks in combinations(range(13), 5):
        m = sum(1 << r for r in ranks)
        if m in STRAIGHT_MASKS or (ACE in ranks and KING in ranks):
            continue
        sets.append(ranks)
    count = len(sets)
    mask = np.zeros(count, dtype=np.int64)
    top = np.zeros(count, dtype=np.int64)
    kept_mask = np.zeros(count, dtype=np.int64)
    new_value = np.zeros((count, 13), dtype=np.int64)
    flush_value = np.zeros((count, 14), dtype=np.int64)
    qual = np.zeros((count, 13), dtype=np.bool_)
    kept_ranks = np.zeros((count, 4), dtype=np.int64)
    straight_ranks = np.full((count, 2), -1, dtype=np.int64)
    for i, ranks in enumerate(sets):
        mask[i] = sum(1 << r for r in ranks)
        top[i] = ranks[-1]
        kept = ranks[:-1]
        kept_mask[i] = sum(1 << r for r in kept)
        flush_value[i, 13] = evaluate_ids([4 * x for x in ranks])
        for r in range(13):
            if r == top[i]:
                continue
            hand = (*kept, r)
            value = evaluate_ids(_nonflush_ids(tuple(sorted(hand))))
            new_value[i, r] = value
            qual[i, r] = value > 1277
            if r not in kept:
                flush_value[i, r] = evaluate_ids([4 * x for x in hand])
        kept_ranks[i] = kept
        completions = [r for r in range(13) if r not in ranks and qual[i, r]]
        straight_ranks[i, : len(completions)] = completions
    return DealerSets(
        mask=mask,
        top=top,
        kept_mask=kept_mask,
        new_value=new_value,
        flush_value=flush_value,
        qualifies=qual,
        kept=kept_ranks,
        straight_ranks=straight_ranks,
    )


@dataclass(frozen=True, slots=True)
class MaskTables:
    """Counts of five-rank subsets of every 13-bit mask (flush-suited dealer hands)."""

    ace_king: npt.NDArray[np.int64]
    """Subsets holding an Ace and a King that are not a straight (qualify as Ace-King)."""
    not_qualified: npt.NDArray[np.int64]
    """Subsets that are neither a straight nor Ace-King."""
    straights: npt.NDArray[np.int64]
    """10-bit mask of the straights (index as :data:`STRAIGHT_MASKS`) inside the mask."""


@cache
def mask_tables() -> MaskTables:
    """The per-mask counts for all 8,192 masks."""
    return MaskTables(*_mask_tables(STRAIGHT_MASKS))


@nb.njit(cache=True)
def _mask_tables(straight_masks: Any) -> Any:  # pragma: no cover - compiled
    ace_king = np.zeros(8192, dtype=np.int64)
    not_qualified = np.zeros(8192, dtype=np.int64)
    straights = np.zeros(8192, dtype=np.int64)
    binom = np.zeros(14, dtype=np.int64)
    for n in range(14):
        b = 1
        for i in range(5):
            b = b * (n - i)
        binom[n] = b // 120
    for m in range(8192):
        s = 0
        count = 0
        for j in range(10):
            if m & straight_masks[j] == straight_masks[j]:
                s |= 1 << j
                count += 1
        straights[m] = s
        total = binom[_popcount(m)]
        ak = 0
        if (m >> ACE) & 1 and (m >> KING) & 1:
            low = _popcount(m & 0x7FF)
            ak = low * (low - 1) * (low - 2) // 6
            if m & 0b0011100000000 == 0b0011100000000:
                ak -= 1  # A-K-Q-J-T is a straight
        ace_king[m] = ak
        not_qualified[m] = total - count - ak
    return ace_king, not_qualified, straights


@nb.njit(cache=True, nogil=True, inline="always")
def _popcount(x: Any) -> Any:  # pragma: no cover - compiled
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


@cache
def ace_king_below() -> npt.NDArray[np.int64]:
    """``table[121 * a + 11 * b + c, low]``: the three-rank subsets of the 11-bit mask
    ``low`` (Deuce to Queen) lexicographically below ``(a, b, c)`` (high to low), i.e. the
    Ace-King-high flushes of a suit below a player's Ace-King ``(A, K, a, b, c)``."""
    return np.asarray(_ace_king_below(), dtype=np.int64)


@nb.njit(cache=True)
def _ace_king_below() -> Any:  # pragma: no cover - compiled
    out = np.zeros((1331, 2048), dtype=np.int64)
    for a in range(11):
        for b in range(a):
            for c in range(b):
                row = 121 * a + 11 * b + c
                for low in range(2048):
                    total = 0
                    f = (a, b, c)
                    for i in range(3):
                        fi = f[i]
                        rest = 2 - i
                        for r in range(fi):
                            if (low >> r) & 1:
                                n = _popcount(low & ((1 << r) - 1))
                                if rest == 2:
                                    total += n * (n - 1) // 2
                                elif rest == 1:
                                    total += n
                                else:
                                    total += 1
                        if not (low >> fi) & 1:
                            break
                    out[row, low] = total
    return out
