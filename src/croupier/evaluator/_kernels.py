"""numba kernels over the lookup tables for one hand and for the enumeration (the batch
kernels are in ``_batch``); flat loops, no allocation inside (notes/performance)."""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np

__all__: list[str] = []

_LOW_MASK = (1 << 17) - 1
_HIGH_MASK = (1 << 14) - 1


@nb.njit(cache=True, nogil=True)
def eval_row(  # pragma: no cover - compiled
    row: Any, ncards: int, keys: Any, low: Any, high: Any, nonflush: Any, flush: Any
) -> int:
    """The value of one hand of card ids (no checks)."""
    key = np.int64(0x3333) << 32
    for j in range(ncards):
        key += keys[row[j]]
    suits = (key >> 32) & 0x8888
    if suits:
        suit = 0
        while not (suits >> (4 * suit + 3)) & 1:
            suit += 1
        mask = 0
        for j in range(ncards):
            if row[j] & 3 == suit:
                mask |= 1 << (row[j] >> 2)
        return int(flush[mask])
    return int(nonflush[low[key & _LOW_MASK] + high[(key >> 17) & _HIGH_MASK]])


@nb.njit(cache=True, parallel=True)
def enumerate7(
    keys: Any, low7: Any, high: Any, nonflush7: Any, flush: Any, chunks: int
) -> Any:  # pragma: no cover - compiled
    """Histogram of values over all C(52, 7) hands, with running key sums.

    The first card is interleaved between chunks (card k, k + chunks, ...) so the threads
    get even shares of the work.
    """
    hist = np.zeros((chunks, 7463), dtype=np.int64)
    init = np.int64(0x3333) << 32
    for chunk in nb.prange(chunks):
        for c1 in range(chunk, 46, chunks):
            k1 = init + keys[c1]
            for c2 in range(c1 + 1, 47):
                k2 = k1 + keys[c2]
                for c3 in range(c2 + 1, 48):
                    k3 = k2 + keys[c3]
                    for c4 in range(c3 + 1, 49):
                        k4 = k3 + keys[c4]
                        for c5 in range(c4 + 1, 50):
                            k5 = k4 + keys[c5]
                            for c6 in range(c5 + 1, 51):
                                k6 = k5 + keys[c6]
                                for c7 in range(c6 + 1, 52):
                                    k = k6 + keys[c7]
                                    suits = (k >> 32) & 0x8888
                                    if suits:
                                        s = 0
                                        while not (suits >> (4 * s + 3)) & 1:
                                            s += 1
                                        m = 0
                                        if c1 & 3 == s:
                                            m |= 1 << (c1 >> 2)
                                        if c2 & 3 == s:
                                            m |= 1 << (c2 >> 2)
                                        if c3 & 3 == s:
                                            m |= 1 << (c3 >> 2)
                                        if c4 & 3 == s:
                                            m |= 1 << (c4 >> 2)
                                        if c5 & 3 == s:
                                            m |= 1 << (c5 >> 2)
                                        if c6 & 3 == s:
                                            m |= 1 << (c6 >> 2)
                                        if c7 & 3 == s:
                                            m |= 1 << (c7 >> 2)
                                        v = flush[m]
                                    else:
                                        v = nonflush7[
                                            low7[k & _LOW_MASK] + high[(k >> 17) & _HIGH_MASK]
                                        ]
                                    hist[chunk, v] += 1
    return hist.sum(axis=0)
