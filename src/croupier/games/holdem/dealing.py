"""Dealing: hole cards and board streets from a shoe, and the checks on cards named by a
replayed record (spec/holdem.md "A hand").

>>> from croupier.deck import Shoe, seeded_source, shuffled
>>> shoe = Shoe(shuffled(seeded_source(1)))
>>> holes = deal_hole_cards(shoe, 3)
>>> burned, flop = next_street(shoe, board_size=0)
>>> len(holes), len(flop), shoe.position
(3, 3, 10)
>>> street_of(len(flop))
1
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from croupier.cards import Card, check_distinct
from croupier.errors import IllegalActionError, InvalidCardsError

if TYPE_CHECKING:
    from croupier.deck import Shoe

__all__ = [
    "BOARD_SIZES",
    "deal_hole_cards",
    "next_street",
    "street_of",
    "verify_board_cards",
    "verify_hole_cards",
    "verify_shown_cards",
]

BOARD_SIZES = (0, 3, 4, 5)
"""Board cards out on each street: pre-flop, flop, turn, river."""

_Holes = Sequence[tuple[Card, ...] | None]


def deal_hole_cards(shoe: Shoe, players: int) -> list[tuple[Card, Card]]:
    """Two cards to each player, in position order."""
    # spec/holdem.md "A hand" 1: one card at a time clockwise from left of the button
    cards = shoe.draw(2 * players)
    return [(cards[seat], cards[seat + players]) for seat in range(players)]


def next_street(shoe: Shoe, *, board_size: int) -> tuple[Card, tuple[Card, ...]]:
    """Burn a card, then turn the next street's board cards (three, then one, then one)."""
    cards = shoe.draw(4 if not board_size else 2)  # the burn on top, then the street
    return cards[0], cards[1:]


def street_of(board_size: int) -> int:
    """The street (0 pre-flop ... 3 river) once ``board_size`` cards are out."""
    return BOARD_SIZES.index(board_size)


def _verify_new(cards: Sequence[Card], *, board: Sequence[Card], holes: _Holes) -> None:
    known = list(board)
    for hole in holes:
        if hole is not None:
            known.extend(hole)
    check_distinct([*known, *cards])


def verify_hole_cards(cards: Sequence[Card], *, board: Sequence[Card], holes: _Holes) -> None:
    """Check named hole cards: two, not already out (``holes``: the cards dealt so far).

    Raises:
        InvalidCardsError: not two cards, or a card already dealt.
    """
    if len(cards) != 2:
        raise InvalidCardsError(f"hold'em deals two hole cards, not {len(cards)}")
    _verify_new(cards, board=board, holes=holes)


def verify_board_cards(cards: Sequence[Card], *, board: Sequence[Card], holes: _Holes) -> None:
    """Check the next street's board cards: three for the flop, then one, none already out.

    Raises:
        InvalidCardsError: the wrong number of cards, or a card already dealt.
    """
    size = 1 if board else 3
    if len(cards) != size:
        raise InvalidCardsError(f"the next street needs {size} board cards, not {len(cards)}")
    _verify_new(cards, board=board, holes=holes)


def verify_shown_cards(
    seat: int, cards: Sequence[Card], *, board: Sequence[Card], holes: _Holes
) -> None:
    """Check the cards ``seat`` tables at showdown: their hole cards if known, else two cards
    not already out.

    Raises:
        InvalidCardsError: not two cards, or a card already dealt.
        IllegalActionError: the cards are not the ones ``seat`` was dealt.
    """
    if len(cards) != 2:
        raise InvalidCardsError(f"a player shows two hole cards, not {len(cards)}")
    hole = holes[seat]
    if hole is None:
        _verify_new(cards, board=board, holes=holes)
    elif set(hole) != set(cards):
        raise IllegalActionError(
            f"player {seat + 1} holds {''.join(map(str, hole))}, not {''.join(map(str, cards))}",
            reason="cards_mismatch",
            params={"seat": seat},
        )
