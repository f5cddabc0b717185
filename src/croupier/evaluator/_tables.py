"""Lookup tables of the evaluator, built once per process on first use.

Every card has one additive 64-bit key: base-5 digits counting each rank (ranks 2..8 in
bits 0..16, ranks 9..A in bits 17..30) and a 4-bit counter per suit (bits 32..47). A hand's
key is the sum of its cards' keys. The suit counters start at 3, so a counter's top bit is
set exactly when that suit holds five or more cards (a flush; at most one suit can with
seven cards or fewer).

Non-flush hands are ranked by their rank multiset. For a fixed number of cards ``n`` the
multisets are numbered by a minimal perfect hash that is the sum of two small tables, one
per digit group: ``low_hash[n][low] + high_hash[high]``. Flush hands are ranked by the
13-bit rank mask of the flush suit.

Values run from 1 (7-5-4-3-2 high) to 7,462 (royal flush); higher is better.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations
from pathlib import Path

import numpy as np
import numpy.typing as npt

from croupier.evaluator.categories import HandCategory

__all__: list[str] = []

LOW_RANKS = 7  # ranks 2..8 in the low digit group
HIGH_RANKS = 6  # ranks 9..A in the high digit group
LOW_BITS = 17
LOW_MASK = (1 << LOW_BITS) - 1
HIGH_MASK = (1 << 14) - 1
SUIT_SHIFT = 32
FLUSH_INIT = 0x3333 << SUIT_SHIFT
FLUSH_TEST = 0x8888

_STRAIGHT_TOPS = tuple(range(12, 2, -1))  # top rank of each straight, A-high down to 5-high


def _straight_ranks(top: int) -> tuple[int, ...]:
    if top == 3:
        return (3, 2, 1, 0, 12)
    return tuple(range(top, top - 5, -1))


_STRAIGHT_MASKS = tuple((top, sum(1 << r for r in _straight_ranks(top))) for top in _STRAIGHT_TOPS)


def _straight_top(rank_set: set[int]) -> int:
    """The top rank of the best straight in ``rank_set``, or -1."""
    mask = sum(1 << r for r in rank_set)
    for top, straight in _STRAIGHT_MASKS:
        if mask & straight == straight:
            return top
    return -1


@dataclass(frozen=True, slots=True)
class Classes:
    """The 7,462 five-card hand classes, lowest first (index 0 is value 1)."""

    category: tuple[HandCategory, ...]
    ranks: tuple[tuple[int, ...], ...]
    """The ranks that define each class, in description order (e.g. trips rank, kickers)."""
    value_of: dict[tuple[HandCategory, tuple[int, ...]], int]


@cache
def classes() -> Classes:
    """Enumerate every five-card class in increasing strength."""
    entries: list[tuple[HandCategory, tuple[int, ...]]] = []
    distinct5 = [
        tuple(sorted(c, reverse=True))
        for c in combinations(range(13), 5)
        if _straight_top(set(c)) < 0
    ]
    distinct5.sort()
    entries += [(HandCategory.HIGH_CARD, r) for r in distinct5]
    pairs: list[tuple[int, ...]] = []
    for p in range(13):
        for kick in combinations([r for r in range(13) if r != p], 3):
            pairs.append((p, *sorted(kick, reverse=True)))
    entries += [(HandCategory.PAIR, r) for r in sorted(pairs)]
    two: list[tuple[int, ...]] = []
    for hi in range(13):
        for lo in range(hi):
            for k in range(13):
                if k not in (hi, lo):
                    two.append((hi, lo, k))
    entries += [(HandCategory.TWO_PAIR, r) for r in sorted(two)]
    trips: list[tuple[int, ...]] = []
    for t in range(13):
        for pair_kick in combinations([r for r in range(13) if r != t], 2):
            trips.append((t, *sorted(pair_kick, reverse=True)))
    entries += [(HandCategory.THREE_OF_A_KIND, r) for r in sorted(trips)]
    entries += [(HandCategory.STRAIGHT, (top,)) for top in range(3, 13)]
    entries += [(HandCategory.FLUSH, r) for r in distinct5]
    full = sorted((t, p) for t in range(13) for p in range(13) if p != t)
    entries += [(HandCategory.FULL_HOUSE, r) for r in full]
    quads = sorted((q, k) for q in range(13) for k in range(13) if k != q)
    entries += [(HandCategory.FOUR_OF_A_KIND, r) for r in quads]
    entries += [(HandCategory.STRAIGHT_FLUSH, (top,)) for top in range(3, 12)]
    entries.append((HandCategory.ROYAL_FLUSH, (12,)))
    value_of = {entry: index + 1 for index, entry in enumerate(entries)}
    return Classes(
        category=tuple(e[0] for e in entries),
        ranks=tuple(e[1] for e in entries),
        value_of=value_of,
    )


def best_nonflush(counts: list[int]) -> tuple[HandCategory, tuple[int, ...]]:
    """The best five-card class made from a rank multiset, ignoring suits."""
    present = [r for r in range(12, -1, -1) if counts[r]]
    quads = [r for r in present if counts[r] >= 4]
    if quads:
        q = quads[0]
        return HandCategory.FOUR_OF_A_KIND, (q, next(r for r in present if r != q))
    trips = [r for r in present if counts[r] >= 3]
    if trips:
        t = trips[0]
        pair = [r for r in present if r != t and counts[r] >= 2]
        if pair:
            return HandCategory.FULL_HOUSE, (t, pair[0])
    top = _straight_top(set(present))
    if top >= 0:
        return HandCategory.STRAIGHT, (top,)
    if trips:
        t = trips[0]
        kickers = [r for r in present if r != t][:2]
        return HandCategory.THREE_OF_A_KIND, (t, *kickers)
    pairs = [r for r in present if counts[r] >= 2]
    if len(pairs) >= 2:
        hi, lo = pairs[0], pairs[1]
        fifth = next(r for r in present if r not in (hi, lo))
        return HandCategory.TWO_PAIR, (hi, lo, fifth)
    if pairs:
        p = pairs[0]
        return HandCategory.PAIR, (p, *[r for r in present if r != p][:3])
    return HandCategory.HIGH_CARD, tuple(present[:5])


def best_flush(mask: int) -> tuple[HandCategory, tuple[int, ...]]:
    """The best five-card class from the rank mask of five or more suited cards."""
    ranks = [r for r in range(12, -1, -1) if mask >> r & 1]
    top = _straight_top(set(ranks))
    if top == 12:
        return HandCategory.ROYAL_FLUSH, (12,)
    if top >= 0:
        return HandCategory.STRAIGHT_FLUSH, (top,)
    return HandCategory.FLUSH, tuple(ranks[:5])


@dataclass(frozen=True, slots=True)
class Tables:
    """The arrays the kernels read (int64 throughout, so numba never mixes signedness)."""

    card_keys: npt.NDArray[np.int64]
    """Shape (52,): the additive key of each card id."""
    low_hash: npt.NDArray[np.int64]
    """Shape (3, 5**7): for n = 5, 6, 7 cards, the low digit group's part of the hash."""
    high_hash: npt.NDArray[np.int64]
    """Shape (5**6,): the high digit group's part of the hash."""
    nonflush: npt.NDArray[np.int64]
    """Shape (3, 49205): for n = 5, 6, 7 cards, the value of each hashed rank multiset."""
    flush: npt.NDArray[np.int64]
    """Shape (8192,): the value of the best flush in a rank mask (0 below five cards)."""


def _digit_groups(ranks: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """For every base-5 number of ``ranks`` digits: its digits and its digit sum."""
    numbers = np.arange(5**ranks, dtype=np.int64)
    digits = np.stack([(numbers // 5**r) % 5 for r in range(ranks)], axis=1)
    return digits, digits.sum(axis=1)


_SHIPPED = Path(__file__).with_name("tables.npz")


@cache
def tables() -> Tables:
    """The tables: loaded from the copy shipped in the package, or built if it is missing.

    ``tests/evaluator`` checks that the shipped copy equals a fresh :func:`build_tables`;
    ``python -m croupier.evaluator._tables`` rewrites it.
    """
    try:
        with np.load(_SHIPPED) as data:
            return Tables(**{name: data[name] for name in Tables.__dataclass_fields__})
    except (OSError, KeyError, ValueError):
        return build_tables()


def save_tables(path: Path = _SHIPPED) -> None:
    """Write freshly built tables to ``path`` (compressed)."""
    built = build_tables()
    np.savez_compressed(
        path, **{name: getattr(built, name) for name in Tables.__dataclass_fields__}
    )


def build_tables() -> Tables:
    """Build every table from the hand classes (about 0.5 MB in use; under a second)."""
    value_of = classes().value_of
    keys = np.zeros(52, dtype=np.int64)
    for card in range(52):
        rank, suit = divmod(card, 4)
        digit = 5**rank if rank < LOW_RANKS else 5 ** (rank - LOW_RANKS) << LOW_BITS
        keys[card] = digit + (1 << (SUIT_SHIFT + 4 * suit))

    low_digits, low_sum = _digit_groups(LOW_RANKS)
    high_digits, high_sum = _digit_groups(HIGH_RANKS)
    # index of each part among the parts with the same digit sum (in numeric order)
    low_index = np.zeros_like(low_sum)
    high_index = np.zeros_like(high_sum)
    low_count = np.zeros(8, dtype=np.int64)
    high_count = np.zeros(8, dtype=np.int64)
    for s in range(8):
        sel = np.flatnonzero(low_sum == s)
        low_index[sel] = np.arange(len(sel))
        low_count[s] = len(sel)
        sel = np.flatnonzero(high_sum == s)
        high_index[sel] = np.arange(len(sel))
        high_count[s] = len(sel)
    high_hash = high_index

    low_hash = np.zeros((3, 5**LOW_RANKS), dtype=np.int64)
    nonflush = np.zeros((3, 49205), dtype=np.int64)
    for n in (5, 6, 7):
        base = np.zeros(n + 1, dtype=np.int64)
        for a in range(1, n + 1):
            base[a] = base[a - 1] + low_count[a - 1] * high_count[n - a + 1]
        valid = low_sum <= n
        low_hash[n - 5, valid] = (
            base[low_sum[valid]] + low_index[valid] * high_count[n - low_sum[valid]]
        )
        for low in np.flatnonzero(valid):
            a = int(low_sum[low])
            low_part = [int(d) for d in low_digits[low]]
            for high in np.flatnonzero(high_sum == n - a):
                counts = low_part + [int(d) for d in high_digits[high]]
                slot = low_hash[n - 5, low] + high_hash[high]
                nonflush[n - 5, slot] = value_of[best_nonflush(counts)]

    flush = np.zeros(8192, dtype=np.int64)
    for mask in range(8192):
        if mask.bit_count() >= 5:
            flush[mask] = value_of[best_flush(mask)]
    return Tables(keys, low_hash, high_hash, nonflush, flush)


if __name__ == "__main__":  # pragma: no cover - maintenance entry point
    save_tables()
