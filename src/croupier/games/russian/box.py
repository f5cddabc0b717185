"""One box of a Russian Poker round: its bets and cards (the round's own record of it), its
status, and what a seat may see of it.

>>> box = Box(seat=0, ante=100, bonus=0, blind=False, bet=0)
>>> box.status, box.staked
(<BoxStatus.WAITING: 'waiting'>, 100)
>>> box.view(3, visible=False, own=True).cards is None
True
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum

from croupier.cards import Card
from croupier.chips import Chips
from croupier.games.russian.config import RussianConfig
from croupier.games.russian.rules import BoxSettlement, Draw, settle_box

__all__ = ["Box", "BoxStatus", "BoxView", "settle_boxes"]


class BoxStatus(StrEnum):
    """Where one box stands."""

    WAITING = "waiting"
    """Dealt; may exchange, buy a sixth card, bet or fold."""
    DREW = "drew"
    """Exchanged or bought a sixth card; must bet or fold."""
    STOOD = "stood"
    FOLDED = "folded"
    BLIND = "blind"
    SETTLED = "settled"


@dataclass(frozen=True, slots=True, kw_only=True)
class BoxView:
    """One box as a seat sees it: cards only for the seat's own open box (own blind boxes
    after the showdown)."""

    box: int
    seat: int
    blind: bool
    ante: Chips
    bonus: Chips
    bet: Chips
    fee: Chips
    insurance: Chips
    status: BoxStatus
    cards: tuple[Card, ...] | None
    net: int | None
    """The player's net once settled (only for the seat's own boxes)."""
    discarded: tuple[Card, ...] | None = None
    """The cards the box exchanged away, where ``cards`` is shown (their owner saw them: a
    client that reloads still knows them, and the advisor removes them from the deck)."""


class Box:
    """A box's bets, cards and decisions as the round keeps them (mutable, never handed out:
    :meth:`view` is the frozen projection)."""

    __slots__ = (
        "advance_insurance",
        "advance_sixth",
        "ante",
        "bet",
        "blind",
        "bonus",
        "bought",
        "buy_decided",
        "buy_draws",
        "buy_fee",
        "cards",
        "draw",
        "fee",
        "initial",
        "insurance",
        "seat",
        "settlement",
        "status",
    )

    def __init__(self, *, seat: int, ante: int, bonus: int, blind: bool, bet: int) -> None:
        self.seat = seat
        self.ante = ante
        self.bonus = bonus
        self.blind = blind
        self.bet = bet
        self.fee = 0
        self.insurance = 0
        self.initial: tuple[Card, ...] = ()
        self.cards: tuple[Card, ...] = ()
        self.draw = Draw.NONE
        self.status = BoxStatus.BLIND if blind else BoxStatus.WAITING
        self.bought = False
        self.buy_decided = blind
        self.buy_draws: tuple[Card, ...] = ()
        self.buy_fee = 0
        self.settlement: BoxSettlement | None = None
        self.advance_insurance = False
        self.advance_sixth = False

    @property
    def undecided(self) -> bool:
        """Whether the box still has its decision to take."""
        return self.status in (BoxStatus.WAITING, BoxStatus.DREW)

    @property
    def staked(self) -> int:
        """Everything on the box: Ante, Bonus, Bet, fees (a bought dealer's game's too),
        insurance."""
        return self.ante + self.bonus + self.bet + self.fee + self.insurance + self.buy_fee

    def view(self, index: int, *, visible: bool, own: bool) -> BoxView:
        """The box as a seat sees it: its cards if ``visible``, its net if ``own``."""
        return BoxView(
            box=index,
            seat=self.seat,
            blind=self.blind,
            ante=Chips(self.ante),
            bonus=Chips(self.bonus),
            bet=Chips(self.bet),
            fee=Chips(self.fee),
            insurance=Chips(self.insurance),
            status=self.status,
            cards=self.cards if visible and self.cards else None,
            net=self.settlement.net if own and self.settlement is not None else None,
            discarded=self.discarded if visible and self.cards else None,
        )

    @property
    def discarded(self) -> tuple[Card, ...]:
        """The first hand's cards no longer in the box's hand (an exchange's discards)."""
        return tuple(c for c in self.initial if c not in self.cards)


def settle_boxes(
    config: RussianConfig, boxes: Mapping[int, Box], dealer: tuple[Card, ...]
) -> Iterator[tuple[int, Box, BoxSettlement]]:
    """Settle every box in layout order (:func:`croupier.games.russian.rules.settle_box`),
    each box's ``settlement`` set and its status ``SETTLED``; yields each box with its
    settlement as it is settled (the round logs its events)."""
    for index in sorted(boxes):
        b = boxes[index]
        b.settlement = settle_box(
            config=config,
            ante=b.ante,
            bonus=b.bonus,
            initial=b.initial,
            final=b.cards,
            draw=b.draw,
            folded=b.status is BoxStatus.FOLDED,
            dealer=dealer,
            insurance=b.insurance,
            buy=b.bought,
            dealer_draws=b.buy_draws,
            blind_insurance=b.advance_insurance,
        )
        b.status = BoxStatus.SETTLED
        yield index, b, b.settlement
