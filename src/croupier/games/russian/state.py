"""The Russian Poker round: a state machine driven by verify / can / do commands.

Every command validates everything before it changes anything, so a refused action leaves the
round as it was; a command returns the frozen event it appended to :attr:`RussianRound.events`.

>>> from croupier.cards import parse_cards
>>> from croupier.deck import Shoe
>>> shoe = Shoe(parse_cards("Ah As Ad 7c 2h  Kd Qd 9c 5s 5h") + parse_cards("4c 4d"))
>>> game = RussianRound(config=RussianConfig(), shoe=shoe)
>>> _ = game.place_box(0, box=0, ante=Chips(100))
>>> _ = game.deal()
>>> _ = game.bet(0, box=0, insurance=Chips(100))
>>> game.phase, game.settlement(0).net
(<Phase.SETTLED: 'settled'>, 500)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeVar

from croupier.cards import Card
from croupier.chips import Chips
from croupier.deck import Reshuffler, Shoe
from croupier.errors import IllegalActionError
from croupier.games.russian.config import RussianConfig
from croupier.games.russian.events import (
    BetPlaced,
    BoxPlaced,
    BoxSettled,
    BuyDeclined,
    CardsDealt,
    CardsExchanged,
    DealerRevealed,
    DiscardsReshuffled,
    Folded,
    GameBought,
    RoundVoided,
    RussianEvent,
    SixthCardBought,
)
from croupier.games.russian.rules import (
    BoxSettlement,
    Draw,
    dealer_qualifies,
    insurance_limits,
    settle_box,
    verify_blind_choices,
)
from croupier.games.russian.stub import Stub

_E = TypeVar("_E", bound=RussianEvent)

__all__ = ["BoxStatus", "BoxView", "Phase", "RussianRound", "RussianView"]


class Phase(StrEnum):
    """Where the round stands."""

    BETTING = "betting"
    DECIDING = "deciding"
    BUYING = "buying"
    SETTLED = "settled"
    VOIDED = "voided"


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


class _Box:
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
        self.settlement: BoxSettlement | None = None
        self.advance_insurance = False
        self.advance_sixth = False

    @property
    def undecided(self) -> bool:
        return self.status in (BoxStatus.WAITING, BoxStatus.DREW)

    @property
    def staked(self) -> int:
        return self.ante + self.bonus + self.bet + self.fee + self.insurance


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


@dataclass(frozen=True, slots=True, kw_only=True)
class RussianView:
    """What one seat may see of the round."""

    seat: int
    phase: Phase
    boxes: tuple[BoxView, ...]
    dealer: tuple[Card | None, ...]
    """The dealer's five cards, ``None`` for a card face down."""
    to_act: int | None


class RussianRound:
    """One round of Russian Poker dealt from ``shoe`` (spec/russian.md).

    Seats 0..``max_players - 1`` place boxes; the boxes are dealt, the open boxes decide in
    box order, the dealer is shown, boxes that stood against a dealer who does not qualify
    choose whether to buy the dealer's game, and every box is settled. When the shoe runs
    out the round's discards are reshuffled and dealt on (:class:`Stub`); ``reshuffle``
    orders them (default: keyed by the shoe's order; a server keys it by its salt).
    """

    def __init__(
        self, *, config: RussianConfig, shoe: Shoe, reshuffle: Reshuffler | None = None
    ) -> None:
        self._config = config
        self._shoe = shoe
        self._stub = Stub(shoe, reshuffle=reshuffle)
        self._phase = Phase.BETTING
        self._boxes: dict[int, _Box] = {}
        self._dealer: tuple[Card, ...] = ()
        self._qualifies = False
        self._events: list[RussianEvent] = []

    # -- read-only state -------------------------------------------------------------------

    @property
    def config(self) -> RussianConfig:
        """The table settings."""
        return self._config

    @property
    def phase(self) -> Phase:
        """Where the round stands."""
        return self._phase

    @property
    def shoe(self) -> Shoe:
        """The round's shoe (its whole order is the record's deck)."""
        return self._shoe

    @property
    def events(self) -> tuple[RussianEvent, ...]:
        """Every event so far, oldest first."""
        return tuple(self._events)

    @property
    def boxes(self) -> tuple[int, ...]:
        """The boxes in play, in order."""
        return tuple(sorted(self._boxes))

    def cards(self, box: int) -> tuple[Card, ...]:
        """The house's view of a box's current cards."""
        return self._box(box).cards

    def seat_of(self, box: int) -> int:
        """The seat that owns ``box``."""
        return self._box(box).seat

    def is_blind(self, box: int) -> bool:
        """Whether ``box`` is blind."""
        return self._box(box).blind

    def settlement(self, box: int) -> BoxSettlement:
        """The settlement of a box once the round is settled."""
        settled = self._box(box).settlement
        if settled is None:
            raise IllegalActionError(f"box {box} is not settled yet")
        return settled

    @property
    def dealer(self) -> tuple[Card, ...]:
        """The dealer's hand as dealt (the house's view)."""
        return self._dealer

    @property
    def to_act(self) -> int | None:
        """The box whose decision is awaited, or ``None``."""
        if self._phase is Phase.DECIDING:
            for index in sorted(self._boxes):
                if self._boxes[index].status in (BoxStatus.WAITING, BoxStatus.DREW):
                    return index
        if self._phase is Phase.BUYING:
            for index in sorted(self._boxes):
                if not self._boxes[index].buy_decided:
                    return index
        return None

    def _box(self, box: int) -> _Box:
        try:
            return self._boxes[box]
        except KeyError:
            raise IllegalActionError(f"box {box} has no bets") from None

    # -- betting ---------------------------------------------------------------------------

    def verify_place_box(
        self,
        seat: int,
        *,
        box: int,
        ante: int,
        bonus: int = 0,
        blind: bool = False,
        insurance: int = 0,
        sixth_card: bool = False,
    ) -> None:
        """Raise unless ``seat`` may put ``ante`` (and ``bonus``) on ``box``; a blind box may
        bring ``insurance`` and a ``sixth_card`` bought in advance where the table allows.

        Raises:
            IllegalActionError: wrong phase, unknown seat or box, a box taken, an open box
                more than the table allows a player, a bet outside the table limits, an
                advance choice the table does not offer.
        """
        c = self._config
        if self._phase is not Phase.BETTING:
            raise IllegalActionError(
                f"boxes are placed before the deal, not in phase {self._phase}"
            )
        if not 0 <= seat < c.max_players:
            raise IllegalActionError(
                f"seat {seat} is not a seat at this table (0..{c.max_players - 1})"
            )
        if not 0 <= box < c.boxes:
            raise IllegalActionError(f"box {box} is not on the layout (0..{c.boxes - 1})")
        if box in self._boxes:
            raise IllegalActionError(f"box {box} is taken")
        if not c.ante_min <= ante <= c.ante_max:
            raise IllegalActionError(
                f"ante {ante} is outside the table limits {c.ante_min}..{c.ante_max}"
            )
        if bonus and not c.bonus_min <= bonus <= c.bonus_max:
            raise IllegalActionError(
                f"bonus {bonus} is outside the table limits {c.bonus_min}..{c.bonus_max}"
            )
        if bonus < 0:
            raise IllegalActionError(f"bonus {bonus} is negative")
        mine = [b for b in self._boxes.values() if b.seat == seat]
        opens = c.open_boxes_per_player
        if not blind and sum(not b.blind for b in mine) >= opens:
            # spec "Table": one open box per player (option open_boxes_per_player: two)
            raise IllegalActionError(
                f"seat {seat} already has {'an' if opens == 1 else opens} open "
                f"box{'es' if opens > 1 else ''}; further boxes are blind"
            )
        verify_blind_choices(c, ante=ante, blind=blind, insurance=insurance, sixth_card=sixth_card)

    def can_place_box(
        self,
        seat: int,
        *,
        box: int,
        ante: int,
        bonus: int = 0,
        blind: bool = False,
        insurance: int = 0,
        sixth_card: bool = False,
    ) -> bool:
        """Whether :meth:`place_box` would succeed."""
        try:
            self.verify_place_box(
                seat,
                box=box,
                ante=ante,
                bonus=bonus,
                blind=blind,
                insurance=insurance,
                sixth_card=sixth_card,
            )
        except IllegalActionError:
            return False
        return True

    def place_box(
        self,
        seat: int,
        *,
        box: int,
        ante: int,
        bonus: int = 0,
        blind: bool = False,
        insurance: int = 0,
        sixth_card: bool = False,
    ) -> BoxPlaced:
        """Put an Ante (and a Bonus) on a box; a blind box also puts its Bet (spec Decision)
        and, where the table allows, its insurance and a sixth card's fee."""
        self.verify_place_box(
            seat,
            box=box,
            ante=ante,
            bonus=bonus,
            blind=blind,
            insurance=insurance,
            sixth_card=sixth_card,
        )
        config = self._config
        bet = ante * config.bet_multiple if blind else 0
        target = _Box(seat=seat, ante=ante, bonus=bonus, blind=blind, bet=bet)
        target.insurance = insurance
        target.advance_insurance = bool(insurance)
        target.advance_sixth = sixth_card
        if sixth_card:
            target.fee = ante * config.draw_fee_multiple
        self._boxes[box] = target
        return self._log(
            BoxPlaced(
                seat=seat,
                box=box,
                ante=Chips(ante),
                bonus=Chips(bonus),
                blind=blind,
                bet=Chips(bet),
                insurance=Chips(insurance),
                sixth_card=sixth_card,
                fee=Chips(target.fee),
            )
        )

    def verify_deal(self) -> None:
        """Raise unless the boxes can be dealt.

        Raises:
            IllegalActionError: wrong phase, no box, a seat with blind boxes only, too few cards.
        """
        if self._phase is not Phase.BETTING:
            raise IllegalActionError(f"the cards are dealt once, not in phase {self._phase}")
        if not self._boxes:
            raise IllegalActionError("no box has an Ante")
        for seat in {b.seat for b in self._boxes.values()}:
            if all(b.blind for b in self._boxes.values() if b.seat == seat):
                raise IllegalActionError(f"seat {seat} has blind boxes but no open box")
        needed = 5 * (len(self._boxes) + 1) + sum(b.advance_sixth for b in self._boxes.values())
        if self._shoe.remaining < needed:
            raise IllegalActionError(
                f"the shoe has {self._shoe.remaining} cards, {needed} are needed"
            )

    def can_deal(self) -> bool:
        """Whether :meth:`deal` would succeed."""
        try:
            self.verify_deal()
        except IllegalActionError:
            return False
        return True

    def deal(self) -> CardsDealt:
        """Five cards to every box in order, then five to the dealer (spec "Bets and deal")."""
        self.verify_deal()
        hands = []
        for index in sorted(self._boxes):
            box = self._boxes[index]
            box.initial = box.cards = self._shoe.draw(5)
            hands.append((index, box.cards))
        self._dealer = self._shoe.draw(5)
        self._qualifies = dealer_qualifies(self._dealer)
        self._phase = Phase.DECIDING
        upcard = self._dealer[-1] if self._config.dealer_upcard else None
        event = self._log(CardsDealt(hands=tuple(hands), dealer=self._dealer, upcard=upcard))
        for index in sorted(self._boxes):
            box = self._boxes[index]
            if box.advance_sixth:
                # docs/rules.md option blind_sixth_card: dealt after the deal, in box order
                card = self._draw(1)[0]
                box.cards = (*box.cards, card)
                box.draw = Draw.SIXTH
                self._log(SixthCardBought(box=index, card=card, fee=Chips(box.fee)))
        self._advance()
        return event

    def _draw(self, count: int) -> tuple[Card, ...]:
        """Deal from the shoe, then from reshuffled discards; log each reshuffle."""
        before = len(self._stub.reshuffles)
        cards = self._stub.draw(count)
        for index, (discards, order) in enumerate(self._stub.reshuffles[before:], before):
            self._log(DiscardsReshuffled(index=index, discards=discards, cards=order))
        return cards

    # -- decisions of the open boxes -------------------------------------------------------

    def _verify_turn(
        self, seat: int, box: int, action: str, *, phase: Phase = Phase.DECIDING
    ) -> _Box:
        """The open box ``box`` of ``seat``, if it is its turn in ``phase``."""
        if self._phase is not phase:
            raise IllegalActionError(f"cannot {action} in phase {self._phase}")
        if not 0 <= seat < self._config.max_players:
            raise IllegalActionError(f"seat {seat} is not a seat at this table")
        target = self._box(box)
        if target.seat != seat:
            raise IllegalActionError(f"box {box} belongs to seat {target.seat}, not seat {seat}")
        if target.blind:
            raise IllegalActionError(f"box {box} is blind and takes no decisions")
        if self.to_act != box:
            raise IllegalActionError(f"it is box {self.to_act}'s turn, not box {box}'s")
        return target

    def verify_exchange(self, seat: int, *, box: int, discard: Sequence[Card]) -> None:
        """Raise unless ``box`` may exchange the cards ``discard`` (1 to 5 of its own).

        Raises:
            IllegalActionError: not the box's turn, a second draw, cards not in the hand.
        """
        target = self._verify_turn(seat, box, "exchange")
        if target.status is not BoxStatus.WAITING:
            raise IllegalActionError(f"box {box} has already drawn ({target.draw}); bet or fold")
        ids = {c.id for c in discard}
        low, high = self._config.exchange_min, self._config.exchange_max
        if len(ids) != len(discard) or not low <= len(ids) <= high:
            raise IllegalActionError(
                f"an exchange is of {low} to {high} different cards, not {len(discard)}"
            )
        if not ids <= {c.id for c in target.cards}:
            raise IllegalActionError("an exchange discards cards from the box's own hand")
        if self._stub.available < len(ids):  # pragma: no cover - the config rules it out
            raise IllegalActionError(f"only {self._stub.available} cards are left to deal")

    def can_exchange(self, seat: int, *, box: int, discard: Sequence[Card]) -> bool:
        """Whether :meth:`exchange` would succeed."""
        try:
            self.verify_exchange(seat, box=box, discard=discard)
        except IllegalActionError:
            return False
        return True

    def exchange(self, seat: int, *, box: int, discard: Sequence[Card]) -> CardsExchanged:
        """Pay the fee (1x Ante) and exchange ``discard`` for as many new cards."""
        self.verify_exchange(seat, box=box, discard=discard)
        target = self._boxes[box]
        gone = {c.id for c in discard}
        received = self._draw(len(gone))
        target.cards = tuple(c for c in target.cards if c.id not in gone) + received
        target.fee = target.ante * self._config.draw_fee_multiple
        target.draw = Draw.EXCHANGE
        target.status = BoxStatus.DREW
        kept_order = tuple(c for c in target.initial if c.id in gone)
        self._stub.discard(kept_order)
        return self._log(
            CardsExchanged(box=box, discarded=kept_order, received=received, fee=Chips(target.fee))
        )

    def verify_sixth_card(self, seat: int, *, box: int) -> None:
        """Raise unless ``box`` may buy a sixth card (never after an exchange).

        Raises:
            IllegalActionError: not the box's turn or the box has drawn already.
        """
        target = self._verify_turn(seat, box, "buy a sixth card")
        if target.status is not BoxStatus.WAITING:
            raise IllegalActionError(f"box {box} has already drawn ({target.draw}); bet or fold")
        if self._stub.available < 1:  # pragma: no cover - the config rules it out
            raise IllegalActionError("no card is left to deal")

    def can_sixth_card(self, seat: int, *, box: int) -> bool:
        """Whether :meth:`sixth_card` would succeed."""
        try:
            self.verify_sixth_card(seat, box=box)
        except IllegalActionError:
            return False
        return True

    def sixth_card(self, seat: int, *, box: int) -> SixthCardBought:
        """Pay the fee (1x Ante) for a sixth card."""
        self.verify_sixth_card(seat, box=box)
        target = self._boxes[box]
        card = self._draw(1)[0]
        target.cards = (*target.cards, card)
        target.fee = target.ante * self._config.draw_fee_multiple
        target.draw = Draw.SIXTH
        target.status = BoxStatus.DREW
        return self._log(SixthCardBought(box=box, card=card, fee=Chips(target.fee)))

    def insurance_limits(self, box: int) -> tuple[int, int] | None:
        """The insurance the box's current hand allows, or ``None`` below three of a kind."""
        target = self._box(box)
        return insurance_limits(target.cards, ante=target.ante, config=self._config)

    def verify_bet(self, seat: int, *, box: int, insurance: int = 0) -> None:
        """Raise unless ``box`` may place its Bet with ``insurance``.

        Raises:
            IllegalActionError: not the box's turn; insurance without three of a kind or
                outside 1x Ante .. the box's potential win.
        """
        target = self._verify_turn(seat, box, "bet")
        if insurance < 0:
            raise IllegalActionError(f"insurance {insurance} is negative")
        if insurance:
            limits = insurance_limits(target.cards, ante=target.ante, config=self._config)
            if limits is None:
                raise IllegalActionError("insurance needs three of a kind or better")
            if not limits[0] <= insurance <= limits[1]:
                raise IllegalActionError(
                    f"insurance {insurance} is outside {limits[0]}..{limits[1]} for this hand"
                )

    def can_bet(self, seat: int, *, box: int, insurance: int = 0) -> bool:
        """Whether :meth:`bet` would succeed."""
        try:
            self.verify_bet(seat, box=box, insurance=insurance)
        except IllegalActionError:
            return False
        return True

    def bet(self, seat: int, *, box: int, insurance: int = 0) -> BetPlaced:
        """Place the Bet (2x Ante) and stand, with optional insurance (spec decision 3)."""
        self.verify_bet(seat, box=box, insurance=insurance)
        target = self._boxes[box]
        target.bet = target.ante * self._config.bet_multiple
        target.insurance = insurance
        target.status = BoxStatus.STOOD
        event = self._log(BetPlaced(box=box, bet=Chips(target.bet), insurance=Chips(insurance)))
        self._advance()
        return event

    def verify_fold(self, seat: int, *, box: int) -> None:
        """Raise unless ``box`` may fold now.

        Raises:
            IllegalActionError: not the box's turn.
        """
        self._verify_turn(seat, box, "fold")

    def can_fold(self, seat: int, *, box: int) -> bool:
        """Whether :meth:`fold` would succeed."""
        try:
            self.verify_fold(seat, box=box)
        except IllegalActionError:
            return False
        return True

    def fold(self, seat: int, *, box: int) -> Folded:
        """Give up the box's bets (the Bonus still stands, spec "Bonus")."""
        self.verify_fold(seat, box=box)
        target = self._boxes[box]
        target.status = BoxStatus.FOLDED
        target.buy_decided = True
        event = self._log(Folded(box=box))
        self._advance()
        return event

    # -- buying the dealer's game ----------------------------------------------------------

    def _verify_buy_turn(self, seat: int, box: int, action: str) -> _Box:
        return self._verify_turn(seat, box, action, phase=Phase.BUYING)

    def verify_buy_game(self, seat: int, *, box: int) -> None:
        """Raise unless ``box`` may buy the dealer's game (dealer not qualified, box stood).

        Raises:
            IllegalActionError: wrong phase or turn.
        """
        self._verify_buy_turn(seat, box, "buy the dealer's game")
        if self._stub.available < 1:  # pragma: no cover - the config rules it out
            raise IllegalActionError("no card is left to deal")

    def can_buy_game(self, seat: int, *, box: int) -> bool:
        """Whether :meth:`buy_game` would succeed."""
        try:
            self.verify_buy_game(seat, box=box)
        except IllegalActionError:
            return False
        return True

    def buy_game(self, seat: int, *, box: int) -> GameBought:
        """Pay 1x Ante to replace the dealer's highest card, for this box only."""
        self.verify_buy_game(seat, box=box)
        replaced = max(self._dealer, key=lambda c: c.id)
        drawn = [self._draw(1)[0]]
        # spec "Dealer and settlement", option rebuy_same_rank: replaced again while the new
        # card has the replaced card's rank (RussianConfig leaves room for three such cards)
        while self._config.rebuy_same_rank and drawn[-1].rank == replaced.rank:
            drawn.append(self._draw(1)[0])
        self._stub.discard(drawn[:-1])
        hand = (*(c for c in self._dealer if c is not replaced), drawn[-1])
        target = self._boxes[box]
        target.buy_draws = tuple(drawn)
        target.bought = True
        target.buy_decided = True
        fee = target.ante * self._config.buy_fee_multiple
        event = self._log(
            GameBought(
                box=box,
                fee=Chips(fee),
                replaced=replaced,
                drawn=target.buy_draws,
                hand=hand,
                qualifies=dealer_qualifies(hand),
            )
        )
        self._advance()
        return event

    def verify_decline_buy(self, seat: int, *, box: int) -> None:
        """Raise unless ``box`` is the one choosing whether to buy.

        Raises:
            IllegalActionError: wrong phase or turn.
        """
        self._verify_buy_turn(seat, box, "decline to buy")

    def can_decline_buy(self, seat: int, *, box: int) -> bool:
        """Whether :meth:`decline_buy` would succeed."""
        try:
            self.verify_decline_buy(seat, box=box)
        except IllegalActionError:
            return False
        return True

    def decline_buy(self, seat: int, *, box: int) -> BuyDeclined:
        """Take the Ante paid 1:1 instead of buying the dealer's game."""
        self.verify_decline_buy(seat, box=box)
        self._boxes[box].buy_decided = True
        event = self._log(BuyDeclined(box=box))
        self._advance()
        return event

    # -- faults ----------------------------------------------------------------------------

    def verify_void(self) -> None:
        """Raise once the round is settled or voided.

        Raises:
            IllegalActionError: the round is over.
        """
        if self._phase in (Phase.SETTLED, Phase.VOIDED):
            raise IllegalActionError(f"a round in phase {self._phase} cannot be voided")

    def can_void(self) -> bool:
        """Whether :meth:`void` would succeed."""
        return self._phase not in (Phase.SETTLED, Phase.VOIDED)

    def void(self, reason: str) -> RoundVoided:
        """Void the round for a misdeal or malfunction; every stake, fees included, goes back."""
        self.verify_void()
        returned = tuple((index, Chips(self._boxes[index].staked)) for index in sorted(self._boxes))
        self._phase = Phase.VOIDED
        return self._log(RoundVoided(reason=reason, returned=returned))

    # -- views -----------------------------------------------------------------------------

    def view_for(self, seat: int) -> RussianView:
        """What ``seat`` may see: its own open box's cards, its blind boxes after the
        showdown, the dealer once shown (or the upcard), and no other seat's cards."""
        if not 0 <= seat < self._config.max_players:
            raise IllegalActionError(f"seat {seat} is not a seat at this table")
        shown = self._phase in (Phase.BUYING, Phase.SETTLED)
        boxes = []
        for index in sorted(self._boxes):
            b = self._boxes[index]
            own = b.seat == seat
            visible = (
                own
                and b.cards
                and (not b.blind or self._phase is Phase.SETTLED)
                and not self._waits_for_earlier_box(index)
            )
            boxes.append(
                BoxView(
                    box=index,
                    seat=b.seat,
                    blind=b.blind,
                    ante=Chips(b.ante),
                    bonus=Chips(b.bonus),
                    bet=Chips(b.bet),
                    fee=Chips(b.fee),
                    insurance=Chips(b.insurance),
                    status=b.status,
                    cards=b.cards if visible else None,
                    net=b.settlement.net if own and b.settlement is not None else None,
                )
            )
        if not self._dealer:
            dealer: tuple[Card | None, ...] = ()
        elif shown:
            dealer = self._dealer
        elif self._config.dealer_upcard:
            dealer = (None, None, None, None, self._dealer[-1])
        else:
            dealer = (None,) * 5
        return RussianView(
            seat=seat, phase=self._phase, boxes=tuple(boxes), dealer=dealer, to_act=self.to_act
        )

    def _waits_for_earlier_box(self, box: int) -> bool:
        """Whether an earlier open box of the same seat is still deciding: a player looks at
        a second open box only after deciding the first (docs/rules.md, Aragon, Corona)."""
        target = self._boxes[box]
        return not target.blind and any(
            index < box and b.seat == target.seat and not b.blind and b.undecided
            for index, b in self._boxes.items()
        )

    # -- internals -------------------------------------------------------------------------

    def _log(self, event: _E) -> _E:
        self._events.append(event)
        return event

    def _advance(self) -> None:
        """Move on when nobody has a decision left: show the dealer, offer buys, settle."""
        if self._phase is Phase.DECIDING and self.to_act is None:
            self._log(DealerRevealed(cards=self._dealer, qualifies=self._qualifies))
            for b in self._boxes.values():
                # spec: only a box that stood may buy, and only when the dealer does not qualify
                if self._qualifies or b.status is not BoxStatus.STOOD:
                    b.buy_decided = True
            self._phase = Phase.BUYING
        if self._phase is Phase.BUYING and self.to_act is None:
            self._settle()

    def _settle(self) -> None:
        for index in sorted(self._boxes):
            b = self._boxes[index]
            b.settlement = settle_box(
                config=self._config,
                ante=b.ante,
                bonus=b.bonus,
                initial=b.initial,
                final=b.cards,
                draw=b.draw,
                folded=b.status is BoxStatus.FOLDED,
                dealer=self._dealer,
                insurance=b.insurance,
                buy=b.bought,
                dealer_draws=b.buy_draws,
                blind_insurance=b.advance_insurance,
            )
            b.status = BoxStatus.SETTLED
            self._log(BoxSettled(box=index, seat=b.seat, settlement=b.settlement))
        self._phase = Phase.SETTLED
