"""The Russian Poker round: a state machine driven by verify / can / do commands.

Every command validates everything before it changes anything, so a refused action leaves the
round as it was; a command returns the frozen event it appended to :attr:`RussianRound.events`.
The round implements :class:`croupier.games.protocol.Engine`: :meth:`RussianRound.apply` takes
the typed actions of :mod:`croupier.games.russian.actions`.

>>> from croupier.cards import parse_cards
>>> from croupier.deck import Shoe
>>> from croupier.games.russian.actions import Deal, PlaceBet, PlaceBox
>>> shoe = Shoe(parse_cards("Ah As Ad 7c 2h  Kd Qd 9c 5s 5h") + parse_cards("4c 4d"))
>>> game = RussianRound(RussianConfig(), shoe)
>>> _ = game.apply(PlaceBox(seat=0, box=0, ante=100))
>>> _ = game.apply(Deal())
>>> [legal.kind for legal in game.legal_actions(0)]
['exchange', 'sixth_card', 'bet', 'fold']
>>> _ = game.apply(PlaceBet(seat=0, box=0, insurance=100))
>>> game.phase, game.settlement(0).net, game.returns()
(<Phase.SETTLED: 'settled'>, 500, {0: 900})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from croupier.cards import Card
from croupier.chips import Chips
from croupier.deck import Reshuffler, Shoe
from croupier.games.protocol import HOUSE, Legal, refused, succeeds
from croupier.games.russian import actions, engine
from croupier.games.russian.actions import DeclineBuy, Fold, RussianAction
from croupier.games.russian.betting import (
    changed_limits,
    open_boxes,
    verify_box,
    verify_room,
    verify_seat,
    whole,
)
from croupier.games.russian.box import Box, BoxStatus, BoxView, settle_boxes
from croupier.games.russian.config import RussianConfig
from croupier.games.russian.events import (
    BetPlaced,
    BoxPlaced,
    BoxSettled,
    BoxShown,
    BuyDeclined,
    CardsDealt,
    CardsExchanged,
    DealerRevealed,
    DiscardsReshuffled,
    Folded,
    GameBought,
    LimitsChanged,
    RoundVoided,
    RussianEvent,
    SixthCardBought,
)
from croupier.games.russian.phase import Phase
from croupier.games.russian.rules import (
    BoxSettlement,
    Draw,
    dealer_qualifies,
    insurance_limits,
)
from croupier.games.russian.stub import Stub
from croupier.games.russian.views import RussianView, round_view, waits_for_earlier_box

_E = TypeVar("_E", bound=RussianEvent)

__all__ = ["BoxStatus", "BoxView", "Phase", "RussianRound", "RussianView"]


class RussianRound:
    """One round of Russian Poker dealt from ``shoe`` (spec/russian.md).

    Seats 0..``max_players - 1`` place boxes; the boxes are dealt, the open boxes decide in
    box order, the dealer is shown, boxes that stood against a dealer who does not qualify
    choose whether to buy the dealer's game, and every box is settled. When the shoe runs
    out the round's discards are reshuffled and dealt on (:class:`Stub`); ``reshuffle``
    orders them (default: keyed by the shoe's order; a server keys it by its salt).
    """

    def __init__(
        self, config: RussianConfig, shoe: Shoe, *, reshuffle: Reshuffler | None = None
    ) -> None:
        self._config = self._opening = config
        self._shoe = shoe
        self._stub = Stub(shoe, reshuffle=reshuffle)
        self._phase = Phase.BETTING
        self._boxes: dict[int, Box] = {}
        self._dealer: tuple[Card, ...] = ()
        self._qualifies = False
        self._hidden: set[int] = set()
        """Open boxes not shown to their owner yet (their first open box is deciding)."""
        self._events: list[RussianEvent] = []

    # -- read-only state -------------------------------------------------------------------

    @property
    def config(self) -> RussianConfig:
        """The table settings in force (:meth:`change_limits`)."""
        return self._config

    @property
    def opening_config(self) -> RussianConfig:
        """The table settings the round opened with."""
        return self._opening

    @property
    def phase(self) -> Phase:
        """Where the round stands."""
        return self._phase

    @property
    def finished(self) -> bool:
        """Settled or voided."""
        return self._phase in (Phase.SETTLED, Phase.VOIDED)

    @property
    def shoe(self) -> Shoe:
        """The round's shoe (its whole order is the record's deck)."""
        return self._shoe

    @property
    def events(self) -> tuple[RussianEvent, ...]:
        """Every event so far, oldest first."""
        return tuple(self._events)

    def events_since(self, index: int) -> tuple[RussianEvent, ...]:
        """The events from position ``index`` on."""
        return tuple(self._events[index:])

    @property
    def boxes(self) -> tuple[int, ...]:
        """The boxes in play, in order."""
        return tuple(sorted(self._boxes))

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats with boxes in play, in order."""
        return tuple(sorted({b.seat for b in self._boxes.values()}))

    def cards(self, box: int) -> tuple[Card, ...]:
        """The house's view of a box's current cards."""
        return self._box(box).cards

    def seat_of(self, box: int) -> int:
        """The seat that owns ``box``."""
        return self._box(box).seat

    def is_blind(self, box: int) -> bool:
        """Whether ``box`` is blind."""
        return self._box(box).blind

    def status(self, box: int) -> BoxStatus:
        """Where ``box`` stands."""
        return self._box(box).status

    def ante(self, box: int) -> Chips:
        """The Ante on ``box``."""
        return Chips(self._box(box).ante)

    def stake(self, box: int) -> Chips:
        """Everything on ``box`` now: Ante, Bonus, Bet, fees, insurance."""
        return Chips(self._box(box).staked)

    def open_boxes(self, seat: int) -> tuple[int, ...]:
        """``seat``'s open boxes, in order."""
        return open_boxes(self._boxes, seat)

    def has_room(self, seat: int, *, blind: bool) -> bool:
        """Whether a box of ``seat`` leaves a free box for every seat's missing open box."""
        return succeeds(verify_room, self._config, self._boxes, seat, blind=blind)

    def settlement(self, box: int) -> BoxSettlement:
        """The settlement of a box once the round is settled."""
        settled = self._box(box).settlement
        if settled is None:
            raise refused(f"box {box} is not settled yet", "box_not_settled", box=box)
        return settled

    @property
    def dealer(self) -> tuple[Card, ...]:
        """The dealer's hand as dealt (the house's view)."""
        return self._dealer

    @property
    def stub_available(self) -> int:
        """Cards that can still be dealt (the shoe's, then the discards')."""
        return self._stub.available

    @property
    def to_act(self) -> int | None:
        """The box whose decision is awaited, or ``None``."""
        boxes = self._boxes
        if self._phase is Phase.DECIDING:
            return next((i for i in sorted(boxes) if boxes[i].undecided), None)
        if self._phase is Phase.BUYING:
            return next((i for i in sorted(boxes) if not boxes[i].buy_decided), None)
        return None

    @property
    def pending_seats(self) -> tuple[int, ...]:
        """The seat whose box is to decide (boxes decide one at a time), or none."""
        box = self.to_act
        return () if box is None else (self._boxes[box].seat,)

    def _box(self, box: int) -> Box:
        try:
            return self._boxes[box]
        except (KeyError, TypeError):
            raise refused(
                f"box {box} has no bets",
                "box_has_no_bets",
                box=box if isinstance(box, int) else None,
            ) from None

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
        if self._phase is not Phase.BETTING:
            raise refused(
                f"boxes are placed before the deal, not in phase {self._phase}",
                "bets_closed",
                phase=self._phase.value,
            )
        verify_box(
            self._config,
            self._boxes,
            seat,
            box=box,
            ante=ante,
            bonus=bonus,
            blind=blind,
            insurance=insurance,
            sixth_card=sixth_card,
        )

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
        return succeeds(
            self.verify_place_box,
            seat,
            box=box,
            ante=ante,
            bonus=bonus,
            blind=blind,
            insurance=insurance,
            sixth_card=sixth_card,
        )

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
        bets: dict[str, Any] = dict(ante=ante, bonus=bonus, blind=blind, insurance=insurance)  # noqa: C408
        self.verify_place_box(seat, box=box, sixth_card=sixth_card, **bets)
        config = self._config
        bet = actions.bet_stake(config, ante) if blind else 0
        target = Box(seat=seat, ante=ante, bonus=bonus, blind=blind, bet=bet)
        target.insurance = insurance
        target.advance_insurance = bool(insurance)
        target.advance_sixth = sixth_card
        if sixth_card:
            target.fee = actions.draw_fee(config, ante)
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

    def verify_change_limits(self, limits: Mapping[str, Any]) -> None:
        """Raise unless the limits may change to ``limits`` now, before the deal
        (:func:`~croupier.games.russian.betting.changed_limits`)."""
        changed_limits(self._config, limits, phase=self._phase)

    def change_limits(self, limits: Mapping[str, Any]) -> LimitsChanged | None:
        """The house changes the limits during the betting window: boxes placed from now on
        are checked against them, those placed stand; ``None`` when nothing changes."""
        config = changed_limits(self._config, limits, phase=self._phase)
        if config == self._config:
            return None
        self._config = config
        return self._log(LimitsChanged.of(config))

    def verify_deal(self) -> None:
        """Raise unless the boxes can be dealt.

        Raises:
            IllegalActionError: wrong phase, no box, a seat with blind boxes only, too few cards.
        """
        if self._phase is not Phase.BETTING:
            raise refused(
                f"the cards are dealt once, not in phase {self._phase}",
                "bets_closed",
                phase=self._phase.value,
            )
        if not self._boxes:
            raise refused("no box has an Ante", "no_bets")
        for seat in {b.seat for b in self._boxes.values()}:
            if not self.open_boxes(seat):
                raise refused(
                    f"seat {seat} has blind boxes but no open box",
                    "blind_boxes_need_open_box",
                    seat=seat,
                )
        needed = 5 * (len(self._boxes) + 1) + sum(b.advance_sixth for b in self._boxes.values())
        if self._shoe.remaining < needed:
            raise refused(
                f"the shoe has {self._shoe.remaining} cards, {needed} are needed",
                "shoe_short",
                cards=self._shoe.remaining,
                needed=needed,
            )

    def can_deal(self) -> bool:
        """Whether :meth:`deal` would succeed."""
        return succeeds(self.verify_deal)

    def deal(self) -> CardsDealt:
        """Five cards to every box in order, then five to the dealer (spec "Bets and deal")."""
        self.verify_deal()
        hands = []
        audiences = []
        first_open: dict[int, int] = {}
        for index in sorted(self._boxes):
            box = self._boxes[index]
            box.initial = box.cards = self._shoe.draw(5)
            hands.append((index, box.cards))
            # a player sees a second open box only once the first has decided (docs/rules.md)
            sees = not box.blind and first_open.setdefault(box.seat, index) == index
            audiences.append(box.seat if sees else HOUSE)
            if not box.blind and not sees:
                self._hidden.add(index)
        self._dealer = self._shoe.draw(5)
        self._qualifies = dealer_qualifies(self._dealer)
        self._phase = Phase.DECIDING
        upcard = self._dealer[-1] if self._config.dealer_upcard else None
        event = self._log(
            CardsDealt(
                hands=tuple(hands),
                dealer=self._dealer,
                upcard=upcard,
                audiences=tuple(audiences),
            )
        )
        for index in sorted(self._boxes):
            box = self._boxes[index]
            if box.advance_sixth:
                # docs/rules.md option blind_sixth_card: dealt after the deal, in box order
                card = self._draw(1)[0]
                box.cards = (*box.cards, card)
                box.draw = Draw.SIXTH
                self._log(
                    SixthCardBought(
                        box=index, card=card, fee=Chips(box.fee), seat=box.seat, blind=True
                    )
                )
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
    ) -> Box:
        """The open box ``box`` of ``seat``, if it is its turn in ``phase``."""
        why = f"cannot {action} in phase {self._phase}"
        if self._phase in (Phase.DECIDING, Phase.BUYING) and self._phase is not phase:
            # The other decision phase: the box has a decision open, just not this one
            # (found by red-teaming: a buy while the boxes decide said "nothing to decide").
            raise refused(why, "not_this_phase", phase=self._phase.value)
        if self._phase is not phase:
            raise refused(why, "no_decisions_now", phase=self._phase.value)
        verify_seat(self._config, seat)
        target = self._box(box)
        if target.seat != seat:
            raise refused(
                f"box {box} belongs to seat {target.seat}, not seat {seat}",
                "not_your_box",
                box=box,
                seat=seat,
            )
        if target.blind:
            raise refused(f"box {box} is blind and takes no decisions", "box_is_blind", box=box)
        if self.to_act != box:
            raise refused(
                f"it is box {self.to_act}'s turn, not box {box}'s",
                "not_your_turn",
                box=box,
                to_act=self.to_act,
            )
        return target

    def _verify_waiting(self, box: int, target: Box) -> None:
        if target.status is not BoxStatus.WAITING:
            raise refused(
                f"box {box} has already drawn ({target.draw}); bet or fold",
                "already_drawn",
                box=box,
                draw=target.draw.value,
            )

    def verify_exchange(self, seat: int, *, box: int, discard: Sequence[Card]) -> None:
        """Raise unless ``box`` may exchange the cards ``discard`` (1 to 5 of its own).

        Raises:
            IllegalActionError: not the box's turn, a second draw, cards not in the hand.
        """
        target = self._verify_turn(seat, box, "exchange")
        self._verify_waiting(box, target)
        if not all(isinstance(c, Card) for c in discard):
            raise refused("an exchange names cards", "exchange_not_cards")
        ids = {c.id for c in discard}
        low, high = self._config.exchange_min, self._config.exchange_max
        if len(ids) != len(discard) or not low <= len(ids) <= high:
            raise refused(
                f"an exchange is of {low} to {high} different cards, not {len(discard)}",
                "exchange_count",
                count=len(discard),
                min=low,
                max=high,
            )
        if not ids <= {c.id for c in target.cards}:
            raise refused(
                "an exchange discards cards from the box's own hand", "exchange_not_in_hand"
            )
        if self._stub.available < len(ids):  # pragma: no cover - the config rules it out
            raise refused(
                f"only {self._stub.available} cards are left to deal",
                "shoe_short",
                cards=self._stub.available,
                needed=len(ids),
            )

    def can_exchange(self, seat: int, *, box: int, discard: Sequence[Card]) -> bool:
        """Whether :meth:`exchange` would succeed."""
        return succeeds(self.verify_exchange, seat, box=box, discard=discard)

    def exchange(self, seat: int, *, box: int, discard: Sequence[Card]) -> CardsExchanged:
        """Pay the fee (1x Ante) and exchange ``discard`` for as many new cards."""
        self.verify_exchange(seat, box=box, discard=discard)
        target = self._boxes[box]
        gone = {c.id for c in discard}
        received = self._draw(len(gone))
        target.cards = tuple(c for c in target.cards if c.id not in gone) + received
        target.fee = actions.draw_fee(self._config, target.ante)
        target.draw = Draw.EXCHANGE
        target.status = BoxStatus.DREW
        kept_order = tuple(c for c in target.initial if c.id in gone)
        self._stub.discard(kept_order)
        return self._log(
            CardsExchanged(
                box=box,
                discarded=kept_order,
                received=received,
                fee=Chips(target.fee),
                seat=seat,
            )
        )

    def verify_sixth_card(self, seat: int, *, box: int) -> None:
        """Raise unless ``box`` may buy a sixth card (never after an exchange).

        Raises:
            IllegalActionError: not the box's turn or the box has drawn already.
        """
        target = self._verify_turn(seat, box, "buy a sixth card")
        self._verify_waiting(box, target)
        if self._stub.available < 1:  # pragma: no cover - the config rules it out
            raise refused("no card is left to deal", "shoe_short", cards=0, needed=1)

    def can_sixth_card(self, seat: int, *, box: int) -> bool:
        """Whether :meth:`sixth_card` would succeed."""
        return succeeds(self.verify_sixth_card, seat, box=box)

    def sixth_card(self, seat: int, *, box: int) -> SixthCardBought:
        """Pay the fee (1x Ante) for a sixth card."""
        self.verify_sixth_card(seat, box=box)
        target = self._boxes[box]
        card = self._draw(1)[0]
        target.cards = (*target.cards, card)
        target.fee = actions.draw_fee(self._config, target.ante)
        target.draw = Draw.SIXTH
        target.status = BoxStatus.DREW
        return self._log(SixthCardBought(box=box, card=card, fee=Chips(target.fee), seat=seat))

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
        whole("insurance", insurance)
        if insurance < 0:
            raise refused(
                f"insurance {insurance} is negative",
                "amount_negative",
                spot="insurance",
                amount=insurance,
            )
        if insurance:
            limits = insurance_limits(target.cards, ante=target.ante, config=self._config)
            if limits is None:
                raise refused("insurance needs three of a kind or better", "insurance_needs_trips")
            if not limits[0] <= insurance <= limits[1]:
                raise refused(
                    f"insurance {insurance} is outside {limits[0]}..{limits[1]} for this hand",
                    "bet_out_of_limits",
                    spot="insurance",
                    amount=insurance,
                    min=limits[0],
                    max=limits[1],
                )

    def can_bet(self, seat: int, *, box: int, insurance: int = 0) -> bool:
        """Whether :meth:`bet` would succeed."""
        return succeeds(self.verify_bet, seat, box=box, insurance=insurance)

    def bet(self, seat: int, *, box: int, insurance: int = 0) -> BetPlaced:
        """Place the Bet (2x Ante) and stand, with optional insurance (spec decision 3)."""
        self.verify_bet(seat, box=box, insurance=insurance)
        target = self._boxes[box]
        target.bet = actions.bet_stake(self._config, target.ante)
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
        return succeeds(self.verify_fold, seat, box=box)

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

    def _verify_buy_turn(self, seat: int, box: int, action: str) -> Box:
        return self._verify_turn(seat, box, action, phase=Phase.BUYING)

    def verify_buy_game(self, seat: int, *, box: int) -> None:
        """Raise unless ``box`` may buy the dealer's game (dealer not qualified, box stood).

        Raises:
            IllegalActionError: wrong phase or turn.
        """
        self._verify_buy_turn(seat, box, "buy the dealer's game")
        if self._stub.available < 1:  # pragma: no cover - the config rules it out
            raise refused("no card is left to deal", "shoe_short", cards=0, needed=1)

    def can_buy_game(self, seat: int, *, box: int) -> bool:
        """Whether :meth:`buy_game` would succeed."""
        return succeeds(self.verify_buy_game, seat, box=box)

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
        fee = target.buy_fee = actions.buy_fee(self._config, target.ante)
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
        return succeeds(self.verify_decline_buy, seat, box=box)

    def decline_buy(self, seat: int, *, box: int) -> BuyDeclined:
        """Take the Ante paid 1:1 instead of buying the dealer's game."""
        self.verify_decline_buy(seat, box=box)
        self._boxes[box].buy_decided = True
        event = self._log(BuyDeclined(box=box))
        self._advance()
        return event

    # -- the engine protocol (croupier.games.protocol) -------------------------------------

    def legal_actions(self, seat: int | None) -> tuple[Legal, ...]:
        """What ``seat`` may do now, with the bounds of every amount and the boxes it may
        take; ``None``: the house (:class:`Deal` once the boxes can be dealt)."""
        return engine.legal_actions(self, seat)

    def verify(self, action: RussianAction) -> None:
        """Raise unless :meth:`apply` accepts ``action``; nothing changes either way."""
        engine.verify_action(self, action)

    def can(self, action: RussianAction) -> bool:
        """Whether :meth:`apply` would accept ``action``."""
        return succeeds(self.verify, action)

    def apply(self, action: RussianAction) -> tuple[RussianEvent, ...]:
        """Take ``action`` (validated whole first: a refused action changes nothing); the
        events it caused, in order (the dealer shown and the settlement that follow)."""
        engine.verify_action(self, action)
        start = len(self._events)
        engine.apply_action(self, action)
        return tuple(self._events[start:])

    def default_action(self, seat: int) -> Fold | DeclineBuy | None:
        """What ``seat`` does when its box's time runs out: fold (the spec sets no default
        and folding moves no money), or decline to buy the dealer's game; ``None`` when no
        box of the seat is to decide."""
        return engine.default_action(self, seat)

    def staked(self) -> dict[int, Chips]:
        """Each seat's money on the table now, over all its boxes (fees included)."""
        return engine.seat_totals(self, self.stake)

    def price(self, action: RussianAction) -> Chips:
        """The wallet money ``action`` needs (:func:`.engine.price`)."""
        return engine.price(self, action)

    def returns(self) -> dict[int, Chips]:
        """Everything paid back to each seat over its boxes, stakes included, once the round
        is settled; every stake once it is voided; empty before."""
        if self._phase is Phase.VOIDED:
            return self.staked()
        if self._phase is not Phase.SETTLED:
            return {}
        return engine.seat_totals(self, lambda box: self.settlement(box).returned)

    # -- faults ----------------------------------------------------------------------------

    def verify_void(self) -> None:
        """Raise once the round is settled or voided (``IllegalActionError``, round_over)."""
        if self.finished:
            raise refused(
                f"a round in phase {self._phase} cannot be voided",
                "round_over",
                phase=self._phase.value,
            )

    def can_void(self) -> bool:
        """Whether :meth:`void` would succeed."""
        return not self.finished

    def void(self, reason: str) -> RoundVoided:
        """Void the round for a misdeal or malfunction; every stake, fees included, goes back."""
        self.verify_void()
        returned = tuple((index, Chips(self._boxes[index].staked)) for index in sorted(self._boxes))
        self._phase = Phase.VOIDED
        return self._log(RoundVoided(reason=reason, returned=returned))

    # -- views -----------------------------------------------------------------------------

    def view(self, seat: int | None) -> RussianView:
        """What ``seat`` may see (``None``: a spectator): its own open box's cards, its blind
        boxes after the showdown, the dealer once shown (or the upcard), and no other seat's
        cards."""
        return round_view(
            seat,
            phase=self._phase,
            boxes=self._boxes,
            dealer=self._dealer,
            upcard=self._config.dealer_upcard,
            to_act=self.to_act,
        )

    # -- internals -------------------------------------------------------------------------

    def _log(self, event: _E) -> _E:
        self._events.append(event)
        return event

    def _advance(self) -> None:
        """Move on when nobody has a decision left: show the dealer, offer buys, settle.
        A second open box whose first has decided is shown to its owner."""
        for index in sorted(self._hidden):
            if not waits_for_earlier_box(self._boxes, index):
                self._hidden.discard(index)
                box = self._boxes[index]
                self._log(BoxShown(box=index, seat=box.seat, cards=box.cards, public=False))
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
        for index, b, settled in settle_boxes(self._config, self._boxes, self._dealer):
            if b.blind:  # turned face up at the showdown
                self._log(BoxShown(box=index, seat=b.seat, cards=b.cards, public=True))
            self._log(BoxSettled(box=index, seat=b.seat, settlement=settled))
        self._phase = Phase.SETTLED
