"""One round of Ultimate Texas Hold'em as a state machine (spec/uth.md).

Phases: betting -> pre-flop -> flop -> river -> showdown -> settled, or void. Every command
has a ``verify_*`` that raises :class:`IllegalActionError` without changing anything, a
``can_*`` that answers with a bool, and the command itself, which returns the frozen event
it appended to :attr:`UthRound.events`. When the last seat of a phase has decided, the
round deals the next cards by itself; after the river it reveals the dealer and settles.

It implements :class:`croupier.games.protocol.Engine`: :meth:`UthRound.apply` takes the typed
actions of :mod:`croupier.games.uth.actions` and calls the command behind each.

>>> from croupier.deck import Shoe, seeded_source, shuffled
>>> from croupier.games.uth.actions import Deal, PlaceBets, Play
>>> rnd = UthRound(UthConfig(), Shoe(shuffled(seeded_source(1))))
>>> _ = rnd.apply(PlaceBets(seat=0, ante=1000, trips=500))
>>> _ = rnd.apply(Deal())
>>> rnd.phase, rnd.pending_seats, [legal.kind for legal in rnd.legal_actions(0)]
(<Phase.PREFLOP: 'pre-flop'>, (0,), ['check', 'play', 'play'])
>>> [type(e).__name__ for e in rnd.apply(Play(seat=0, multiple=4))][-1]
'RoundSettled'
>>> rnd.phase, rnd.returns() == {0: rnd.results[0].returned}
(<Phase.SETTLED: 'settled'>, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, TypeVar

from croupier.cards import Card
from croupier.chips import Chips
from croupier.deck import Shoe
from croupier.errors import IllegalActionError
from croupier.evaluator import evaluate_ids
from croupier.games.protocol import Amount, Legal, refused, succeeds
from croupier.games.uth.actions import (
    AddTrips,
    Check,
    Deal,
    Fold,
    PlaceBets,
    Play,
    UthAction,
    WithdrawBets,
    price,
)
from croupier.games.uth.box import DECISION_PHASES, Box, BoxView, Phase, SeatView
from croupier.games.uth.config import UthConfig
from croupier.games.uth.dealing import DealPlan, deal_plan
from croupier.games.uth.events import (
    SHARED_SEAT,
    AntesReturned,
    BetsPlaced,
    BetsWithdrawn,
    BettingClosed,
    BoardDealt,
    CardBurned,
    Checked,
    DealerCardsDealt,
    DealerRevealed,
    Folded,
    HoleCardsDealt,
    LimitsChanged,
    PhaseChanged,
    PlayBet,
    RoundSettled,
    RoundVoided,
    SeatSettled,
    TripsPlaced,
    UthEvent,
)
from croupier.games.uth.rules import (
    SeatResult,
    check_unit,
    dealer_qualifies,
    settle_seat,
)

__all__ = ["SHARED_SEAT", "BoxView", "Phase", "SeatView", "UthRound"]

_E = TypeVar("_E", bound=UthEvent)


class UthRound:
    """One round at one table: any number of seats sharing one dealer hand and one board."""

    def __init__(self, config: UthConfig, shoe: Shoe) -> None:
        self._config = self._opening = config
        self._shoe = shoe
        self._phase = Phase.BETTING
        self._boxes: dict[int, Box] = {}
        self._events: list[UthEvent] = []
        self._board: tuple[Card, ...] = ()
        self._dealer: tuple[Card, ...] = ()
        self._shared: tuple[Card, ...] = ()
        self._results: dict[int, SeatResult] = {}
        self._undecided = 0
        self._burn: Card | None = None
        self._coming: tuple[Card, ...] = ()
        """The community cards dealt face down, turned at the flop and the river."""

    # -- read-only state -------------------------------------------------------------------

    @property
    def config(self) -> UthConfig:
        """The table configuration."""
        return self._config

    @property
    def opening_config(self) -> UthConfig:
        """The table configuration the round opened with (:attr:`config` is the one in force:
        its limits may have changed in the betting window, :meth:`change_limits`)."""
        return self._opening

    @property
    def phase(self) -> Phase:
        """The current phase."""
        return self._phase

    @property
    def events(self) -> tuple[UthEvent, ...]:
        """Everything that happened, in order."""
        return tuple(self._events)

    @property
    def finished(self) -> bool:
        """Settled or voided."""
        return self._phase in (Phase.SETTLED, Phase.VOIDED)

    def events_since(self, index: int) -> tuple[UthEvent, ...]:
        """The events from position ``index`` on (what a table has not yet sent)."""
        return tuple(self._events[index:])

    @property
    def seats(self) -> tuple[int, ...]:
        """Seats with bets, in dealing order (left to right)."""
        return tuple(sorted(self._boxes))

    def has_box(self, seat: int) -> bool:
        """Whether ``seat`` has bets in this round (without listing every seat)."""
        return seat in self._boxes

    @property
    def box_count(self) -> int:
        """How many seats have bets (O(1), for live tables)."""
        return len(self._boxes)

    @property
    def board(self) -> tuple[Card, ...]:
        """Community cards dealt so far."""
        return self._board

    @property
    def shoe(self) -> Shoe:
        """The shoe the round deals from (its order is the round's record)."""
        return self._shoe

    @property
    def pending_seats(self) -> tuple[int, ...]:
        """Seats that still have to decide in the current decision phase."""
        if self._phase not in DECISION_PHASES:
            return ()
        return tuple(s for s, box in sorted(self._boxes.items()) if not box.decided)

    @property
    def pending_count(self) -> int:
        """How many seats still have to decide in the current phase (O(1), for live tables)."""
        return self._undecided if self._phase in DECISION_PHASES else 0

    @property
    def results(self) -> dict[int, SeatResult]:
        """Settled seats (a copy) in the order they were settled, right to left (seed 003);
        empty until the round is settled."""
        return dict(self._results)

    def box(self, seat: int) -> BoxView:
        """The public state of ``seat``'s box."""
        return self._box(seat).view()

    def hole_cards(self, seat: int) -> tuple[Card, ...]:
        """The player cards ``seat`` plays (the shared hand on a live table)."""
        return self._shared if self._config.shared_hand else self._box(seat).hole

    @property
    def dealer_cards(self) -> tuple[Card, ...]:
        """The dealer's hole cards (house knowledge; seats see them via :meth:`view`)."""
        return self._dealer

    # -- betting -----------------------------------------------------------------------------

    def _verify_betting(self) -> None:
        if self._phase is not Phase.BETTING:
            raise refused(
                f"bets are closed: the round is in the {self._phase} phase",
                "bets_closed",
                phase=self._phase.value,
            )

    def verify_place_bets(self, seat: int, *, ante: int, trips: int = 0) -> None:
        """Raise unless ``seat`` may place Ante (and the equal Blind) and Trips now."""
        config = self._config
        self._verify_betting()
        _check_seat_number(seat, config)
        full = config.max_seats is not None and len(self._boxes) >= config.max_seats
        if seat not in self._boxes and full:
            raise refused(
                f"the table is full ({config.max_seats} seats)",
                "table_full",
                seats=config.max_seats,
            )
        _check_amount("ante", ante, config)
        if trips != 0:
            _check_amount("trips", trips, config)

    def can_place_bets(self, seat: int, *, ante: int, trips: int = 0) -> bool:
        """Whether :meth:`place_bets` would succeed."""
        return succeeds(self.verify_place_bets, seat, ante=ante, trips=trips)

    def place_bets(self, seat: int, *, ante: int, trips: int = 0) -> BetsPlaced:
        """Place (or replace) ``seat``'s Ante, the equal Blind and an optional Trips."""
        self.verify_place_bets(seat, ante=ante, trips=trips)
        self._boxes[seat] = Box(seat, ante, trips)
        return self._log(
            BetsPlaced(seat=seat, ante=Chips(ante), blind=Chips(ante), trips=Chips(trips))
        )

    def verify_place_trips(self, seat: int, *, trips: int) -> None:
        """Raise unless ``seat``, whose Ante is placed, may add Trips now (spec/uth.md
        "Betting", seed 001: the Trips spot opens once the Ante is accepted, in the same
        betting window)."""
        self._verify_betting()
        box = self._box(seat)
        if box.trips:
            raise refused(
                f"seat {seat} has Trips {box.trips} already",
                "trips_already_placed",
                seat=seat,
                trips=box.trips,
            )
        _check_amount("trips", trips, self._config)

    def can_place_trips(self, seat: int, *, trips: int) -> bool:
        """Whether :meth:`place_trips` would succeed."""
        return succeeds(self.verify_place_trips, seat, trips=trips)

    def place_trips(self, seat: int, *, trips: int) -> TripsPlaced:
        """Add Trips to ``seat``'s box after its Ante (the round's own limits apply)."""
        self.verify_place_trips(seat, trips=trips)
        self._boxes[seat].trips = trips
        return self._log(TripsPlaced(seat=seat, trips=Chips(trips)))

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

    def verify_change_limits(self, limits: Mapping[str, Any]) -> None:
        """Raise unless the table's limits may change to ``limits`` (names of
        :data:`~croupier.games.uth.config.LIMITS`) now: in the betting window.

        Raises:
            IllegalActionError: betting has closed (``bets_closed``).
            ConfigError: limits the table's config refuses.
        """
        self._verify_betting()
        self._config.with_limits(limits)

    def change_limits(self, limits: Mapping[str, Any]) -> LimitsChanged | None:
        """The house changes the limits during the betting window (seed 003: "tudi med
        igro"): every bet placed from now on is checked against them, the bets placed stand;
        ``None`` when nothing changes."""
        self.verify_change_limits(limits)
        config = self._config.with_limits(limits)
        if config == self._config:
            return None
        self._config = config
        return self._log(
            LimitsChanged(
                ante_min=config.ante_min,
                ante_max=config.ante_max,
                trips_min=config.trips_min,
                trips_max=config.trips_max,
                bet_unit=Chips(config.bet_unit or 1),
            )
        )

    def verify_close_betting(self) -> None:
        """Raise unless betting can close: the betting phase, with at least one box."""
        if self._phase is not Phase.BETTING:
            raise refused(
                f"betting already closed: the round is in the {self._phase} phase",
                "bets_closed",
                phase=self._phase.value,
            )
        if not self._boxes:
            raise refused("no bets: a round needs at least one box with an Ante", "no_bets")
        needed = self._plan().size
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

    def _plan(self) -> DealPlan:
        hands = 1 if self._config.shared_hand else len(self._boxes)
        return deal_plan(self._config.dealing, hands=hands)

    def close_betting(self) -> BettingClosed:
        """No more bets: deal two cards to every box and the dealer, and the board face down.

        The order is the table's ``dealing`` (:func:`croupier.games.uth.dealing.deal_plan`):
        seed 003 one card at a time left to right, dealer last, then a second round, the
        board after the decisions; seed 000 the board first.
        """
        self.verify_close_betting()
        event = self._log(BettingClosed(seats=self.seats))
        plan = self._plan()
        deck = self._shoe.draw(plan.size)
        order = [SHARED_SEAT] if self._config.shared_hand else list(self.seats)
        for seat, (a, b) in zip(order, plan.hands, strict=True):
            cards = (deck[a], deck[b])
            if seat == SHARED_SEAT:
                self._shared = cards
            else:
                self._boxes[seat].hole = cards
            self._log(HoleCardsDealt(seat=seat, cards=cards))
        self._dealer = (deck[plan.dealer[0]], deck[plan.dealer[1]])
        self._burn = None if plan.burn is None else deck[plan.burn]
        self._coming = tuple(deck[i] for i in plan.board)
        self._log(DealerCardsDealt(cards=self._dealer))
        self._enter(Phase.PREFLOP)
        return event

    # -- decisions ---------------------------------------------------------------------------

    def legal_words(self, seat: int) -> tuple[str, ...]:
        """``seat``'s decisions now as words: ``"check"``, ``"4x"``... ``"fold"`` (empty if
        none); the client's hints (:attr:`SeatView.legal`)."""
        box = self._boxes.get(seat)
        if box is None or box.decided or self._phase not in DECISION_PHASES:
            return ()
        return _words(self._config.multiples(self._phase), self._phase is Phase.RIVER)

    def _verify_turn(self, seat: int) -> Box:
        if self._phase not in DECISION_PHASES:
            raise refused(
                f"no decisions are taken in the {self._phase} phase",
                "no_decisions_now",
                phase=self._phase.value,
            )
        box = self._box(seat)
        if box.multiple:
            raise refused(
                f"seat {seat} has already bet Play ({box.multiple}x)",
                "already_played",
                seat=seat,
                multiple=box.multiple,
            )
        if box.decided:
            raise refused(
                f"seat {seat} has already acted in the {self._phase} phase",
                "already_acted",
                seat=seat,
                phase=self._phase.value,
            )
        return box

    def verify_bet_play(self, seat: int, multiple: int) -> None:
        """Raise unless ``seat`` may bet Play = ``multiple`` x Ante now."""
        self._verify_turn(seat)
        allowed = self._config.multiples(self._phase)
        if multiple not in allowed:
            options = " or ".join(f"{m}x" for m in allowed)
            raise refused(
                f"Play {multiple}x is not allowed {self._phase_name()}: {options}",
                "play_multiple_not_allowed",
                multiple=multiple if isinstance(multiple, int) else None,
                phase=self._phase.value,
                allowed=list(allowed),
            )

    def can_bet_play(self, seat: int, multiple: int) -> bool:
        """Whether :meth:`bet_play` would succeed."""
        return succeeds(self.verify_bet_play, seat, multiple)

    def bet_play(self, seat: int, multiple: int, *, timeout: bool = False) -> PlayBet:
        """Bet Play = ``multiple`` x Ante: 4 or 3 pre-flop, 2 on the flop, 1 on the river, or
        the table's ``play_multiples``."""
        self.verify_bet_play(seat, multiple)
        box = self._boxes[seat]
        box.multiple = multiple
        box.decided = True
        self._undecided -= 1
        event = self._log(
            PlayBet(seat=seat, multiple=multiple, amount=Chips(box.play), timeout=timeout)
        )
        self._advance()
        return event

    def verify_check(self, seat: int) -> None:
        """Raise unless ``seat`` may check now (pre-flop or on the flop)."""
        self._verify_turn(seat)
        if self._phase is Phase.RIVER:
            raise refused("no check on the river: bet Play 1x or fold", "no_check_on_river")

    def can_check(self, seat: int) -> bool:
        """Whether :meth:`check` would succeed."""
        return succeeds(self.verify_check, seat)

    def check(self, seat: int, *, timeout: bool = False) -> Checked:
        """Check: no Play bet now."""
        self.verify_check(seat)
        self._boxes[seat].decided = True
        self._undecided -= 1
        event = self._log(Checked(seat=seat, timeout=timeout))
        self._advance()
        return event

    def verify_fold(self, seat: int) -> None:
        """Raise unless ``seat`` may fold now (only on the river)."""
        self._verify_turn(seat)
        if self._phase is not Phase.RIVER:
            raise refused(
                f"folding is only on the river, not {self._phase_name()}: check instead",
                "fold_only_on_river",
                phase=self._phase.value,
            )

    def can_fold(self, seat: int) -> bool:
        """Whether :meth:`fold` would succeed."""
        return succeeds(self.verify_fold, seat)

    def fold(self, seat: int, *, timeout: bool = False) -> Folded:
        """Fold on the river, losing Ante and Blind (Trips stays in play)."""
        self.verify_fold(seat)
        box = self._boxes[seat]
        box.folded = True
        box.decided = True
        self._undecided -= 1
        event = self._log(Folded(seat=seat, timeout=timeout))
        self._advance()
        return event

    def default_action(self, seat: int) -> Check | Fold | None:
        """What ``seat`` does when its time runs out: check, or fold on the river
        (spec/uth.md "Dealing and decisions", Decision); ``None`` when it has nothing to
        decide."""
        box = self._boxes.get(seat)
        if box is None or box.decided or self._phase not in DECISION_PHASES:
            return None
        if self._phase is Phase.RIVER:
            return Fold(seat=seat, timeout=True)
        return Check(seat=seat, timeout=True)

    def apply_timeout(self, seat: int) -> UthEvent:
        """Apply :meth:`default_action` for ``seat``; the decision's event."""
        action = self.default_action(seat)
        if action is None:
            self._verify_turn(seat)  # raises: the seat has nothing to decide
            raise AssertionError("unreachable")  # pragma: no cover
        return self.apply(action)[0]

    # -- the engine protocol (croupier.games.protocol) -----------------------------------------

    def legal_actions(self, seat: int | None) -> tuple[Legal, ...]:
        """What ``seat`` may do now, with the bounds of every amount; ``None``: the house
        (:class:`Deal` once betting may close)."""
        if seat is None:
            return (Legal(Deal()),) if self.can_close_betting() else ()
        if self._phase is Phase.BETTING:
            return self._legal_bets(seat)
        legal: list[Legal] = []
        for word in self.legal_words(seat):
            if word == "check":
                legal.append(Legal(Check(seat=seat)))
            elif word == "fold":
                legal.append(Legal(Fold(seat=seat)))
            else:
                legal.append(Legal(Play(seat=seat, multiple=int(word[:-1]))))
        return tuple(legal)

    def _legal_bets(self, seat: int) -> tuple[Legal, ...]:
        c = self._config
        if not succeeds(_check_seat_number, seat, c):
            return ()
        unit = c.bet_unit or 1
        (ante_low, ante_high), (trips_low, trips_high) = c.bounds("ante"), c.bounds("trips")
        trips = Amount("trips", trips_low, trips_high, step=unit)
        legal: list[Legal] = []
        box = self._boxes.get(seat)
        if box is not None or c.max_seats is None or len(self._boxes) < c.max_seats:
            bets = PlaceBets(seat=seat, ante=Chips(ante_low))
            ante = Amount("ante", ante_low, ante_high, step=unit)
            optional = Amount("trips", trips_low, trips_high, step=unit, optional=True)
            legal.append(Legal(bets, free=(ante, optional)))
        if box is not None:
            legal.append(Legal(WithdrawBets(seat=seat)))
            if not box.trips:
                legal.append(Legal(AddTrips(seat=seat, trips=Chips(trips_low)), free=(trips,)))
        return tuple(legal)

    def verify(self, action: UthAction) -> None:
        """Raise unless :meth:`apply` accepts ``action``; nothing changes either way."""
        match action:
            case PlaceBets(seat=seat, ante=ante, trips=trips):
                self.verify_place_bets(seat, ante=ante, trips=trips)
            case AddTrips(seat=seat, trips=trips):
                self.verify_place_trips(seat, trips=trips)
            case WithdrawBets(seat=seat):
                self.verify_withdraw_bets(seat)
            case Deal():
                self.verify_close_betting()
            case Check(seat=seat):
                self.verify_check(seat)
            case Play(seat=seat, multiple=multiple):
                self.verify_bet_play(seat, multiple)
            case Fold(seat=seat):
                self.verify_fold(seat)
            case _:
                raise _unknown(action)

    def can(self, action: UthAction) -> bool:
        """Whether :meth:`apply` would accept ``action``."""
        return succeeds(self.verify, action)

    def apply(self, action: UthAction) -> tuple[UthEvent, ...]:
        """Take ``action`` (validated whole first: a refused action changes nothing); the
        events it caused, in order (the deal and a settlement that follow included)."""
        start = len(self._events)
        match action:
            case PlaceBets(seat=seat, ante=ante, trips=trips):
                self.place_bets(seat, ante=ante, trips=trips)
            case AddTrips(seat=seat, trips=trips):
                self.place_trips(seat, trips=trips)
            case WithdrawBets(seat=seat):
                self.withdraw_bets(seat)
            case Deal():
                self.close_betting()
            case Check(seat=seat, timeout=timeout):
                self.check(seat, timeout=timeout)
            case Play(seat=seat, multiple=multiple, timeout=timeout):
                self.bet_play(seat, multiple, timeout=timeout)
            case Fold(seat=seat, timeout=timeout):
                self.fold(seat, timeout=timeout)
            case _:
                raise _unknown(action)
        return tuple(self._events[start:])

    def staked(self) -> dict[int, Chips]:
        """Each seat's money on the table now (Ante, Blind, Trips, Play)."""
        return {seat: Chips(box.staked) for seat, box in sorted(self._boxes.items())}

    def returns(self) -> dict[int, Chips]:
        """Everything paid back to each seat, stakes included, once the round is settled;
        every stake once it is voided; empty before."""
        if self._phase is Phase.VOIDED:
            return self.staked()
        return {seat: Chips(result.returned) for seat, result in sorted(self._results.items())}

    def price(self, action: UthAction) -> Chips:
        """The wallet money ``action`` needs (:func:`~croupier.games.uth.actions.price`; a
        Play bet at the Ante of the seat's box)."""
        box = self._boxes.get(action.seat) if isinstance(action, Play) else None
        return price(action, ante=box.ante if box is not None else 0)

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
        """Void the round: every bet returned, nothing paid (spec/uth.md "Faults")."""
        self.verify_void()
        refunds = tuple((seat, Chips(box.staked)) for seat, box in sorted(self._boxes.items()))
        self._phase = Phase.VOIDED
        self._log(PhaseChanged(phase=Phase.VOIDED.value))
        return self._log(RoundVoided(reason=reason, refunds=refunds))

    # -- views -------------------------------------------------------------------------------

    def view(self, seat: int | None) -> SeatView:
        """What ``seat`` may see now (``None``: a spectator); the dealer's hole cards only
        after the showdown."""
        box = None if seat is None else self._boxes.get(seat)
        shown = self._phase in (Phase.SHOWDOWN, Phase.SETTLED)
        hole = self._shared if self._config.shared_hand else (box.hole if box else ())
        return SeatView(
            seat=seat,
            phase=self._phase,
            hole=hole,
            board=self._board,
            dealer=self._dealer if shown else None,
            box=box.view() if box else None,
            legal=() if seat is None else self.legal_words(seat),
            result=None if seat is None else self._results.get(seat),
        )

    # -- internals ---------------------------------------------------------------------------

    def _box(self, seat: int) -> Box:
        box = self._boxes.get(seat)
        if box is None:
            raise refused(
                f"seat {seat!r} has no box in this round",
                "no_bets_this_round",
                seat=seat if isinstance(seat, int) else None,
            )
        return box

    def _phase_name(self) -> str:
        return "pre-flop" if self._phase is Phase.PREFLOP else f"on the {self._phase}"

    def _log(self, event: _E) -> _E:
        self._events.append(event)
        return event

    def _enter(self, phase: Phase) -> None:
        self._phase = phase
        self._log(PhaseChanged(phase=phase.value))
        for box in self._boxes.values():
            # a seat that bet Play (or folded) has no decision left (spec/uth.md)
            box.decided = bool(box.multiple) or box.folded
        self._undecided = sum(1 for box in self._boxes.values() if not box.decided)

    def _advance(self) -> None:
        """Deal on while no seat has a decision left in the current phase."""
        while self._phase in DECISION_PHASES and not self._undecided:
            if self._phase is Phase.PREFLOP:
                if self._burn is not None:
                    self._log(CardBurned(card=self._burn))
                self._board = self._coming[:3]
                self._log(BoardDealt(cards=self._board))
                self._enter(Phase.FLOP)
            elif self._phase is Phase.FLOP:
                turn_river = self._coming[3:]
                self._board += turn_river
                self._log(BoardDealt(cards=turn_river))
                self._enter(Phase.RIVER)
            else:
                self._showdown()

    def _showdown(self) -> None:
        self._enter(Phase.SHOWDOWN)
        board_ids = [c.id for c in self._board]
        dealer_value = evaluate_ids([c.id for c in self._dealer] + board_ids)
        self._log(
            DealerRevealed(
                cards=self._dealer, value=dealer_value, qualifies=dealer_qualifies(dealer_value)
            )
        )
        shared_value = (
            evaluate_ids([c.id for c in self._shared] + board_ids)
            if self._config.shared_hand
            else 0
        )
        # seed 003 "Delivec kombinira, od desne proti levi": boxes are settled right to left
        boxes = sorted(self._boxes.items(), reverse=True)
        if not dealer_qualifies(dealer_value):
            # spec/uth.md "Showdown", seed 003: every Ante still in play goes back first,
            # right to left, before any player's hand is looked at
            antes = tuple((seat, Chips(box.ante)) for seat, box in boxes if not box.folded)
            if antes:
                self._log(AntesReturned(antes=antes))
        players_net = 0
        for seat, box in boxes:
            value = shared_value or evaluate_ids([c.id for c in box.hole] + board_ids)
            result = settle_seat(
                seat=seat,
                player=value,
                dealer=dealer_value,
                ante=box.ante,
                trips=box.trips,
                play=box.play,
                folded=box.folded,
                config=self._config,
            )
            self._results[seat] = result
            players_net += result.net
            self._log(SeatSettled(result=result))
        self._phase = Phase.SETTLED
        self._log(PhaseChanged(phase=Phase.SETTLED.value))
        self._log(RoundSettled(players_net=Chips(players_net), house_net=Chips(-players_net)))


def _check_seat_number(seat: int, config: UthConfig) -> None:
    if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
        raise refused(f"seat {seat!r} is not a seat number", "seat_does_not_exist")
    if config.max_seats is not None and seat >= config.max_seats:
        raise refused(
            f"seat {seat} does not exist: the table has seats 0..{config.max_seats - 1}",
            "seat_does_not_exist",
            seat=seat,
            seats=config.max_seats,
        )


def _check_amount(name: str, amount: int, config: UthConfig) -> None:
    low, high = getattr(config, f"{name}_min"), getattr(config, f"{name}_max")
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
    check_unit(name, amount, config)


def _unknown(action: object) -> IllegalActionError:
    kind = getattr(action, "kind", type(action).__name__)
    return refused(f"{kind!r} is not an action of a UTH round", "unknown_action", action=kind)


@lru_cache(maxsize=64)
def _words(multiples: tuple[int, ...], river: bool) -> tuple[str, ...]:
    """A decision phase's actions as words: the Play multiples, with fold on the river and
    check before it (written once per phase's rules, not once per seat)."""
    plays = tuple(f"{m}x" for m in multiples)
    return (*plays, "fold") if river else ("check", *plays)
