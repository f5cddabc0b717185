"""One round of Caribbean Stud Poker as a state machine (docs/rules.md "Caribbean Stud Poker").

Phases: betting -> deciding -> showdown -> settled, or voided. Every command has a
``verify_*`` that raises :class:`IllegalActionError` without changing anything, a ``can_*``
that answers with a bool, and the command itself, which returns the frozen event it appended
to :attr:`CaribbeanRound.events`. Every box decides at once (raise or fold, in any order);
when the last has decided the round reveals the dealer's hand and settles.

It implements :class:`croupier.games.protocol.Engine`: :meth:`CaribbeanRound.apply` takes the
typed actions of :mod:`croupier.games.caribbean.actions`, and :meth:`CaribbeanRound.price`
says what each costs.

>>> from croupier.deck import Shoe, seeded_source, shuffled
>>> from croupier.games.caribbean.actions import Deal, PlaceBets, Raise
>>> rnd = CaribbeanRound(CaribbeanConfig(), Shoe(shuffled(seeded_source(1))))
>>> _ = rnd.apply(PlaceBets(seat=0, ante=1000))
>>> _ = rnd.apply(Deal())
>>> rnd.phase, [legal.kind for legal in rnd.legal_actions(0)], rnd.price(Raise(seat=0))
(<Phase.DECIDING: 'deciding'>, ['raise', 'fold'], 2000)
>>> [type(e).__name__ for e in rnd.apply(Raise(seat=0))][-1]
'RoundSettled'
>>> rnd.phase, rnd.returns() == {0: rnd.results[0].returned}
(<Phase.SETTLED: 'settled'>, True)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TypeVar

from croupier.cards import Card
from croupier.chips import Chips
from croupier.deck import Shoe
from croupier.errors import ConfigError, IllegalActionError
from croupier.evaluator import category_of, evaluate_ids
from croupier.games.caribbean.actions import (
    AddProgressive,
    CaribbeanAction,
    Deal,
    Fold,
    PlaceBets,
    Raise,
    WithdrawBets,
)
from croupier.games.caribbean.config import CaribbeanConfig
from croupier.games.caribbean.dealing import deal_plan
from croupier.games.caribbean.events import (
    BetsPlaced,
    BetsWithdrawn,
    BettingClosed,
    BoxSettled,
    CaribbeanEvent,
    DealerHandDealt,
    DealerRevealed,
    Folded,
    HandDealt,
    PhaseChanged,
    ProgressivePlaced,
    Raised,
    RoundSettled,
    RoundVoided,
    UpcardShown,
)
from croupier.games.caribbean.rules import (
    BoxResult,
    dealer_qualifies,
    opening_stake,
    progressive_results,
    settle_box,
)
from croupier.games.protocol import Among, Amount, Legal, refused, succeeds

__all__ = ["BoxView", "CaribbeanRound", "Phase", "SeatView"]

_E = TypeVar("_E", bound=CaribbeanEvent)


class Phase(StrEnum):
    """The phases of a round, in order."""

    BETTING = "betting"
    DECIDING = "deciding"
    SHOWDOWN = "showdown"
    SETTLED = "settled"
    VOIDED = "voided"


@dataclass(frozen=True, slots=True, kw_only=True)
class BoxView:
    """The public state of one seat's box."""

    seat: int
    ante: Chips
    progressive: Chips
    raised: Chips
    """The Raise bet (0 until the box raises)."""
    folded: bool
    decided: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatView:
    """What one seat may see: its own five cards, the dealer's up card once dealt, the
    dealer's whole hand after the showdown (``seat`` ``None``: a spectator)."""

    seat: int | None
    phase: Phase
    hand: tuple[Card, ...]
    upcard: Card | None
    dealer: tuple[Card, ...] | None
    box: BoxView | None
    legal: tuple[str, ...]
    """The seat's decisions now: ``"raise"`` and ``"fold"``, or none."""
    result: BoxResult | None
    jackpot: Chips
    """The jackpot meter the round's progressive prizes are paid from."""


class _Box:
    __slots__ = ("ante", "decided", "folded", "hand", "progressive", "raised", "seat")

    def __init__(self, seat: int, ante: int, progressive: int) -> None:
        self.seat = seat
        self.ante = ante
        self.progressive = progressive
        self.raised = 0
        self.folded = False
        self.decided = False
        self.hand: tuple[Card, ...] = ()

    @property
    def staked(self) -> int:
        return opening_stake(ante=self.ante, progressive=self.progressive) + self.raised

    def view(self) -> BoxView:
        return BoxView(
            seat=self.seat,
            ante=Chips(self.ante),
            progressive=Chips(self.progressive),
            raised=Chips(self.raised),
            folded=self.folded,
            decided=self.decided,
        )


class CaribbeanRound:
    """One round at one table: up to ``max_seats`` boxes against one dealer hand.

    ``jackpot`` is the progressive meter when the round is dealt (the server keeps the meter;
    the engine pays the round's percentage prizes from it and says how much it took).
    """

    def __init__(self, config: CaribbeanConfig, shoe: Shoe, *, jackpot: int = 0) -> None:
        if isinstance(jackpot, bool) or not isinstance(jackpot, int) or jackpot < 0:
            raise ConfigError(f"jackpot = {jackpot!r} is not an amount of minor units >= 0")
        self._config = config
        self._shoe = shoe
        self._jackpot = Chips(jackpot)
        self._phase = Phase.BETTING
        self._boxes: dict[int, _Box] = {}
        self._events: list[CaribbeanEvent] = []
        self._dealer: tuple[Card, ...] = ()
        self._results: dict[int, BoxResult] = {}
        self._undecided = 0
        self._jackpot_paid = Chips(0)

    # -- read-only state -------------------------------------------------------------------

    @property
    def config(self) -> CaribbeanConfig:
        """The table configuration."""
        return self._config

    @property
    def phase(self) -> Phase:
        """The current phase."""
        return self._phase

    @property
    def events(self) -> tuple[CaribbeanEvent, ...]:
        """Everything that happened, in order."""
        return tuple(self._events)

    def events_since(self, index: int) -> tuple[CaribbeanEvent, ...]:
        """The events from position ``index`` on (what a table has not yet sent)."""
        return tuple(self._events[index:])

    @property
    def finished(self) -> bool:
        """Settled or voided."""
        return self._phase in (Phase.SETTLED, Phase.VOIDED)

    @property
    def shoe(self) -> Shoe:
        """The shoe the round deals from (its order is the round's record)."""
        return self._shoe

    @property
    def jackpot(self) -> Chips:
        """The jackpot meter the round was given."""
        return self._jackpot

    @property
    def jackpot_paid(self) -> Chips:
        """How much the round's percentage prizes took from the meter (0 until settled)."""
        return self._jackpot_paid

    @property
    def seats(self) -> tuple[int, ...]:
        """Seats with bets, in dealing order (left to right)."""
        return tuple(sorted(self._boxes))

    def has_box(self, seat: int) -> bool:
        """Whether ``seat`` has bets in this round."""
        return seat in self._boxes

    @property
    def pending_seats(self) -> tuple[int, ...]:
        """Seats that still have to decide."""
        if self._phase is not Phase.DECIDING:
            return ()
        return tuple(s for s, box in sorted(self._boxes.items()) if not box.decided)

    @property
    def results(self) -> dict[int, BoxResult]:
        """Settled boxes (a copy) in the order they were settled, right to left; empty until
        the round is settled."""
        return dict(self._results)

    def box(self, seat: int) -> BoxView:
        """The public state of ``seat``'s box."""
        return self._box(seat).view()

    def hand(self, seat: int) -> tuple[Card, ...]:
        """``seat``'s five cards (the house's view; seats see theirs via :meth:`view`)."""
        return self._box(seat).hand

    @property
    def dealer_cards(self) -> tuple[Card, ...]:
        """The dealer's five in the order dealt, the up card last (the house's view)."""
        return self._dealer

    @property
    def upcard(self) -> Card | None:
        """The dealer's face-up card, once dealt."""
        return self._dealer[-1] if self._dealer else None

    # -- betting -----------------------------------------------------------------------------

    def _verify_betting(self) -> None:
        if self._phase is not Phase.BETTING:
            raise refused(
                f"bets are closed: the round is in the {self._phase} phase",
                "bets_closed",
                phase=self._phase.value,
            )

    def verify_place_bets(self, seat: int, *, ante: int, progressive: bool = False) -> None:
        """Raise unless ``seat`` may place ``ante`` (and the progressive bet) now."""
        config = self._config
        self._verify_betting()
        _check_seat_number(seat, config)
        if seat not in self._boxes and len(self._boxes) >= config.max_seats:
            raise refused(
                f"the table is full ({config.max_seats} boxes)",
                "table_full",
                seats=config.max_seats,
            )
        _check_amount("ante", ante, config.ante_min, config.ante_max)
        if not isinstance(progressive, bool):
            raise refused(
                f"progressive must be true or false, not {progressive!r}",
                "not_a_choice",
                field="progressive",
            )
        if progressive and config.progressive_bet is None:
            raise refused(
                "this table has no progressive jackpot bet", "unknown_spots", spots=["progressive"]
            )

    def can_place_bets(self, seat: int, *, ante: int, progressive: bool = False) -> bool:
        """Whether :meth:`place_bets` would succeed."""
        return succeeds(self.verify_place_bets, seat, ante=ante, progressive=progressive)

    def place_bets(self, seat: int, *, ante: int, progressive: bool = False) -> BetsPlaced:
        """Place (or replace) ``seat``'s Ante, and the table's progressive bet if asked."""
        self.verify_place_bets(seat, ante=ante, progressive=progressive)
        side = (self._config.progressive_bet or 0) if progressive else 0
        self._boxes[seat] = _Box(seat, ante, side)
        return self._log(BetsPlaced(seat=seat, ante=Chips(ante), progressive=Chips(side)))

    def verify_add_progressive(self, seat: int) -> None:
        """Raise unless ``seat``, whose Ante is placed, may add the progressive bet now (in
        the same betting window: Trump Indiana)."""
        self._verify_betting()
        box = self._box(seat)
        if self._config.progressive_bet is None:
            raise refused(
                "this table has no progressive jackpot bet", "unknown_spots", spots=["progressive"]
            )
        if box.progressive:
            raise refused(f"seat {seat} has the progressive bet already", "already_bet")

    def can_add_progressive(self, seat: int) -> bool:
        """Whether :meth:`add_progressive` would succeed."""
        return succeeds(self.verify_add_progressive, seat)

    def add_progressive(self, seat: int) -> ProgressivePlaced:
        """Add the table's progressive bet to ``seat``'s box."""
        self.verify_add_progressive(seat)
        box = self._boxes[seat]
        box.progressive = self._config.progressive_bet or 0
        return self._log(ProgressivePlaced(seat=seat, amount=Chips(box.progressive)))

    def verify_withdraw_bets(self, seat: int) -> None:
        """Raise unless ``seat`` has bets it may still take back."""
        self._verify_betting()
        self._box(seat)

    def can_withdraw_bets(self, seat: int) -> bool:
        """Whether :meth:`withdraw_bets` would succeed."""
        return succeeds(self.verify_withdraw_bets, seat)

    def withdraw_bets(self, seat: int) -> BetsWithdrawn:
        """Take ``seat``'s bets back before betting closes."""
        self.verify_withdraw_bets(seat)
        del self._boxes[seat]
        return self._log(BetsWithdrawn(seat=seat))

    def change_limits(self, *, ante_min: int, ante_max: int) -> None:
        """New Ante limits for the bets placed from now on in this betting window (an
        operator's change, seed 003 "tudi med igro"); the bets placed stand.

        Raises:
            IllegalActionError: betting is closed.
            ConfigError: limits the table's settings refuse (nothing changes).
        """
        self._verify_betting()
        self._config = replace(self._config, ante_min=Chips(ante_min), ante_max=Chips(ante_max))

    def verify_close_betting(self) -> None:
        """Raise unless betting can close: the betting phase, a box, cards enough."""
        self._verify_betting()
        if not self._boxes:
            raise refused("no bets: a round needs at least one box with an Ante", "no_bets")
        needed = deal_plan(self._config.dealing, boxes=len(self._boxes)).size
        if self._shoe.remaining < needed:
            raise refused(
                f"the shoe has {self._shoe.remaining} cards, the round needs {needed}",
                "shoe_short",
                cards=self._shoe.remaining,
                needed=needed,
            )

    def can_close_betting(self) -> bool:
        """Whether :meth:`close_betting` would succeed."""
        return succeeds(self.verify_close_betting)

    def close_betting(self) -> BettingClosed:
        """No more bets: five cards to every box and to the dealer, the dealer's last face up
        (:func:`~croupier.games.caribbean.dealing.deal_plan`)."""
        self.verify_close_betting()
        event = self._log(BettingClosed(seats=self.seats, jackpot=self._jackpot))
        plan = deal_plan(self._config.dealing, boxes=len(self._boxes))
        deck = self._shoe.draw(plan.size)
        for seat, positions in zip(self.seats, plan.hands, strict=True):
            box = self._boxes[seat]
            box.hand = tuple(deck[i] for i in positions)
            self._log(HandDealt(seat=seat, cards=box.hand))
        self._dealer = tuple(deck[i] for i in plan.dealer)
        self._log(DealerHandDealt(cards=self._dealer))
        self._log(UpcardShown(card=self._dealer[-1]))
        self._phase = Phase.DECIDING
        self._undecided = len(self._boxes)
        self._log(PhaseChanged(phase=Phase.DECIDING.value))
        return event

    # -- decisions ---------------------------------------------------------------------------

    def legal_words(self, seat: int) -> tuple[str, ...]:
        """``seat``'s decisions now as words, ``("raise", "fold")`` or none (the client's
        hints, :attr:`SeatView.legal`)."""
        box = self._boxes.get(seat)
        if box is None or box.decided or self._phase is not Phase.DECIDING:
            return ()
        return ("raise", "fold")

    def _verify_turn(self, seat: int) -> _Box:
        if self._phase is not Phase.DECIDING:
            raise refused(
                f"no decisions are taken in the {self._phase} phase",
                "no_decisions_now",
                phase=self._phase.value,
            )
        box = self._box(seat)
        if box.decided:
            raise refused(
                f"seat {seat} has decided already", "already_acted", seat=seat, phase="deciding"
            )
        return box

    def verify_raise(self, seat: int) -> None:
        """Raise unless ``seat`` may bet the Raise now."""
        self._verify_turn(seat)

    def can_raise(self, seat: int) -> bool:
        """Whether :meth:`bet_raise` would succeed."""
        return succeeds(self.verify_raise, seat)

    def bet_raise(self, seat: int, *, timeout: bool = False) -> Raised:
        """Stay in with the Raise: ``raise_multiple`` x Ante."""
        box = self._verify_turn(seat)
        box.raised = self._config.raise_multiple * box.ante
        event = self._decided(box, Raised(seat=seat, amount=Chips(box.raised), timeout=timeout))
        return event

    def verify_fold(self, seat: int) -> None:
        """Raise unless ``seat`` may fold now."""
        self._verify_turn(seat)

    def can_fold(self, seat: int) -> bool:
        """Whether :meth:`fold` would succeed."""
        return succeeds(self.verify_fold, seat)

    def fold(self, seat: int, *, timeout: bool = False) -> Folded:
        """Fold: the Ante (and the progressive bet) is lost."""
        box = self._verify_turn(seat)
        box.folded = True
        return self._decided(box, Folded(seat=seat, timeout=timeout))

    def _decided(self, box: _Box, event: _E) -> _E:
        box.decided = True
        self._undecided -= 1
        self._log(event)
        if not self._undecided:
            self._showdown()
        return event

    def default_action(self, seat: int) -> Fold | None:
        """What ``seat`` does when its time runs out: it folds (docs/rules.md); ``None`` when
        it has nothing to decide."""
        box = self._boxes.get(seat)
        if box is None or box.decided or self._phase is not Phase.DECIDING:
            return None
        return Fold(seat=seat, timeout=True)

    # -- the engine protocol (croupier.games.protocol) -----------------------------------------

    def legal_actions(self, seat: int | None) -> tuple[Legal, ...]:
        """What ``seat`` may do now, with the bounds of every amount; ``None``: the house
        (:class:`Deal` once betting may close)."""
        if seat is None:
            return (Legal(Deal()),) if self.can_close_betting() else ()
        if self._phase is Phase.BETTING:
            return self._legal_bets(seat)
        if self.legal_words(seat):
            return (Legal(Raise(seat=seat)), Legal(Fold(seat=seat)))
        return ()

    def _legal_bets(self, seat: int) -> tuple[Legal, ...]:
        c = self._config
        if not succeeds(_check_seat_number, seat, c):
            return ()
        legal: list[Legal] = []
        box = self._boxes.get(seat)
        if box is not None or len(self._boxes) < c.max_seats:
            free: tuple[Amount | Among, ...] = (Amount("ante", c.ante_min, c.ante_max),)
            if c.progressive_bet is not None:
                free += (Among("progressive", (False, True)),)
            legal.append(Legal(PlaceBets(seat=seat, ante=Chips(c.ante_min)), free=free))
        if box is not None:
            legal.append(Legal(WithdrawBets(seat=seat)))
            if c.progressive_bet is not None and not box.progressive:
                legal.append(Legal(AddProgressive(seat=seat)))
        return tuple(legal)

    def verify(self, action: CaribbeanAction) -> None:
        """Raise unless :meth:`apply` accepts ``action``; nothing changes either way."""
        match action:
            case PlaceBets(seat=seat, ante=ante, progressive=progressive):
                self.verify_place_bets(seat, ante=ante, progressive=progressive)
            case AddProgressive(seat=seat):
                self.verify_add_progressive(seat)
            case WithdrawBets(seat=seat):
                self.verify_withdraw_bets(seat)
            case Deal():
                self.verify_close_betting()
            case Raise(seat=seat):
                self.verify_raise(seat)
            case Fold(seat=seat):
                self.verify_fold(seat)
            case _:
                raise _unknown(action)

    def can(self, action: CaribbeanAction) -> bool:
        """Whether :meth:`apply` would accept ``action``."""
        return succeeds(self.verify, action)

    def apply(self, action: CaribbeanAction) -> tuple[CaribbeanEvent, ...]:
        """Take ``action`` (validated whole first: a refused action changes nothing); the
        events it caused, in order (the deal and a settlement that follow included)."""
        start = len(self._events)
        match action:
            case PlaceBets(seat=seat, ante=ante, progressive=progressive):
                self.place_bets(seat, ante=ante, progressive=progressive)
            case AddProgressive(seat=seat):
                self.add_progressive(seat)
            case WithdrawBets(seat=seat):
                self.withdraw_bets(seat)
            case Deal():
                self.close_betting()
            case Raise(seat=seat, timeout=timeout):
                self.bet_raise(seat, timeout=timeout)
            case Fold(seat=seat, timeout=timeout):
                self.fold(seat, timeout=timeout)
            case _:
                raise _unknown(action)
        return tuple(self._events[start:])

    def price(self, action: CaribbeanAction) -> Chips:
        """The wallet money ``action`` needs: the Ante and the progressive bet of a
        :class:`PlaceBets` (replacing a box's bets: its new bets in full), the progressive
        bet of an :class:`AddProgressive`, the Raise of a :class:`Raise`; 0 for anything
        else. The one place these amounts are computed.

        Raises:
            IllegalActionError: ``apply`` would refuse ``action`` (as :meth:`verify`).
        """
        self.verify(action)
        match action:
            case PlaceBets(ante=ante, progressive=progressive):
                side = (self._config.progressive_bet or 0) if progressive else 0
                return opening_stake(ante=ante, progressive=side)
            case AddProgressive():
                return Chips(self._config.progressive_bet or 0)
            case Raise(seat=seat):
                return Chips(self._config.raise_multiple * self._boxes[seat].ante)
        return Chips(0)

    def staked(self) -> dict[int, Chips]:
        """Each seat's money on the table now (Ante, progressive, Raise)."""
        return {seat: Chips(box.staked) for seat, box in sorted(self._boxes.items())}

    def returns(self) -> dict[int, Chips]:
        """Everything paid back to each seat, stakes included, once the round is settled;
        every stake once it is voided; empty before."""
        if self._phase is Phase.VOIDED:
            return self.staked()
        return {seat: Chips(result.returned) for seat, result in sorted(self._results.items())}

    # -- faults ------------------------------------------------------------------------------

    def verify_void(self) -> None:
        """Raise unless the round can still be voided (not settled or voided already)."""
        if self.finished:
            raise refused(
                f"a {self._phase} round cannot be voided", "round_over", phase=self._phase.value
            )

    def can_void(self) -> bool:
        """Whether :meth:`void` would succeed."""
        return not self.finished

    def void(self, reason: str) -> RoundVoided:
        """Void the round: every bet returned, nothing paid (a misdeal or a malfunction)."""
        self.verify_void()
        refunds = tuple((seat, Chips(box.staked)) for seat, box in sorted(self._boxes.items()))
        self._phase = Phase.VOIDED
        self._log(PhaseChanged(phase=Phase.VOIDED.value))
        return self._log(RoundVoided(reason=reason, refunds=refunds))

    # -- views -------------------------------------------------------------------------------

    def view(self, seat: int | None) -> SeatView:
        """What ``seat`` may see now (``None``: a spectator); the dealer's hand only after the
        showdown."""
        box = None if seat is None else self._boxes.get(seat)
        shown = self._phase in (Phase.SHOWDOWN, Phase.SETTLED)
        return SeatView(
            seat=seat,
            phase=self._phase,
            hand=box.hand if box else (),
            upcard=self.upcard,
            dealer=self._dealer if shown else None,
            box=box.view() if box else None,
            legal=() if seat is None else self.legal_words(seat),
            result=None if seat is None else self._results.get(seat),
            jackpot=self._jackpot,
        )

    # -- internals ---------------------------------------------------------------------------

    def _box(self, seat: int) -> _Box:
        box = self._boxes.get(seat)
        if box is None:
            raise refused(
                f"seat {seat!r} has no box in this round",
                "no_bets_this_round",
                seat=seat if isinstance(seat, int) else None,
            )
        return box

    def _log(self, event: _E) -> _E:
        self._events.append(event)
        return event

    def _showdown(self) -> None:
        self._phase = Phase.SHOWDOWN
        self._log(PhaseChanged(phase=Phase.SHOWDOWN.value))
        dealer_value = evaluate_ids([c.id for c in self._dealer])
        self._log(
            DealerRevealed(
                cards=self._dealer, value=dealer_value, qualifies=dealer_qualifies(dealer_value)
            )
        )
        # the dealer settles from the right: the highest box first (Golden Key Casino)
        order = sorted(self._boxes.items(), reverse=True)
        values = {seat: evaluate_ids([c.id for c in box.hand]) for seat, box in order}
        side, self._jackpot_paid = progressive_results(
            [(s, category_of(values[s]), b.folded) for s, b in order if b.progressive],
            bet=self._config.progressive_bet or 0,
            table=self._config.progressive_paytable,
            jackpot=self._jackpot,
        )
        players_net = 0
        for seat, box in order:
            result = settle_box(
                seat=seat,
                player=values[seat],
                dealer=dealer_value,
                ante=box.ante,
                raised=bool(box.raised),
                config=self._config,
                progressive=side.get(seat),
            )
            self._results[seat] = result
            players_net += result.net
            self._log(BoxSettled(result=result))
        self._phase = Phase.SETTLED
        self._log(PhaseChanged(phase=Phase.SETTLED.value))
        self._log(
            RoundSettled(
                players_net=Chips(players_net),
                house_net=Chips(-players_net),
                jackpot_paid=self._jackpot_paid,
            )
        )


def _check_seat_number(seat: int, config: CaribbeanConfig) -> None:
    if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
        raise refused(f"seat {seat!r} is not a seat number", "seat_does_not_exist")
    if seat >= config.max_seats:
        raise refused(
            f"seat {seat} does not exist: the table has seats 0..{config.max_seats - 1}",
            "seat_does_not_exist",
            seat=seat,
            seats=config.max_seats,
        )


def _check_amount(name: str, amount: int, low: int, high: int) -> None:
    if not isinstance(amount, int) or isinstance(amount, bool):
        raise refused(
            f"{name} {amount!r} is not a whole number of minor units", "amount_not_whole", spot=name
        )
    if not low <= amount <= high:
        raise refused(
            f"{name} {amount} is outside the table limits {low}..{high}",
            "bet_out_of_limits",
            spot=name,
            amount=amount,
            min=low,
            max=high,
        )


def _unknown(action: object) -> IllegalActionError:
    kind = getattr(action, "kind", type(action).__name__)
    return refused(
        f"{kind!r} is not an action of a Caribbean Stud round", "unknown_action", action=kind
    )
