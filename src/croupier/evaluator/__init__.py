"""Hand evaluation: any 5, 6 or 7 cards to a totally ordered :class:`HandValue`.

Values are integers from 1 (7-5-4-3-2) to 7,462 (royal flush), one per five-card hand class:
higher is better, equal hands are equal, suits never break ties. The scalar API is for play;
:func:`evaluate_batch` is the numba path for mathematics and simulation and returns the same
integers.

>>> hand = evaluate("Ks Kd 6h 6c Kh 2d 3s")
>>> hand.category, hand.description
(<HandCategory.FULL_HOUSE: 6>, 'Full house, Kings full of Sixes')
>>> evaluate("AsKsQsJsTs") > evaluate("9h9d9c9s2c")
True
>>> int(evaluate_batch(np.array([[51, 47, 43, 39, 35]]))[0])
7462
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from croupier.cards import Card, Rank, check_distinct, parse_cards
from croupier.errors import InvalidCardsError
from croupier.evaluator import _batch, _kernels
from croupier.evaluator._batch import batch_tables
from croupier.evaluator._kernels import eval_row
from croupier.evaluator._tables import (
    FLUSH_INIT,
    FLUSH_TEST,
    HIGH_MASK,
    LOW_BITS,
    LOW_MASK,
    SUIT_SHIFT,
    Tables,
    classes,
    tables,
)
from croupier.evaluator.categories import CATEGORY_COUNTS_5, HandCategory
from croupier.evaluator.naming import describe, versus

__all__ = [
    "CATEGORY_COUNTS_5",
    "MAX_VALUE",
    "HandCategory",
    "HandValue",
    "Tables",
    "best_five",
    "categories",
    "category_of",
    "describe",
    "enumerate7_histogram",
    "eval_row",
    "evaluate",
    "evaluate_batch",
    "evaluate_ids",
    "evaluate_on_board",
    "lookup_tables",
    "versus",
]

MAX_VALUE = 7462
"""The value of a royal flush; there are exactly this many five-card hand classes."""


def lookup_tables() -> Tables:
    """The evaluator's arrays, for numba kernels elsewhere (analysis) that inline the lookup."""
    return tables()


def _category_bounds() -> npt.NDArray[np.int64]:
    bounds = np.cumsum([CATEGORY_COUNTS_5[c] for c in HandCategory])
    return np.asarray(bounds, dtype=np.int64)


_BOUNDS = _category_bounds()


_CATEGORY_OF: tuple[HandCategory, ...] = tuple(
    HandCategory(int(c)) for c in np.searchsorted(_BOUNDS, np.arange(MAX_VALUE + 1), side="left")
)


def category_of(value: int) -> HandCategory:
    """The category of a hand value."""
    if not 1 <= value <= MAX_VALUE:
        raise InvalidCardsError(f"hand value {value} is outside 1..{MAX_VALUE}")
    return _CATEGORY_OF[value]


def categories(values: npt.ArrayLike) -> npt.NDArray[np.int8]:
    """Map an array of hand values to category codes (:class:`HandCategory` values)."""
    array = np.asarray(values)
    if array.size and (array.min() < 1 or array.max() > MAX_VALUE):
        raise InvalidCardsError(f"hand values must be within 1..{MAX_VALUE}")
    return np.searchsorted(_BOUNDS, array, side="left").astype(np.int8)


class _Scalar:
    """Python-list copies of the tables: list indexing beats NumPy scalar indexing."""

    def __init__(self, t: Tables) -> None:
        self.keys: list[int] = t.card_keys.tolist()
        self.low: list[list[int]] = t.low_hash.tolist()
        self.high: list[int] = t.high_hash.tolist()
        self.nonflush: list[list[int]] = t.nonflush.tolist()
        self.flush: list[int] = t.flush.tolist()


_scalar: _Scalar | None = None


def evaluate_ids(ids: tuple[int, ...] | list[int]) -> int:
    """The value of 5, 6 or 7 distinct card ids (checked), as a plain int."""
    global _scalar
    n = len(ids)
    if not 5 <= n <= 7:
        raise InvalidCardsError(f"a hand has 5, 6 or 7 cards, not {n}")
    if _scalar is None:
        _scalar = _Scalar(tables())
    s = _scalar
    key = FLUSH_INIT
    seen = 0
    for c in ids:
        if not 0 <= c < 52:
            raise InvalidCardsError(f"card id {c!r} is outside 0..51")
        if seen >> c & 1:
            raise InvalidCardsError(f"card {Card.from_id(c)} appears more than once")
        seen |= 1 << c
        key += s.keys[c]
    suits = key >> SUIT_SHIFT & FLUSH_TEST
    if suits:
        suit = (suits.bit_length() - 4) // 4
        mask = 0
        for c in ids:
            if c & 3 == suit:
                mask |= 1 << (c >> 2)
        return s.flush[mask]
    return s.nonflush[n - 5][s.low[n - 5][key & LOW_MASK] + s.high[key >> LOW_BITS & HIGH_MASK]]


def evaluate_on_board(board: Sequence[int], holes: Sequence[tuple[int, int] | None]) -> list[int]:
    """The values of two-card hands on one five-card board (card ids), as :func:`evaluate_ids`
    gives them for the seven cards; 0 for a ``None`` hand. The board's part of the lookup is
    summed once (a showdown evaluates every hand on the same board).

    >>> from croupier.cards import parse_cards
    >>> board = [c.id for c in parse_cards("Ah Kd 7c 7s 2h")]
    >>> holes = [tuple(c.id for c in parse_cards(h)) for h in ("As Ks", "Qd Jd", "7h 2c")]
    >>> evaluate_on_board(board, [*holes, None])  # two pair, a pair of Sevens, a full house
    [4990, 2597, 7201, 0]
    >>> evaluate_on_board(board, holes) == [evaluate_ids([*board, *h]) for h in holes]
    True

    Raises:
        InvalidCardsError: a card id outside 0..51, a board not of five cards, or a card
            twice among the board and the hands.
    """
    global _scalar
    if len(board) != 5:
        raise InvalidCardsError(f"a board has 5 cards, not {len(board)}")
    if _scalar is None:
        _scalar = _Scalar(tables())
    s = _scalar
    keys = s.keys
    seen = 0
    base = FLUSH_INIT
    ids = list(board)
    for hole in holes:
        if hole is not None:
            ids.extend(hole)
    for c in ids:
        if not 0 <= c < 52:
            raise InvalidCardsError(f"card id {c!r} is outside 0..51")
        if seen >> c & 1:
            raise InvalidCardsError(f"card {Card.from_id(c)} appears more than once")
        seen |= 1 << c
    for c in board:
        base += keys[c]
    low, high, nonflush, flush = s.low[2], s.high, s.nonflush[2], s.flush
    values = []
    for hole in holes:
        if hole is None:
            values.append(0)
            continue
        a, b = hole
        key = base + keys[a] + keys[b]
        suits = key >> SUIT_SHIFT & FLUSH_TEST
        if suits:
            suit = (suits.bit_length() - 4) // 4
            mask = 0
            for c in (*board, a, b):
                if c & 3 == suit:
                    mask |= 1 << (c >> 2)
            values.append(flush[mask])
        else:
            values.append(nonflush[low[key & LOW_MASK] + high[key >> LOW_BITS & HIGH_MASK]])
    return values


@dataclass(frozen=True, slots=True, order=True)
class HandValue:
    """The strength of a hand; compares by ``value`` only (suits never break ties)."""

    value: int
    cards: tuple[Card, ...] = field(compare=False, default=())
    """The cards evaluated (5 to 7)."""

    @property
    def category(self) -> HandCategory:
        """The hand's category (royal flush distinct from straight flush)."""
        return category_of(self.value)

    @property
    def description(self) -> str:
        """The hand in English, e.g. ``"Full house, Kings full of Sixes"``."""
        return describe(self.value)

    @property
    def full_description(self) -> str:
        """The hand with every rank that counts: ``"Pair of Queens, Ace-King-Nine kicker"``.

        Two hands read the same only when they tie.
        """
        return describe(self.value, kickers=True)

    @property
    def best_five(self) -> tuple[Card, ...]:
        """Five of ``cards`` that make the hand, strongest ranks first."""
        return best_five(self.cards)

    def __str__(self) -> str:
        return self.description


def _as_cards(cards: Iterable[Card] | str) -> tuple[Card, ...]:
    hand = parse_cards(cards) if isinstance(cards, str) else tuple(cards)
    for card in hand:
        if not isinstance(card, Card):
            raise InvalidCardsError(f"{card!r} is not a Card")
    if not 5 <= len(hand) <= 7:
        raise InvalidCardsError(f"a hand has 5, 6 or 7 cards, not {len(hand)}")
    check_distinct(hand)
    return hand


def evaluate(cards: Iterable[Card] | str) -> HandValue:
    """Evaluate 5, 6 or 7 distinct cards (``Card`` objects or notation).

    Raises:
        InvalidCardsError: wrong count or a repeated card.
        NotationError: text that is not cards.
    """
    hand = _as_cards(cards)
    return HandValue(evaluate_ids([c.id for c in hand]), hand)


def best_five(cards: Iterable[Card] | str) -> tuple[Card, ...]:
    """The five cards that make the best hand, ordered by the ranks that define it."""
    hand = _as_cards(cards)
    best = max(combinations(hand, 5), key=lambda five: evaluate_ids([c.id for c in five]))
    counts = {r: sum(1 for c in best if c.rank == r) for r in {c.rank for c in best}}
    ordered = sorted(best, key=lambda c: (counts[c.rank], c.rank, c.suit), reverse=True)
    value = evaluate_ids([c.id for c in best])
    if category_of(value) in (HandCategory.STRAIGHT, HandCategory.STRAIGHT_FLUSH) and (
        classes().ranks[value - 1][0] == Rank.FIVE
    ):  # the wheel: the Ace plays low
        ordered = ordered[1:] + ordered[:1]
    return tuple(ordered)


_BLOCK = 1 << 16
"""Rows converted at a time when ids are not in native byte order."""


def evaluate_batch(cards: npt.ArrayLike, *, parallel: bool = False) -> npt.NDArray[np.int64]:
    """Evaluate every row of an (N, 5), (N, 6) or (N, 7) array of card ids.

    Any integer dtype and any layout (a column slice, a transposed array) is read where it
    lies, without a copy. Returns an int64 array of values comparable with
    :attr:`HandValue.value`. ``parallel`` spreads rows over numba's threads.

    Raises:
        InvalidCardsError: a wrong shape, ids that are not integers, an id outside 0..51 or a
            repeated card (the first bad row is named).
    """
    array = np.asarray(cards)
    if array.ndim != 2 or array.shape[1] not in (5, 6, 7):
        raise InvalidCardsError(
            f"cards must have shape (N, 5), (N, 6) or (N, 7), not {array.shape}"
        )
    if not np.issubdtype(array.dtype, np.integer):
        raise InvalidCardsError(f"card ids must be integers, not {array.dtype}")
    out = np.empty(array.shape[0], dtype=np.int64)
    if array.dtype.isnative:
        bad = _evaluate_into(array, out, parallel=parallel)
    else:  # numba reads native byte order only: convert a block at a time
        bad = -1
        for start in range(0, len(array), _BLOCK):
            block = array[start : start + _BLOCK]
            bad = _evaluate_into(
                block.astype(block.dtype.newbyteorder("=")),
                out[start : start + _BLOCK],
                parallel=parallel,
            )
            if bad >= 0:
                bad += start
                break
    if bad >= 0:
        raise InvalidCardsError(f"row {bad} ({array[bad].tolist()}) {_what_is_wrong(array[bad])}")
    return out


def _evaluate_into(array: npt.NDArray[Any], out: npt.NDArray[np.int64], *, parallel: bool) -> int:
    """Run the kernel on a native-order integer array; the first invalid row, or -1."""
    if array.dtype == np.int8:
        array = array.view(np.uint8)  # -128..-1 read as 128..255: ids the tables refuse
    pairs, flat = batch_tables()
    if not parallel:
        return int(_batch.batch_serial(array, out, pairs, flat))
    firsts = np.empty(4 * numba.get_num_threads(), dtype=np.int64)
    _batch.batch_parallel(array, out, pairs, flat, firsts)
    bad = firsts[firsts >= 0]
    return int(bad.min()) if len(bad) else -1


def _what_is_wrong(row: npt.NDArray[Any]) -> str:
    ids = row.tolist()
    for card in ids:
        if not 0 <= card < 52:
            return f"has card id {card}, outside 0..51"
    repeated = [c for c in ids if ids.count(c) > 1]
    return f"has {Card.from_id(repeated[0])} more than once" if repeated else "is invalid"


def enumerate7_histogram(*, threads: int | None = None) -> npt.NDArray[np.int64]:
    """How many of the 133,784,560 seven-card hands have each value (index = value)."""
    t = tables()
    chunks = threads or numba.get_num_threads()
    result: Any = _kernels.enumerate7(
        t.card_keys, t.low_hash[2], t.high_hash, t.nonflush[2], t.flush, chunks
    )
    return np.asarray(result, dtype=np.int64)
