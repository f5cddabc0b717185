"""The cards a Russian Poker round deals from: the shoe, then its reshuffled discards.

spec/russian.md "Table", Decision: when the deck runs out during exchanges, sixth cards or a
bought dealer's game, the round's discards -- never a card still in play -- are shuffled and
dealt on. A card joins the discards once it is out of play: the cards an exchange replaces
(after that exchange has drawn its new cards, so nobody is dealt back a card they have just
thrown away) and the cards a buy replaced again under ``rebuy_same_rank`` (after that buy).
Each reshuffle gathers the discards not yet reshuffled, in the order they were discarded,
and puts them in the order ``reshuffle(index, discards)`` returns; see
:func:`croupier.deck.keyed_reshuffler` for how a server derives it from the round's committed
salt (docs/rules.md "Reshuffling the discards").

>>> from croupier.cards import parse_cards
>>> from croupier.deck import Shoe
>>> stub = Stub(Shoe.parse("2c 3d"), reshuffle=lambda k, cards: tuple(reversed(cards)))
>>> stub.draw(2)
(Card.parse('2c'), Card.parse('3d'))
>>> stub.discard(parse_cards("4h 5s 6c"))
>>> stub.draw(2), stub.available
((Card.parse('6c'), Card.parse('5s')), 1)
"""

from __future__ import annotations

from collections.abc import Sequence

from croupier.cards import Card, format_cards
from croupier.deck import Reshuffler, Shoe, keyed_reshuffler
from croupier.errors import InvalidCardsError

__all__ = ["Stub"]


class Stub:
    """The shoe, then the reshuffled discards; :attr:`reshuffles` lists what was reshuffled.

    Args:
        shoe: the round's ordered deck.
        reshuffle: orders the discards at each reshuffle; by default keyed by the shoe's order
            (fine for simulations and tests; a server passes one keyed by its secret salt).
    """

    __slots__ = ("_pile", "_reshuffle", "_reshuffles", "_shoe", "_stub")

    def __init__(self, shoe: Shoe, *, reshuffle: Reshuffler | None = None) -> None:
        self._shoe = shoe
        self._reshuffle = reshuffle or keyed_reshuffler(format_cards(shoe.order, " "))
        self._stub: list[Card] = []
        self._pile: list[Card] = []
        self._reshuffles: list[tuple[tuple[Card, ...], tuple[Card, ...]]] = []

    @property
    def shoe(self) -> Shoe:
        """The round's shoe."""
        return self._shoe

    @property
    def available(self) -> int:
        """Cards that can still be dealt: the shoe's, the reshuffled ones, the discards."""
        return self._shoe.remaining + len(self._stub) + len(self._pile)

    @property
    def reshuffles(self) -> tuple[tuple[tuple[Card, ...], tuple[Card, ...]], ...]:
        """Every reshuffle so far: (the discards gathered, their new order)."""
        return tuple(self._reshuffles)

    def discard(self, cards: Sequence[Card]) -> None:
        """Put cards that left play on the discards (in the order given)."""
        self._pile.extend(cards)

    def draw(self, count: int = 1) -> tuple[Card, ...]:
        """Deal ``count`` cards: from the shoe, then from reshuffled discards.

        Raises:
            InvalidCardsError: fewer than ``count`` cards are available (the table's config
                rules that out, see ``RussianConfig.most_cards_in_play``); nothing is dealt.
        """
        if count > self.available:
            raise InvalidCardsError(
                f"cannot deal {count} cards: the shoe and the discards hold {self.available}"
            )
        if count > self._shoe.remaining + len(self._stub):
            self._gather()  # checked before any card is dealt: a bad order changes nothing
        taken = min(count, self._shoe.remaining)
        out = [*self._shoe.draw(taken), *self._stub[: count - taken]]
        del self._stub[: count - taken]
        return tuple(out)

    def _gather(self) -> None:
        discards = tuple(self._pile)
        order = tuple(self._reshuffle(len(self._reshuffles), discards))
        if sorted(c.id for c in order) != sorted(c.id for c in discards):
            raise InvalidCardsError(
                f"reshuffle {len(self._reshuffles)} gives {format_cards(order, ' ')!r}, not an "
                f"order of the discards {format_cards(discards, ' ')!r}"
            )
        self._pile.clear()
        self._stub.extend(order)
        self._reshuffles.append((discards, order))
