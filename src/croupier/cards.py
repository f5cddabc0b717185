"""Cards: ranks, suits, and the notation ``"As"``, ``"Td"`` (``"10d"`` is accepted too).

A card's integer id is ``4 * rank + suit`` with ranks 2..A as 0..12 and suits c, d, h, s as
0..3, so 2c = 0, 2d = 1, ... As = 51 -- the scheme most evaluators use.

>>> Card.parse("As")
Card.parse('As')
>>> Card.parse("As").id
51
>>> parse_cards("AsKd 10h")
(Card.parse('As'), Card.parse('Kd'), Card.parse('Th'))
>>> format_cards(parse_cards("2c 3d"))
'2c3d'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum

from croupier.errors import InvalidCardsError, NotationError

__all__ = [
    "DECK",
    "Card",
    "Rank",
    "Suit",
    "card_ids",
    "cards_from_ids",
    "check_distinct",
    "format_cards",
    "parse_cards",
]


class Rank(IntEnum):
    """Card ranks, deuce lowest; the value is the rank's index in ``card id // 4``."""

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def symbol(self) -> str:
        """The one-character notation: ``2``..``9``, ``T``, ``J``, ``Q``, ``K``, ``A``."""
        return _RANK_SYMBOLS[self]

    @property
    def noun(self) -> str:
        """The English name used in hand descriptions (``"King"``)."""
        return _RANK_NOUNS[self]

    @property
    def plural(self) -> str:
        """The plural used in hand descriptions (``"Sixes"``)."""
        return "Sixes" if self is Rank.SIX else self.noun + "s"

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Parse ``"A"``, ``"t"``, ``"10"``... into a rank."""
        key = text.upper()
        if key == "10":
            key = "T"
        try:
            return cls(_RANK_SYMBOLS.index(key))
        except ValueError:
            raise NotationError(f"unknown rank {text!r}") from None


class Suit(IntEnum):
    """Card suits in id order: clubs, diamonds, hearts, spades."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def symbol(self) -> str:
        """The one-letter notation: ``c``, ``d``, ``h``, ``s``."""
        return "cdhs"[self]

    @property
    def glyph(self) -> str:
        """The suit's printed symbol."""
        return "♣♦♥♠"[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse ``"c"``, ``"D"``, ``"♥"``... into a suit."""
        lowered = text.lower()
        for index, (letter, glyph) in enumerate(zip("cdhs", "♣♦♥♠", strict=True)):
            if lowered in (letter, glyph):
                return cls(index)
        raise NotationError(f"unknown suit {text!r}")


_RANK_SYMBOLS = "23456789TJQKA"
_RANK_NOUNS = (
    "Two",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Jack",
    "Queen",
    "King",
    "Ace",
)


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One playing card, identified by ``id = 4 * rank + suit``."""

    id: int

    def __post_init__(self) -> None:
        if not isinstance(self.id, int) or isinstance(self.id, bool) or not 0 <= self.id < 52:
            raise InvalidCardsError(f"card id {self.id!r} is outside 0..51")

    @classmethod
    def make(cls, rank: Rank, suit: Suit) -> Card:
        """The card of ``rank`` and ``suit``."""
        return _CARDS[4 * rank + suit]

    @classmethod
    def from_id(cls, card_id: int) -> Card:
        """The card with integer id ``card_id`` (0..51)."""
        if isinstance(card_id, bool) or not isinstance(card_id, int) or not 0 <= card_id < 52:
            raise InvalidCardsError(f"card id {card_id!r} is outside 0..51")
        return _CARDS[card_id]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one card: ``"As"``, ``"td"``, ``"10h"``."""
        stripped = text.strip()
        if len(stripped) not in (2, 3):
            raise NotationError(f"card {text!r} is not a rank and a suit, like 'As' or 'Td'")
        try:
            return cls.make(Rank.parse(stripped[:-1]), Suit.parse(stripped[-1]))
        except NotationError as exc:
            raise NotationError(f"{exc} in card {text!r}") from None

    @property
    def rank(self) -> Rank:
        """The card's rank."""
        return Rank(self.id >> 2)

    @property
    def suit(self) -> Suit:
        """The card's suit."""
        return Suit(self.id & 3)

    def __str__(self) -> str:
        return _RANK_SYMBOLS[self.id >> 2] + "cdhs"[self.id & 3]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


_CARDS = tuple(object.__new__(Card) for _ in range(52))
for _index, _card in enumerate(_CARDS):
    object.__setattr__(_card, "id", _index)

DECK: tuple[Card, ...] = _CARDS
"""The 52 cards in id order: 2c, 2d, 2h, 2s, 3c, ... As."""

_BY_NAME: dict[str, Card] = {}
for _card in _CARDS:
    for _rank in {_RANK_SYMBOLS[_card.id >> 2], _RANK_SYMBOLS[_card.id >> 2].lower()}:
        for _suit in {"cdhs"[_card.id & 3], "CDHS"[_card.id & 3]}:
            _BY_NAME[_rank + _suit] = _card

_TOKEN = re.compile(r"(10|[2-9TJQKAtjqka])([cdhsCDHS♣♦♥♠])")


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse cards written together or apart: ``"As Kd"``, ``"AsKd"``, ``"As,Kd"``.

    Duplicates are allowed here (use :func:`check_distinct`); an empty string gives ``()``.
    """
    compact = text.replace(" ", "").replace(",", "")
    if len(compact) % 2 == 0:  # fast path: two-character cards only
        fast = [_BY_NAME.get(compact[i : i + 2]) for i in range(0, len(compact), 2)]
        if None not in fast:
            return tuple(fast)  # type: ignore[arg-type]
    cards: list[Card] = []
    position = 0
    length = len(text)
    while position < length:
        char = text[position]
        if char.isspace() or char in ",;":
            position += 1
            continue
        match = _TOKEN.match(text, position)
        if match is None:
            bad = re.match(r"[^\s,;]+", text[position:])
            token = bad.group(0) if bad else text[position:]
            raise NotationError(f"cannot read a card at {token!r} in {text!r}")
        cards.append(Card.make(Rank.parse(match.group(1)), Suit.parse(match.group(2))))
        position = match.end()
    return tuple(cards)


def format_cards(cards: Iterable[Card], sep: str = "") -> str:
    """Write cards in notation, joined by ``sep``."""
    return sep.join(str(card) for card in cards)


def check_distinct(cards: Sequence[Card]) -> None:
    """Raise :class:`InvalidCardsError` naming the first card that appears twice."""
    if len({card.id for card in cards}) == len(cards):
        return
    seen: set[int] = set()
    for card in cards:
        if card.id in seen:
            raise InvalidCardsError(f"card {card} appears more than once")
        seen.add(card.id)


def card_ids(cards: Iterable[Card]) -> tuple[int, ...]:
    """The integer ids of ``cards``."""
    return tuple(card.id for card in cards)


def cards_from_ids(ids: Iterable[int]) -> tuple[Card, ...]:
    """The cards with the given integer ids."""
    return tuple(Card.from_id(int(i)) for i in ids)
