"""The frozen records a :class:`~croupier.games.russian.state.RussianRound` appends to its log.

The log is the house's record and holds every card. Each event has its wire name in
``kind`` and says who may see its cards (:mod:`croupier.games.protocol`): an open box's
cards its owner alone (a second open box's not before the first has decided), a blind box's
nobody before the showdown, the dealer's nobody before they are revealed (but the upcard);
``seen_by`` is the event as one seat sees it and a seat's ``view`` shows no more.
"""

from __future__ import annotations

from dataclasses import dataclass

from croupier.cards import Card
from croupier.chips import Chips
from croupier.games.protocol import HOUSE, PUBLIC, Event, hide
from croupier.games.russian.config import RussianConfig
from croupier.games.russian.rules import BoxSettlement

__all__ = [
    "BetPlaced",
    "BoxPlaced",
    "BoxSettled",
    "BoxShown",
    "BuyDeclined",
    "CardsDealt",
    "CardsExchanged",
    "DealerRevealed",
    "DiscardsReshuffled",
    "Folded",
    "GameBought",
    "LimitsChanged",
    "RoundVoided",
    "RussianEvent",
    "SixthCardBought",
]


_NOTHING = Chips(0)


@dataclass(frozen=True, slots=True, kw_only=True)
class RussianEvent(Event):
    """Base of every Russian Poker event."""


@dataclass(frozen=True, slots=True, kw_only=True)
class LimitsChanged(RussianEvent):
    """The house changed the table's limits during the betting window (seed 003's "tudi med
    igro", as at every table): boxes placed from now on are checked against them; the boxes
    placed stand."""

    kind = "limits_changed"

    ante_min: Chips
    ante_max: Chips
    bonus_min: Chips
    bonus_max: Chips

    @classmethod
    def of(cls, config: RussianConfig) -> LimitsChanged:
        """The limits of ``config``."""
        return cls(
            ante_min=config.ante_min,
            ante_max=config.ante_max,
            bonus_min=config.bonus_min,
            bonus_max=config.bonus_max,
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class BoxPlaced(RussianEvent):
    """A seat put an Ante (and maybe a Bonus) on a box; a blind box puts its Bet too."""

    kind = "box_placed"

    seat: int
    box: int
    ante: Chips
    bonus: Chips
    blind: bool
    bet: Chips
    """The Bet placed with the Ante: 2x Ante on a blind box, 0 on the open box."""
    insurance: Chips = _NOTHING
    """Insurance placed unseen with a blind box (option ``blind_insurance``)."""
    sixth_card: bool = False
    """A blind box that bought its sixth card in advance (option ``blind_sixth_card``)."""
    fee: Chips = _NOTHING
    """The fee of that sixth card, placed with the box."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CardsDealt(RussianEvent):
    """Five cards to every box, in box order, then five to the dealer."""

    kind = "cards_dealt"
    secret = ("hands", "dealer")

    hands: tuple[tuple[int, tuple[Card, ...]], ...]
    """(box, cards) for every box in play."""
    dealer: tuple[Card, ...]
    upcard: Card | None
    """The dealer's last card when the table shows it (``dealer_upcard``)."""
    audiences: tuple[int, ...] = ()
    """Who may see each box's cards, in the order of ``hands``: the owner of an open box
    (of their first open box while they hold two), nobody (:data:`HOUSE`) for a blind box."""

    @property
    def audience(self) -> int:
        return HOUSE

    def seen_by(self, seat: int | None) -> CardsDealt:
        """Each box's cards for its audience only, the dealer's for nobody."""
        audiences = self.audiences or (HOUSE,) * len(self.hands)
        hands = tuple(
            (box, cards if seat is not None and seat >= 0 and who == seat else None)
            for (box, cards), who in zip(self.hands, audiences, strict=True)
        )
        return hide(self, ("dealer",), hands=hands)


@dataclass(frozen=True, slots=True, kw_only=True)
class CardsExchanged(RussianEvent):
    """An open box paid the fee and exchanged cards."""

    kind = "cards_exchanged"
    secret = ("discarded", "received")

    box: int
    discarded: tuple[Card, ...]
    received: tuple[Card, ...]
    fee: Chips
    seat: int = -1
    """The box's owner, who alone sees the cards (-1 in records written before it was kept)."""

    @property
    def audience(self) -> int:
        return self.seat if self.seat >= 0 else HOUSE


@dataclass(frozen=True, slots=True, kw_only=True)
class SixthCardBought(RussianEvent):
    """An open box paid the fee for a sixth card."""

    kind = "sixth_card_bought"
    secret = ("card",)

    box: int
    card: Card
    fee: Chips
    seat: int = -1
    """The box's owner (-1 in records written before it was kept)."""
    blind: bool = False
    """A blind box's card bought in advance: nobody sees it before the showdown."""

    @property
    def audience(self) -> int:
        return HOUSE if self.blind or self.seat < 0 else self.seat


@dataclass(frozen=True, slots=True, kw_only=True)
class DiscardsReshuffled(RussianEvent):
    """The deck ran out: the round's discards not yet reshuffled, in the order they were
    discarded, are shuffled and dealt on (spec/russian.md "Table", Decision). Never a card
    still in play: the cards exchanged away before the draw that needed them, and dealer's
    cards a buy replaced again. The order is ``reshuffle(index, discards)`` of the round's
    reshuffler: at a server table derived from the committed salt (docs/rules.md)."""

    kind = "discards_reshuffled"
    secret = ("discards", "cards")

    index: int
    """0 for the round's first reshuffle, then 1, 2..."""
    discards: tuple[Card, ...]
    """The cards gathered, in discard order."""
    cards: tuple[Card, ...]
    """The same cards in their new order, top first (dealt after the shoe's last card)."""

    @property
    def audience(self) -> int:
        # the new order is the cards still to come; the discards were seen only by their
        # owners: both stay hidden until the round's record (after the round)
        return HOUSE


@dataclass(frozen=True, slots=True, kw_only=True)
class BoxShown(RussianEvent):
    """A box's cards shown: to its owner, a second open box once their first has decided
    (docs/rules.md, ``open_boxes_per_player``); to everyone, a blind box at the showdown."""

    kind = "box_shown"
    secret = ("cards",)

    box: int
    seat: int
    cards: tuple[Card, ...]
    public: bool

    @property
    def audience(self) -> int:
        return PUBLIC if self.public else self.seat


@dataclass(frozen=True, slots=True, kw_only=True)
class BetPlaced(RussianEvent):
    """An open box placed its Bet (and insurance, if any) and stands."""

    kind = "bet_placed"

    box: int
    bet: Chips
    insurance: Chips


@dataclass(frozen=True, slots=True, kw_only=True)
class Folded(RussianEvent):
    """An open box gave up its bets."""

    kind = "folded"

    box: int


@dataclass(frozen=True, slots=True, kw_only=True)
class DealerRevealed(RussianEvent):
    """Every open box has decided; the dealer's hand is shown."""

    kind = "dealer_revealed"

    cards: tuple[Card, ...]
    qualifies: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class GameBought(RussianEvent):
    """A box paid to replace the dealer's highest card, for that box only."""

    kind = "game_bought"

    box: int
    fee: Chips
    replaced: Card
    drawn: tuple[Card, ...]
    """Every card drawn, the last being kept (more than one under ``rebuy_same_rank``)."""
    hand: tuple[Card, ...]
    qualifies: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class BuyDeclined(RussianEvent):
    """A box took the Ante payment instead of buying the dealer's game."""

    kind = "buy_declined"

    box: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BoxSettled(RussianEvent):
    """Every bet of a box settled."""

    kind = "box_settled"

    box: int
    seat: int
    settlement: BoxSettlement


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundVoided(RussianEvent):
    """A misdeal or malfunction: every bet, fee included, goes back (spec "Conduct and faults")."""

    kind = "round_voided"

    reason: str
    returned: tuple[tuple[int, Chips], ...]
    """(box, amount) returned to each box."""
