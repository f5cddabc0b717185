"""evaluate_batch on every integer dtype and layout: same values, same refusals, no copy."""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable

import numpy as np
import pytest
from phevaluator import evaluate_cards

from croupier.errors import InvalidCardsError
from croupier.evaluator import evaluate_batch

DTYPES = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]
HANDS = 20_000


def random_hands(count: int, size: int, seed: int) -> np.ndarray:
    """``count`` rows of ``size`` distinct ids, every card equally likely in every column."""
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((count, 52)), axis=1)[:, :size].astype(np.int64)


def phevaluator_values(hands: np.ndarray) -> np.ndarray:
    """The oracle: phevaluator ranks 1 (royal flush) .. 7462; ours are the mirror image."""
    theirs = np.fromiter((evaluate_cards(*h) for h in hands.tolist()), dtype=np.int64)
    return 7463 - theirs


@pytest.fixture(scope="module", params=[5, 6, 7])
def hands(request: pytest.FixtureRequest) -> tuple[np.ndarray, np.ndarray]:
    """Random hands of 5, 6 and 7 cards (int64) with phevaluator's values for them."""
    size = int(request.param)
    cards = random_hands(HANDS, size, seed=size)
    return cards, phevaluator_values(cards)


@pytest.mark.parametrize("dtype", DTYPES)
def test_every_dtype_agrees_with_phevaluator(
    dtype: str, hands: tuple[np.ndarray, np.ndarray]
) -> None:
    cards, expected = hands
    values = evaluate_batch(cards.astype(dtype))
    assert values.dtype == np.int64
    assert np.array_equal(values, expected)


def _column_slice(a: np.ndarray) -> np.ndarray:
    table = np.full((len(a), a.shape[1] + 3), 99, dtype=a.dtype)
    table[:, 2 : 2 + a.shape[1]] = a
    return table[:, 2 : 2 + a.shape[1]]


def _every_other_row(a: np.ndarray) -> np.ndarray:
    doubled = np.repeat(a, 2, axis=0)
    doubled[1::2] = 99  # rows that are skipped, and would be refused if read
    return doubled[::2]


def _reversed_rows(a: np.ndarray) -> np.ndarray:
    return a[::-1].copy()[::-1]


def _read_only(a: np.ndarray) -> np.ndarray:
    b = a.copy()
    b.setflags(write=False)
    return b


def _misaligned(a: np.ndarray) -> np.ndarray:
    raw = np.zeros(a.nbytes + 1, dtype=np.uint8)
    view = raw[1:].view(a.dtype).reshape(a.shape)
    view[...] = a
    return view


LAYOUTS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "column slice": _column_slice,
    "transposed": lambda a: np.ascontiguousarray(a.T).T,
    "every other row": _every_other_row,
    "negative strides": _reversed_rows,
    "columns reversed": lambda a: np.ascontiguousarray(a[:, ::-1])[:, ::-1],
    "read-only": _read_only,
    "misaligned": _misaligned,
    "big-endian": lambda a: a.astype(a.dtype.newbyteorder(">")),
}


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "int64"])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_layouts_give_the_contiguous_int64_values(
    layout: str, dtype: str, hands: tuple[np.ndarray, np.ndarray]
) -> None:
    cards, expected = hands
    array = LAYOUTS[layout](cards.astype(dtype))
    assert np.array_equal(array, cards)  # the same ids, held differently
    assert np.array_equal(evaluate_batch(array), expected)


@pytest.mark.parametrize("dtype", ["uint8", "int64"])
def test_parallel_gives_the_serial_values(dtype: str, hands: tuple[np.ndarray, np.ndarray]) -> None:
    cards, expected = hands
    assert np.array_equal(evaluate_batch(cards.astype(dtype), parallel=True), expected)
    transposed = np.ascontiguousarray(cards.T).T.astype(dtype, order="F")
    assert np.array_equal(evaluate_batch(transposed, parallel=True), expected)


def test_python_lists_and_empty_batches() -> None:
    rows = random_hands(50, 7, seed=1)
    assert np.array_equal(evaluate_batch(rows.tolist()), phevaluator_values(rows))
    assert evaluate_batch(np.zeros((0, 7), dtype=np.uint16)).shape == (0,)


# Ids that are not cards, per dtype: each must be refused, including those whose low byte
# is a valid id (a kernel that read one byte of a wide id would accept them).
BAD_IDS = {
    "int8": [52, 127, -1, -128],
    "uint8": [52, 255],
    "int16": [52, 256, 256 + 7, -1, -256 + 7, 2**15 - 1],
    "uint16": [52, 256 + 7, 2**16 - 1],
    "int32": [256 + 7, 2**16 + 7, -(2**31) + 7],
    "uint32": [256 + 7, 2**24 + 7, 2**32 - 1],
    "int64": [52, 256 + 7, 2**32 + 7, 2**56 + 7, -1, -(2**63) + 7],
    "uint64": [256 + 7, 2**40 + 7, 2**63 + 7, 2**64 - 1],
}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("size", [5, 7])
def test_ids_that_are_not_cards_are_refused_in_every_dtype(dtype: str, size: int) -> None:
    rows = random_hands(40, size, seed=3)
    for bad in BAD_IDS[dtype]:
        array = rows.astype(dtype)
        array[17, 2] = np.array(bad).astype(dtype)
        array[30, 0] = np.array(bad).astype(dtype)
        with pytest.raises(InvalidCardsError, match=rf"^row 17 \(.*\) has card id {bad}, outside"):
            evaluate_batch(array)
        with pytest.raises(InvalidCardsError, match=r"^row 17 "):
            evaluate_batch(array, parallel=True)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("size", [5, 6, 7])
def test_repeated_cards_are_refused_in_every_dtype(dtype: str, size: int) -> None:
    array = random_hands(40, size, seed=4).astype(dtype)
    array[25, size - 1] = array[25, 0]
    with pytest.raises(InvalidCardsError, match=r"^row 25 \(.*\) has \w\w more than once"):
        evaluate_batch(array)


def test_the_first_bad_row_is_named_across_parallel_chunks_and_blocks() -> None:
    rows = random_hands(300_000, 7, seed=5)
    for where in (299_999, 140_001, 70_000):
        rows[where, 3] = rows[where, 4]
        for array in (rows, rows.astype(">i8"), np.asfortranarray(rows.astype(np.uint8))):
            for parallel in (False, True):
                with pytest.raises(InvalidCardsError, match=rf"^row {where} "):
                    evaluate_batch(array, parallel=parallel)


@pytest.mark.parametrize(
    "array",
    [np.zeros((3, 7), dtype=np.float64), np.zeros((3, 7), dtype=bool), np.array([["As"] * 7])],
)
def test_ids_that_are_not_integers_are_refused(array: np.ndarray) -> None:
    with pytest.raises(InvalidCardsError, match="card ids must be integers"):
        evaluate_batch(array)


def _peak_bytes(run: Callable[[], object]) -> int:
    run()  # compile (or load) the kernel first
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize(
    ("make", "block_bytes"),
    [
        (lambda a: a.astype(np.int32), 0),
        (lambda a: a.astype(np.uint8), 0),
        (_column_slice, 0),
        (lambda a: np.asfortranarray(a.astype(np.int16)), 0),
        (lambda a: a.astype(">i4"), 65_536 * 7 * 4),  # converted one block at a time
    ],
    ids=["int32", "uint8", "int64 column slice", "int16 transposed", "big-endian int32"],
)
def test_no_copy_of_the_whole_array(
    make: Callable[[np.ndarray], np.ndarray], block_bytes: int
) -> None:
    array = make(random_hands(400_000, 7, seed=6))
    allowed = 8 * len(array) + block_bytes + 100_000  # the output, a block, small change
    assert array.nbytes > allowed - 8 * len(array)  # a copy of the input would show
    assert _peak_bytes(lambda: evaluate_batch(array)) < allowed
