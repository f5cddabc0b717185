"""The batch kernels: card ids read in place, whatever their integer dtype and layout.

numba compiles one specialisation per dtype and layout, so ``uint8``, ``int32`` or a column
slice of an ``int64`` table are read where they lie, never copied. Per hand:

- each id indexes a 256-entry table of pairs (additive key, card bit); ids 52..255 hold
  zeros, so a bad id, like a repeated card, leaves fewer bits set than cards: one popcount
  checks both. Ids wider than a byte are first checked to fit in one (``is_wide``);
- the key is the evaluator's (``_tables``): rank digits and suit counters; the card bits
  are laid out suit by suit (bit ``16 * suit + rank``), so a flush's rank mask is a shift;
- values come from the lookup tables narrowed to uint16 and laid end to end (``flat``),
  about 300 KB in use for one hand size, inside this machine's 1 MB L2.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numba as nb
import numpy as np
import numpy.typing as npt

from croupier.evaluator._intrinsics import (
    is_wide,
    popcount,
    prefetch_row,
    sum_pairs,
    trailing_zeros,
)
from croupier.evaluator._tables import FLUSH_INIT, FLUSH_TEST, HIGH_MASK, LOW_BITS, LOW_MASK, tables

__all__: list[str] = []

_LOW_SIZE = 5**7
_HIGH_SIZE = 5**6
_NONFLUSH_SIZE = 49205
_HIGH_AT = 3 * _LOW_SIZE
_NONFLUSH_AT = _HIGH_AT + _HIGH_SIZE
_FLUSH_AT = _NONFLUSH_AT + 3 * _NONFLUSH_SIZE
_FLUSH_BITS = FLUSH_TEST << 32
_SUIT_TOPS = 35  # the top bit of the first suit counter
_NO_CARD = 255  # a pair of zeros: the sixth and seventh "card" of a shorter hand
_PREFETCH_ROWS = 48  # rows ahead; helps ids wider than a byte, which stream from memory


@cache
def batch_tables() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint16]]:
    """The pair table (key at ``2 * id``, card bit at ``2 * id + 1``) and the flat uint16 tables."""
    t = tables()
    pairs = np.zeros((256, 2), dtype=np.int64)
    ids = np.arange(52)
    pairs[:52, 0] = t.card_keys
    pairs[:52, 1] = np.left_shift(1, 16 * (ids & 3) + (ids >> 2))
    parts = (t.low_hash.ravel(), t.high_hash, t.nonflush.ravel(), t.flush)
    flat = np.concatenate(parts)
    assert flat.max() < 1 << 16  # hash parts below 49,205, values below 7,463
    return pairs.ravel(), flat.astype(np.uint16)


@nb.njit(cache=True, nogil=True)
def rows(
    cards: Any, out: Any, start: int, stop: int, pairs: Any, flat: Any
) -> int:  # pragma: no cover - compiled
    """Evaluate rows ``start..stop`` into ``out``; return the first invalid row, or -1.

    Written flat on purpose (notes/performance: numba habits); indices are uint64 so numba
    adds no negative-index wraparound.
    """
    ncards = cards.shape[1]
    low_at = np.uint64((ncards - 5) * _LOW_SIZE)
    nonflush_at = np.uint64(_NONFLUSH_AT + (ncards - 5) * _NONFLUSH_SIZE)
    no_card = np.uint64(_NO_CARD)
    for r in range(start, stop):
        i = np.uint64(r)
        if is_wide(cards) and r + _PREFETCH_ROWS < stop:
            prefetch_row(cards, i + np.uint64(_PREFETCH_ROWS))
        c0 = np.uint64(cards[i, 0])
        c1 = np.uint64(cards[i, 1])
        c2 = np.uint64(cards[i, 2])
        c3 = np.uint64(cards[i, 3])
        c4 = np.uint64(cards[i, 4])
        c5 = np.uint64(cards[i, 5]) if ncards > 5 else no_card
        c6 = np.uint64(cards[i, 6]) if ncards > 6 else no_card
        if is_wide(cards) and (c0 | c1 | c2 | c3 | c4 | c5 | c6) > no_card:
            return r
        key, seen = sum_pairs(pairs, c0, c1, c2, c3, c4, c5, c6)
        if popcount(seen) != ncards:
            return r
        key += FLUSH_INIT
        if key & _FLUSH_BITS:
            suit = trailing_zeros((key >> _SUIT_TOPS) & 0x1111)  # 4 * the flush suit
            out[i] = flat[np.uint64(_FLUSH_AT + ((seen >> (4 * suit)) & 0x1FFF))]
        else:
            low = flat[low_at + np.uint64(key & LOW_MASK)]
            high = flat[np.uint64(_HIGH_AT + ((key >> LOW_BITS) & HIGH_MASK))]
            out[i] = flat[nonflush_at + np.uint64(low) + np.uint64(high)]
    return -1


@nb.njit(cache=True, nogil=True)
def batch_serial(cards: Any, out: Any, pairs: Any, flat: Any) -> int:  # pragma: no cover
    """Every row on this thread; the first invalid row, or -1."""
    return rows(cards, out, 0, cards.shape[0], pairs, flat)


@nb.njit(cache=True, nogil=True, parallel=True)
def batch_parallel(
    cards: Any, out: Any, pairs: Any, flat: Any, firsts: Any
) -> None:  # pragma: no cover - compiled
    """Rows split in ``len(firsts)`` equal chunks over numba's threads; each chunk's first
    invalid row (or -1) goes to ``firsts``."""
    n = cards.shape[0]
    chunks = firsts.shape[0]
    for k in nb.prange(chunks):
        firsts[k] = rows(cards, out, k * n // chunks, (k + 1) * n // chunks, pairs, flat)
