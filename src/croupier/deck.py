"""Decks, shoes and a fair shuffle.

A :class:`Shoe` is an already ordered sequence of cards dealt from the top, with burns; the
engines deal only from a shoe handed to them. :func:`shuffled` orders a deck by Fisher--Yates
from a supplied :class:`RandomSource`: the server passes the OS CSPRNG
(``secrets.SystemRandom``), simulations a seeded NumPy generator (:func:`seeded_source`).

>>> shoe = Shoe(shuffled(seeded_source(7)))
>>> len(shoe.draw(2)), shoe.remaining
(2, 50)
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

import numpy as np

from croupier.cards import DECK, Card, check_distinct, format_cards, parse_cards
from croupier.errors import InvalidCardsError

__all__ = [
    "KeyedSource",
    "NumpySource",
    "PyRandomSource",
    "RandomSource",
    "Reshuffler",
    "Shoe",
    "keyed_reshuffler",
    "seeded_source",
    "shuffled",
]


class RandomSource(Protocol):
    """A source of uniform integers: ``randbelow(n)`` returns 0 <= k < n, each equally likely."""

    def randbelow(self, n: int) -> int: ...


class _Randrange(Protocol):
    def randrange(self, stop: int, /) -> int: ...


class PyRandomSource:
    """Adapt a :class:`random.Random` (for live play, ``secrets.SystemRandom()``)."""

    __slots__ = ("_rng",)

    def __init__(self, rng: _Randrange) -> None:
        self._rng = rng

    def randbelow(self, n: int) -> int:
        return self._rng.randrange(n)


class NumpySource:
    """Adapt a NumPy :class:`numpy.random.Generator` (for simulation; reproducible)."""

    __slots__ = ("_gen",)

    def __init__(self, generator: np.random.Generator) -> None:
        self._gen = generator

    def randbelow(self, n: int) -> int:
        return int(self._gen.integers(n))


class KeyedSource:
    """A deterministic, unbiased source derived from a secret ``key`` (HMAC-SHA256).

    The stream is the blocks ``HMAC-SHA256(key, counter)`` for ``counter`` = 0, 1, 2...
    (8-byte big-endian), read 8 bytes at a time as big-endian integers ``x``;
    ``randbelow(n)`` returns ``x % n`` for the first ``x`` below ``2**64 - 2**64 % n``
    (rejection, so every value is equally likely). Anyone who learns the key afterwards can
    recompute every draw: a server keys it with a round's committed salt (docs/protocol.md
    "Fairness").

    >>> a, b = KeyedSource(b"key"), KeyedSource(b"key")
    >>> [a.randbelow(52) for _ in range(8)] == [b.randbelow(52) for _ in range(8)]
    True
    """

    __slots__ = ("_buffer", "_counter", "_key")

    def __init__(self, key: bytes) -> None:
        self._key = key
        self._counter = 0
        self._buffer = b""

    def _next64(self) -> int:
        if not self._buffer:
            block = self._counter.to_bytes(8, "big")
            self._buffer = hmac.new(self._key, block, hashlib.sha256).digest()
            self._counter += 1
        word, self._buffer = self._buffer[:8], self._buffer[8:]
        return int.from_bytes(word, "big")

    def randbelow(self, n: int) -> int:
        if n <= 0:
            raise ValueError(f"randbelow needs n >= 1, not {n}")
        limit = 2**64 - 2**64 % n
        while True:
            x = self._next64()
            if x < limit:
                return x % n


Reshuffler = Callable[[int, tuple[Card, ...]], Sequence[Card]]
"""``reshuffle(index, discards)``: the discards of a round, in the order they were discarded,
put in a new order for the ``index``-th reshuffle of the round (0, 1, ...)."""


def keyed_reshuffler(key: str) -> Reshuffler:
    """Reshuffles derived from ``key``: reshuffle ``k`` is :func:`shuffled` of the discards
    with ``KeyedSource(f"{key}:reshuffle:{k}")``.

    >>> again = keyed_reshuffler("salt")
    >>> cards = parse_cards("2c 3d 4h 5s")
    >>> again(0, cards) == keyed_reshuffler("salt")(0, cards), sorted(again(1, cards)) == sorted(cards)
    (True, True)
    """

    def reshuffle(index: int, cards: tuple[Card, ...]) -> tuple[Card, ...]:
        return shuffled(KeyedSource(f"{key}:reshuffle:{index}".encode()), cards)

    return reshuffle


def seeded_source(seed: int | np.random.SeedSequence) -> NumpySource:
    """A reproducible source for tests and simulation."""
    return NumpySource(np.random.default_rng(seed))


def shuffled(source: RandomSource, cards: Sequence[Card] = DECK) -> tuple[Card, ...]:
    """Return ``cards`` in a uniformly random order (Fisher--Yates, Durstenfeld's form).

    Each position from the last down swaps with a position drawn uniformly among those not
    yet fixed, so each of the n! orders has probability exactly 1/n! given a fair source.
    """
    order = list(cards)
    for last in range(len(order) - 1, 0, -1):
        pick = source.randbelow(last + 1)
        order[last], order[pick] = order[pick], order[last]
    return tuple(order)


class Shoe:
    """Cards in a fixed order, dealt from the top; burns are recorded like deals.

    Raises:
        InvalidCardsError: the order repeats a card, or more cards are asked than remain.
    """

    __slots__ = ("_next", "_order")

    def __init__(self, order: Iterable[Card]) -> None:
        cards = tuple(order)
        check_distinct(cards)
        self._order = cards
        self._next = 0

    @classmethod
    def parse(cls, text: str) -> Shoe:
        """A shoe from card notation, top card first."""
        return cls(parse_cards(text))

    @property
    def order(self) -> tuple[Card, ...]:
        """The whole order, top card first (for records and commitments)."""
        return self._order

    @property
    def position(self) -> int:
        """How many cards have been dealt or burnt."""
        return self._next

    @property
    def remaining(self) -> int:
        """How many cards are left."""
        return len(self._order) - self._next

    def draw(self, count: int = 1) -> tuple[Card, ...]:
        """Deal ``count`` cards from the top."""
        if count < 0 or count > self.remaining:
            raise InvalidCardsError(
                f"cannot deal {count} cards from a shoe with {self.remaining} left"
            )
        start = self._next
        self._next += count
        return self._order[start : self._next]

    def draw_one(self) -> Card:
        """Deal one card."""
        return self.draw(1)[0]

    def burn(self) -> Card:
        """Discard the top card face down."""
        return self.draw(1)[0]

    def __repr__(self) -> str:
        return f"Shoe.parse({format_cards(self._order, ' ')!r})"
