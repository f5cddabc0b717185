"""One round of Ultimate Texas Hold'em as a state machine (spec/uth.md).

Phases: betting -> pre-flop -> flop -> river -> showdown -> settled, or void. Every command
has a ``verify_*`` that raises :class:`IllegalActionError` without changing anything, a
``can_*`` that answers with a bool, and the command itself, which returns the frozen event
it appended to :attr:`UthRound.events`. When the last seat of a phase has decided, the
round deals the next cards by itself; after the river it reveals the dealer and settles.

>>> from croupier.deck import Shoe, seeded_source, shuffled
>>> rnd = UthRound(UthConfig(), Shoe(shuffled(seeded_source(1))))
>>> _ = rnd.place_bets(0, ante=1000, trips=500)
>>> _ = rnd.close_betting()
>>> rnd.phase, rnd.pending_seats
(<Phase.PREFLOP: 'pre-flop'>, (0,))
>>> _ = rnd.bet_play(0, 4)
>>> rnd.phase
<Phase.SETTLED: 'settled'>
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeVar

from croupier.cards import Card
from croupier.deck import Shoe
from croupier.errors import IllegalActionError
from croupier.evaluator import evaluate_ids
from croupier.games.uth.config import UthConfig
from croupier.games.uth.dealing import DealPlan, deal_plan
from croupier.games.uth.events import (
    BetsPlaced,
    BetsWithdrawn,
    BettingClosed,
    BoardDealt,
    CardBurnt,
    Checked,
    DealerCardsDealt,
    DealerRevealed,
    Event,
    Folded,
    HoleCardsDealt,
    PhaseChanged,
    PlayBet,
    RoundSettled,
    RoundVoided,
    SeatSettled,
    TripsPlaced,
)
from croupier.games.uth.rules import SeatResult, dealer_qualifies, settle_seat

__all__ = ["SHARED_SEAT", "BoxView", "Phase", "SeatView", "UthRound"]

_E = TypeVar("_E", bound=Event)

SHARED_SEAT = -1
"""The seat number of the one player hand of a shared-hand (live) table, in events."""


class Phase(StrEnum):
    """The phases of a round, in order."""

    BETTING = "betting"
    PREFLOP = "pre-flop"
    FLOP = "flop"
    RIVER = "river"
    SHOWDOWN = "showdown"
    SETTLED = "settled"
    VOID = "void"


_DECISION_PHASES = (Phase.PREFLOP, Phase.FLOP, Phase.RIVER)


@dataclass(frozen=True, slots=True, kw_only=True)
class BoxView:
    """The public state of one seat's box."""

    seat: int
    ante: int
    blind: int
    trips: int
    play: int
    play_multiple: int
    folded: bool
    decided: bool
    """Whether the seat has no decision left in the current phase."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatView:
    """What one seat may see: its own cards, the board so far, the dealer's after showdown."""

    seat: int
    phase: Phase
    hole: tuple[Card, ...]
    board: tuple[Card, ...]
    dealer: tuple[Card, ...] | None
    box: BoxView | None
    legal: tuple[str, ...]
    """The seat's legal actions now: ``"check"``, ``"4x"``, ``"3x"``, ``"2x"``, ``"1x"``, ``"fold"``."""
    result: SeatResult | None


class _Box:
    __slots__ = ("ante", "decided", "folded", "hole", "multiple", "seat", "trips")

    def __init__(self, seat: int, ante: int, trips: int) -> None:
        self.seat = seat
        self.ante = ante
        self.trips = trips
        self.multiple = 0
        self.folded = False
        self.decided = False
        self.hole: tuple[Card, ...] = ()

    @property
    def play(self) -> int:
        return self.multiple * self.ante

    @property
    def staked(self) -> int:
        return 2 * self.ante + self.trips + self.play

    def view(self) -> BoxView:
        return BoxView(
            seat=self.seat,
            ante=self.ante,
            blind=self.ante,
            trips=self.trips,
            play=self.play,
            play_multiple=self.multiple,
            folded=self.folded,
            decided=self.decided,
        )


class UthRound:
    """One round at one table: any number of seats sharing one dealer hand and one board."""

    def __init__(self, config: UthConfig, shoe: Shoe) -> None:
        self._config = config
        self._shoe = shoe
        self._phase = Phase.BETTING
        self._boxes: dict[int, _Box] = {}
        self._events: list[Event] = []
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
    def phase(self) -> Phase:
        """The current phase."""
        return self._phase

    @property
    def events(self) -> tuple[Event, ...]:
        """Everything that happened, in order."""
        return tuple(self._events)

    def events_since(self, index: int) -> tuple[Event, ...]:
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
        if self._phase not in _DECISION_PHASES:
            return ()
        return tuple(s for s, box in sorted(self._boxes.items()) if not box.decided)

    @property
    def pending_count(self) -> int:
        """How many seats still have to decide in the current phase (O(1), for live tables)."""
        return self._undecided if self._phase in _DECISION_PHASES else 0

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

    def verify_place_bets(self, seat: int, *, ante: int, trips: int = 0) -> None:
        """Raise unless ``seat`` may place Ante (and the equal Blind) and Trips now."""
        config = self._config
        if self._phase is not Phase.BETTING:
            raise IllegalActionError(f"bets are closed: the round is in the {self._phase} phase")
        _check_seat_number(seat, config)
        full = config.max_seats is not None and len(self._boxes) >= config.max_seats
        if seat not in self._boxes and full:
            raise IllegalActionError(f"the table is full ({config.max_seats} seats)")
        _check_amount("ante", ante, config.ante_min, config.ante_max)
        if trips != 0:
            _check_amount("trips", trips, config.trips_min, config.trips_max)

    def can_place_bets(self, seat: int, *, ante: int, trips: int = 0) -> bool:
        """Whether :meth:`place_bets` would succeed."""
        return _can(self.verify_place_bets, seat, ante=ante, trips=trips)

    def place_bets(self, seat: int, *, ante: int, trips: int = 0) -> BetsPlaced:
        """Place (or replace) ``seat``'s Ante, the equal Blind and an optional Trips."""
        self.verify_place_bets(seat, ante=ante, trips=trips)
        self._boxes[seat] = _Box(seat, ante, trips)
        return self._log(BetsPlaced(seat=seat, ante=ante, blind=ante, trips=trips))

    def verify_place_trips(self, seat: int, *, trips: int) -> None:
        """Raise unless ``seat``, whose Ante is placed, may add Trips now (spec/uth.md
        "Betting", seed 001: the Trips spot opens once the Ante is accepted, in the same
        betting window)."""
        if self._phase is not Phase.BETTING:
            raise IllegalActionError(f"bets are closed: the round is in the {self._phase} phase")
        box = self._box(seat)
        if box.trips:
            raise IllegalActionError(f"seat {seat} has Trips {box.trips} already")
        _check_amount("trips", trips, self._config.trips_min, self._config.trips_max)

    def can_place_trips(self, seat: int, *, trips: int) -> bool:
        """Whether :meth:`place_trips` would succeed."""
        return _can(self.verify_place_trips, seat, trips=trips)

    def place_trips(self, seat: int, *, trips: int) -> TripsPlaced:
        """Add Trips to ``seat``'s box after its Ante (the round's own limits apply)."""
        self.verify_place_trips(seat, trips=trips)
        self._boxes[seat].trips = trips
        return self._log(TripsPlaced(seat=seat, trips=trips))

    def verify_withdraw_bets(self, seat: int) -> None:
        """Raise unless ``seat`` has bets it may still take back."""
        if self._phase is not Phase.BETTING:
            raise IllegalActionError(f"bets are closed: the round is in the {self._phase} phase")
        self._box(seat)

    def withdraw_bets(self, seat: int) -> BetsWithdrawn:
        """Take ``seat``'s bets back before betting closes."""
        self.verify_withdraw_bets(seat)
        del self._boxes[seat]
        return self._log(BetsWithdrawn(seat=seat))

    def verify_close_betting(self) -> None:
        """Raise unless betting can close: the betting phase, with at least one box."""
        if self._phase is not Phase.BETTING:
            raise IllegalActionError(
                f"betting already closed: the round is in the {self._phase} phase"
            )
        if not self._boxes:
            raise IllegalActionError("no bets: a round needs at least one box with an Ante")
        needed = self._plan().size
        if self._shoe.remaining < needed:
            raise IllegalActionError(
                f"the shoe has {self._shoe.remaining} cards, the round needs {needed}"
            )

    def can_close_betting(self) -> bool:
        """Whether :meth:`close_betting` would succeed."""
        return _can(self.verify_close_betting)

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

    def legal_actions(self, seat: int) -> tuple[str, ...]:
        """What ``seat`` may do now (empty if nothing)."""
        box = self._boxes.get(seat)
        if box is None or box.decided or self._phase not in _DECISION_PHASES:
            return ()
        plays = tuple(f"{m}x" for m in self._config.multiples(self._phase))
        return (*plays, "fold") if self._phase is Phase.RIVER else ("check", *plays)

    def _verify_turn(self, seat: int) -> _Box:
        if self._phase not in _DECISION_PHASES:
            raise IllegalActionError(f"no decisions are taken in the {self._phase} phase")
        box = self._box(seat)
        if box.multiple:
            raise IllegalActionError(f"seat {seat} has already bet Play ({box.multiple}x)")
        if box.decided:
            raise IllegalActionError(f"seat {seat} has already acted in the {self._phase} phase")
        return box

    def verify_bet_play(self, seat: int, multiple: int) -> None:
        """Raise unless ``seat`` may bet Play = ``multiple`` x Ante now."""
        self._verify_turn(seat)
        allowed = self._config.multiples(self._phase)
        if multiple not in allowed:
            options = " or ".join(f"{m}x" for m in allowed)
            raise IllegalActionError(
                f"Play {multiple}x is not allowed {self._phase_name()}: {options}"
            )

    def can_bet_play(self, seat: int, multiple: int) -> bool:
        """Whether :meth:`bet_play` would succeed."""
        return _can(self.verify_bet_play, seat, multiple)

    def bet_play(self, seat: int, multiple: int, *, timeout: bool = False) -> PlayBet:
        """Bet Play = ``multiple`` x Ante: 4 or 3 pre-flop, 2 on the flop, 1 on the river, or
        the table's ``play_multiples``."""
        self.verify_bet_play(seat, multiple)
        box = self._boxes[seat]
        box.multiple = multiple
        box.decided = True
        self._undecided -= 1
        event = self._log(PlayBet(seat=seat, multiple=multiple, amount=box.play, timeout=timeout))
        self._advance()
        return event

    def verify_check(self, seat: int) -> None:
        """Raise unless ``seat`` may check now (pre-flop or on the flop)."""
        self._verify_turn(seat)
        if self._phase is Phase.RIVER:
            raise IllegalActionError("no check on the river: bet Play 1x or fold")

    def can_check(self, seat: int) -> bool:
        """Whether :meth:`check` would succeed."""
        return _can(self.verify_check, seat)

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
            raise IllegalActionError(
                f"folding is only on the river, not {self._phase_name()}: check instead"
            )

    def can_fold(self, seat: int) -> bool:
        """Whether :meth:`fold` would succeed."""
        return _can(self.verify_fold, seat)

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

    def apply_timeout(self, seat: int) -> Event:
        """The default for a seat that did not act in time: check, or fold on the river.

        spec/uth.md "Dealing and decisions", Decision.
        """
        if self._phase is Phase.RIVER:
            return self.fold(seat, timeout=True)
        return self.check(seat, timeout=True)

    # -- faults ------------------------------------------------------------------------------

    def verify_void(self) -> None:
        """Raise unless the round can still be voided (not settled or voided already)."""
        if self._phase in (Phase.SETTLED, Phase.VOID):
            raise IllegalActionError(f"a {self._phase} round cannot be voided")

    def void(self, reason: str) -> RoundVoided:
        """Void the round: every bet returned, nothing paid (spec/uth.md "Faults")."""
        self.verify_void()
        refunds = tuple((seat, box.staked) for seat, box in sorted(self._boxes.items()))
        self._phase = Phase.VOID
        self._log(PhaseChanged(phase=Phase.VOID.value))
        return self._log(RoundVoided(reason=reason, refunds=refunds))

    # -- views -------------------------------------------------------------------------------

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may see now; the dealer's hole cards only after showdown."""
        box = self._boxes.get(seat)
        shown = self._phase in (Phase.SHOWDOWN, Phase.SETTLED)
        hole = self._shared if self._config.shared_hand else (box.hole if box else ())
        return SeatView(
            seat=seat,
            phase=self._phase,
            hole=hole,
            board=self._board,
            dealer=self._dealer if shown else None,
            box=box.view() if box else None,
            legal=self.legal_actions(seat),
            result=self._results.get(seat),
        )

    # -- internals ---------------------------------------------------------------------------

    def _box(self, seat: int) -> _Box:
        box = self._boxes.get(seat)
        if box is None:
            raise IllegalActionError(f"seat {seat!r} has no box in this round")
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
        while self._phase in _DECISION_PHASES and not self._undecided:
            if self._phase is Phase.PREFLOP:
                if self._burn is not None:
                    self._log(CardBurnt(card=self._burn))
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
        players_net = 0
        # seed 003 "Delivec kombinira, od desne proti levi": boxes are settled right to left
        for seat, box in sorted(self._boxes.items(), reverse=True):
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
        self._log(RoundSettled(players_net=players_net, house_net=-players_net))


def _check_seat_number(seat: int, config: UthConfig) -> None:
    if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
        raise IllegalActionError(f"seat {seat!r} is not a seat number")
    if config.max_seats is not None and seat >= config.max_seats:
        raise IllegalActionError(
            f"seat {seat} does not exist: the table has seats 0..{config.max_seats - 1}"
        )


def _check_amount(name: str, amount: int, low: int, high: int) -> None:
    if not isinstance(amount, int) or isinstance(amount, bool):
        raise IllegalActionError(f"{name} {amount!r} is not a whole number of minor units")
    if not low <= amount <= high:
        raise IllegalActionError(f"{name} {amount} is outside the table limits {low}..{high}")


def _can(verify: Callable[..., None], *args: Any, **kwargs: Any) -> bool:
    try:
        verify(*args, **kwargs)
    except IllegalActionError:
        return False
    return True
