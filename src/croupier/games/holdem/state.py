"""One hand of a Texas Hold'em cash game as a pure state machine (spec/holdem.md).

Players are indexed in PHH position order: 0 is the small blind (first left of the button) and
the last index is the button; heads-up, 0 is the big blind and 1 the button, who posts the small
blind (spec/phh.md section 2). :class:`croupier.games.holdem.table.CashTable` maps physical seats
to these positions and moves the button.

Every command comes as ``verify_x`` (raises), ``can_x`` (bool) and ``x`` (does it and returns
the frozen event appended to :attr:`CashHand.events`); a refused command changes nothing.

>>> from croupier.deck import Shoe, seeded_source, shuffled
>>> config = HoldemConfig.cash(players=3, small_blind=1, big_blind=2)
>>> hand = CashHand(config, stacks=(100, 100, 100), shoe=Shoe(shuffled(seeded_source(1))))
>>> hand.actor, hand.to_call
(2, 2)
>>> hand.raise_to(2, 6)
Raised(seat=2, to=6, amount=6, all_in=False, full=True)
>>> hand.fold(0), hand.fold(1)
(Folded(seat=0), Folded(seat=1))
>>> hand.is_over, hand.stacks
(True, (99, 98, 103))
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import ge, index, sub
from typing import TYPE_CHECKING, Any, cast

from croupier.cards import Card
from croupier.chips import Chips
from croupier.errors import IllegalActionError
from croupier.games.holdem import _build
from croupier.games.holdem._rules import rules_of
from croupier.games.holdem.betting import (
    Options,
    acting_order,
    opener,
    post_forced_bets,
    raise_refusal,
    reopen_after,
    street_bounds,
    verify_raise_to,
)
from croupier.games.holdem.config import HoldemConfig
from croupier.games.holdem.dealing import (
    deal_hole_cards,
    next_street,
    street_of,
    verify_board_cards,
    verify_hole_cards,
)
from croupier.games.holdem.events import (
    BoardDealt,
    Called,
    Checked,
    Folded,
    HoldemEvent,
    HoleDealt,
    Raised,
    Raked,
    Shown,
)
from croupier.games.holdem.phase import STREET_NAMES, Phase
from croupier.games.holdem.showdown import (
    settle,
    settle_simple,
    uncontested,
)
from croupier.games.holdem.showing import ShowdownCommands
from croupier.games.protocol import refused, succeeds

if TYPE_CHECKING:
    from croupier.deck import Shoe

__all__ = ["STREET_NAMES", "CashHand", "Phase"]

_RUN_OUT = (8, 0, 0, 4, 2)
"""Cards a run-out draws with ``n`` board cards out: a burn before each street left."""
_STREET_OF = (0, 0, 0, 1, 2, 3)
"""The street once ``n`` board cards are out (``dealing.street_of``)."""

_Lazy = tuple[Any, ...]
"""An event not built yet: its builder and fields (``CashHand._built_events``)."""


class CashHand(ShowdownCommands):
    """A hand of hold'em from the forced bets to the pots paid (the engine protocol of
    :mod:`croupier.games.protocol` from :class:`HandEngine`).

    Args:
        config: the table's rules for this hand.
        shoe: deal from this ordered deck (burning before each street); without it, cards
            come through :meth:`deal_hole` and :meth:`deal_board` (replaying a record).
        stacks: each player's chips at the start, in position order (table stakes).
        auto_showdown: at showdown every player still in shows (no mucking decisions).

    Raises:
        ConfigError: the stacks do not fit the rules (:meth:`HoldemConfig.verify_stacks`).
    """

    __slots__ = (
        "_acted",
        "_aggressor",
        "_antes",
        "_auto_showdown",
        "_bets",
        "_board",
        "_built",
        "_cfg",
        "_dealt",
        "_events",
        "_first",
        "_holes",
        "_in",
        "_increment",
        "_leader",
        "_live",
        "_n",
        "_order",
        "_over",
        "_pending",
        "_phase",
        "_put_in",
        "_quote",
        "_raises",
        "_rake",
        "_rules",
        "_shoe",
        "_short",
        "_shown",
        "_stacks",
        "_starting",
        "_street",
        "_top",
        "_unit",
    )

    def __init__(
        self,
        config: HoldemConfig,
        shoe: Shoe | None = None,
        *,
        stacks: Sequence[int],
        auto_showdown: bool = False,
    ) -> None:
        given: Sequence[Any] = stacks  # any integers (NumPy's too), unchecked until index()
        stacks = [index(stack) for stack in given]
        rules = rules_of(config)
        n = rules.players
        if len(stacks) != n or min(stacks) <= 0 or rules.unit != 1:
            config.verify_stacks(stacks)
        self._unit = rules.unit
        self._cfg = config
        self._rules = rules
        self._n = n
        self._starting = tuple(stacks)
        forced: list[HoldemEvent | _Lazy]
        blinds = rules.blinds
        if rules.forced and all(map(ge, stacks, blinds)):
            # no antes, every blind and straddle posted in full: the rules worked out once
            self._stacks: list[int] = list(map(sub, stacks, blinds))
            self._bets = list(blinds)
            self._put_in = [0] * n
            self._antes = [0] * n
            forced = [(_build.blind_posted, seat, blind) for seat, blind in rules.forced]
        else:
            antes, posted, events = post_forced_bets(config, stacks)
            self._stacks = [stacks[i] - antes[i] - posted[i] for i in range(n)]
            self._bets = posted
            self._put_in = list(antes)
            self._antes = antes
            forced = list(events)
        self._top = max(self._bets)
        self._live = n
        self._in = [True] * n
        self._shown = [False] * n
        self._pending = [False] * n
        self._holes: list[tuple[Card, ...] | None] = [None] * n
        self._dealt = [False] * n
        self._board: list[Card] = []
        self._street = 0
        self._phase = Phase.HOLE
        self._order: list[int] = []
        self._quote: tuple[int, int, int, int] | None = None
        self._acted = [False] * n
        self._leader = 0
        self._aggressor = -1
        self._increment = self._raises = self._short = 0
        self._over = False
        self._rake = 0
        self._shoe = shoe
        self._first: int | None = None
        self._auto_showdown = bool(auto_showdown)
        # events are kept as (builder, *fields) until someone reads them (_built_events)
        self._events = forced
        self._built = 0
        if shoe is not None:
            holes = self._holes
            for seat, cards in enumerate(deal_hole_cards(shoe, n)):
                holes[seat] = cards
                forced.append((_build.hole_dealt, seat, cards))
            self._dealt = [True] * n
            self._start_street()

    # -- read-only state ---------------------------------------------------------------

    @property
    def config(self) -> HoldemConfig:
        return self._cfg

    @property
    def players(self) -> int:
        return self._n

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def is_over(self) -> bool:
        return self._phase is Phase.COMPLETE

    @property
    def street(self) -> int:
        """0 pre-flop, 1 flop, 2 turn, 3 river."""
        return self._street

    @property
    def starting_stacks(self) -> tuple[int, ...]:
        return self._starting

    @property
    def stacks(self) -> tuple[int, ...]:
        """Chips behind each player (not counting bets in front of them)."""
        return tuple(self._stacks)

    @property
    def bets(self) -> tuple[int, ...]:
        """Each player's bet on the current street, not yet collected."""
        return tuple(self._bets)

    @property
    def pot_total(self) -> int:
        """Chips in the middle: collected pots plus the current street's bets."""
        if self._phase is Phase.COMPLETE:
            return 0
        return sum(self._put_in) + sum(self._bets)

    @property
    def house_net(self) -> int:
        """Rake taken from this hand."""
        return self._rake

    @property
    def board(self) -> tuple[Card, ...]:
        return tuple(self._board)

    @property
    def events(self) -> tuple[HoldemEvent, ...]:
        return tuple(self._built_events())

    def _built_events(self) -> list[HoldemEvent]:
        """The event log, every entry built (the engine appends some as ``(builder,
        *fields)`` and builds them here, once, when they are first read)."""
        events = self._events
        built = self._built
        if built < len(events):
            for i in range(built, len(events)):
                entry = events[i]
                if type(entry) is tuple:
                    events[i] = entry[0](*entry[1:])
            self._built = len(events)
        return cast("list[HoldemEvent]", events)

    @property
    def active(self) -> tuple[bool, ...]:
        """Players still able to win (not folded, not mucked)."""
        return tuple(self._in)

    @property
    def actor(self) -> int | None:
        """The player to act in the betting, or ``None``."""
        return self._order[0] if self._order else None

    @property
    def to_call(self) -> int:
        """What the actor must add to call (capped at the stack); 0 when no one is to act."""
        if not self._order:
            return 0
        seat = self._order[0]
        return min(self._stacks[seat], max(self._bets) - self._bets[seat])

    @property
    def showdown_order(self) -> tuple[int, ...]:
        """Players still to show or muck, in order from the first to show (the config's
        ``first_to_show``: the last bettor or raiser of the hand, or of the river; nobody:
        the first player left of the button), then clockwise."""
        pending = self._pending
        return tuple([seat for seat in self._rules.rotation[self._leader] if pending[seat]])

    @property
    def showdown_seat(self) -> int | None:
        """The next player expected to show or muck."""
        order = self.showdown_order
        return order[0] if order else None

    def hole_cards(self, seat: int) -> tuple[Card, ...] | None:
        """``seat``'s hole cards (the dealer's view: for players use :meth:`view_for`)."""
        return self._holes[seat]

    def shown(self, seat: int) -> bool:
        """Whether ``seat`` has tabled their cards."""
        return self._shown[seat]

    def raise_bounds(self) -> tuple[int, int] | None:
        """(min, max) street totals the actor may bet or raise to, or ``None`` if they may not."""
        if not self._order:
            return None
        seat = self._order[0]
        return None if self._raise_refusal(seat) is not None else self._bounds(seat)

    def options(self) -> Options | None:
        """The actor's choices now, or ``None`` when no one is to act in the betting."""
        if not self._order:
            return None
        seat = self._order[0]
        bets = self._bets
        stack = self._stacks[seat]
        bet = bets[seat]
        top = self._top
        owed = top - bet
        if owed > stack:
            owed = stack
        pot = sum(self._put_in) + sum(bets)
        if self._may_raise(seat, top):
            rules = self._rules
            if rules.no_limit:
                # betting.street_bounds, No-Limit: at least the largest increment (or the
                # street's minimum bet) over the top bet, at most all-in
                high = stack + bet
                increment = self._increment
                street_bet = rules.street_bets[self._street]
                low = top + (increment if increment > street_bet else street_bet)
                if low > high:
                    low = high
            else:
                low, high = self._bounds(seat)
            # remembered until the next event: raise_to needs not work them out again
            self._quote = (len(self._events), seat, low, high)
            return _build.options(seat, owed, low, high, stack, bet, pot, self._unit)
        return _build.options(seat, owed, None, None, stack, bet, pot, self._unit)

    # -- dealing (only without a shoe) --------------------------------------------------

    def verify_deal_hole(self, seat: int, cards: Sequence[Card] | None) -> None:
        """Check that ``cards`` (``None`` = unknown) may be dealt to ``seat`` now."""
        if self._shoe is not None:
            raise refused("cards come from the shoe in this hand", "shoe_deals")
        if self._phase is not Phase.HOLE:
            raise refused("hole cards are dealt only before the betting", "not_dealing_now")
        self._check_seat(seat)
        if self._dealt[seat]:
            raise refused(f"player {seat + 1} has hole cards", "already_dealt", seat=seat)
        if cards is not None:
            verify_hole_cards(cards, board=self._board, holes=self._holes)

    def can_deal_hole(self, seat: int, cards: Sequence[Card] | None) -> bool:
        return succeeds(self.verify_deal_hole, seat, cards)

    def deal_hole(self, seat: int, cards: Sequence[Card] | None) -> HoleDealt:
        """Deal ``seat`` their hole cards; betting starts when everyone has theirs."""
        self.verify_deal_hole(seat, cards)
        event = self._give_hole(seat, None if cards is None else tuple(cards))
        if all(self._dealt):
            self._start_street()
        return event

    def verify_deal_board(self, cards: Sequence[Card]) -> None:
        """Check that ``cards`` are the next street's board cards (3, then 1, then 1)."""
        if self._shoe is not None:
            raise refused("cards come from the shoe in this hand", "shoe_deals")
        waiting = self._phase is Phase.BOARD or (
            self._phase is Phase.SHOWDOWN and len(self._board) < 5
        )
        if not waiting:
            raise refused("no board cards are due now", "not_dealing_now")
        verify_board_cards(cards, board=self._board, holes=self._holes)

    def can_deal_board(self, cards: Sequence[Card]) -> bool:
        return succeeds(self.verify_deal_board, cards)

    def deal_board(self, cards: Sequence[Card]) -> BoardDealt:
        """Turn the next street's board cards."""
        self.verify_deal_board(cards)
        event = self._put_board(tuple(cards))
        self._after_board()
        return event

    # -- betting ------------------------------------------------------------------------

    def verify_fold(self, seat: int) -> None:
        """A player may fold at any turn, even when they could check (spec/holdem.md)."""
        self._check_turn(seat)

    def can_fold(self, seat: int) -> bool:
        return self._turn_refusal(seat) is None

    def fold(self, seat: int) -> Folded:
        order = self._order
        if not order or order[0] != seat:
            self.verify_fold(seat)  # raises: only the actor may act
        del order[0]
        self._acted[seat] = True
        self._in[seat] = False
        self._live -= 1
        event = _build.folded(seat)
        self._events.append(event)
        if not order or self._live <= 1:
            self._end_betting()
        return event

    def verify_check(self, seat: int) -> None:
        self._check_turn(seat)
        owed = max(self._bets) - self._bets[seat]
        if owed:
            to_call = min(owed, self._stacks[seat])
            raise refused(f"player {seat + 1} cannot check facing a bet of {owed}",
                          "check_facing_bet", seat=seat, to_call=to_call)  # fmt: skip

    def can_check(self, seat: int) -> bool:
        return self._turn_refusal(seat) is None and self._bets[seat] == max(self._bets)

    def check(self, seat: int) -> Checked:
        self.verify_check(seat)
        event = self._check_or_call(seat)
        assert isinstance(event, Checked)
        return event

    def verify_call(self, seat: int) -> None:
        self._check_turn(seat)
        if self._bets[seat] == max(self._bets):
            raise refused(f"player {seat + 1} has nothing to call", "nothing_to_call", seat=seat)

    def can_call(self, seat: int) -> bool:
        return self._turn_refusal(seat) is None and self._bets[seat] < max(self._bets)

    def call(self, seat: int) -> Called:
        self.verify_call(seat)
        event = self._check_or_call(seat)
        assert isinstance(event, Called)
        return event

    def verify_check_or_call(self, seat: int) -> None:
        """PHH ``cc``: check when nothing is owed, else call (all-in for less if short)."""
        self._check_turn(seat)

    def can_check_or_call(self, seat: int) -> bool:
        return self._turn_refusal(seat) is None

    def check_or_call(self, seat: int) -> Checked | Called:
        order = self._order
        if not order or order[0] != seat:
            self.verify_check_or_call(seat)  # raises: only the actor may act
        return self._check_or_call(seat)

    def verify_raise(self, seat: int, *, to: object) -> None:
        """Check a bet or raise to a street total of ``to`` (PHH ``cbr``)."""
        self._check_turn(seat)
        if isinstance(to, bool) or not isinstance(to, int):
            raise refused(f"raise to {to!r} is not a whole amount", "amount_not_whole", spot="to")
        refusal = self._raise_refusal(seat)
        if refusal is not None:
            raise refused(refusal, "raise_not_allowed", seat=seat)
        low, high = self._bounds(seat)
        stack, bet = self._stacks[seat], self._bets[seat]
        verify_raise_to(to, seat=seat, stack=stack, bet=bet, low=low, high=high, unit=self._unit)

    def can_raise(self, seat: int, *, to: object) -> bool:
        return succeeds(self.verify_raise, seat, to=to)

    def raise_to(self, seat: int, to: object) -> Raised:
        """Bet or raise to a street total of ``to``; returns the :class:`Raised` event."""
        if not isinstance(to, int) or isinstance(to, bool):
            self.verify_raise(seat, to=to)  # raises: not a whole amount, or not their turn
            raise AssertionError("verify_raise let a raise to a non-integer through")
        quote = self._quote
        if quote is not None and quote[0] == len(self._events) and quote[1] == seat:
            low, high = quote[2], quote[3]  # options() worked them out for this decision
        else:
            order = self._order
            if not order or order[0] != seat or self._raise_refusal(seat) is not None:
                self.verify_raise(seat, to=to)  # raises
            low, high = self._bounds(seat)
        if not low <= to <= high or to % self._unit:
            self.verify_raise(seat, to=to)  # raises with the reason
        bets = self._bets
        stacks = self._stacks
        live = self._in
        rules = self._rules
        by = to - self._top
        amount = to - bets[seat]
        bets[seat] = to
        self._top = to
        stacks[seat] -= amount
        all_in = stacks[seat] == 0
        # the raise puts every other player with chips behind back in the order
        self._order = order = [j for j in rules.after[seat] if live[j] and stacks[j] > 0]
        self._leader = self._aggressor = seat
        self._raises += 1
        full, reopens, self._increment, self._short = reopen_after(
            rules.casino, by, all_in, self._increment, self._short, rules.street_bets[self._street]
        )
        if reopens:
            self._acted = [False] * self._n
        self._acted[seat] = True
        event = _build.raised(seat, to, amount, all_in, full)
        self._events.append(event)
        if not order or self._live <= 1:
            self._end_betting()
        return event

    # -- internals ----------------------------------------------------------------------

    def _give_hole(self, seat: int, cards: tuple[Card, ...] | None) -> HoleDealt:
        self._holes[seat] = cards
        self._dealt[seat] = True
        event = _build.hole_dealt(seat, cards)
        self._events.append(event)
        return event

    def _put_board(self, cards: tuple[Card, ...]) -> BoardDealt:
        self._board.extend(cards)
        street = street_of(len(self._board))
        self._street = street
        event = _build.board_dealt(street, cards)
        self._events.append(event)
        return event

    def _turn_board(self, burned: Card, cards: tuple[Card, ...]) -> None:
        """The shoe's next street: the burn and the board cards (their events built lazily)."""
        board = self._board
        board.extend(cards)
        self._street = street = _STREET_OF[len(board)]
        events = self._events
        events.append((_build.card_burned, burned))
        events.append((_build.board_dealt, street, cards))

    def _check_seat(self, seat: int) -> None:
        if not 0 <= seat < self._n:
            raise refused(f"there is no player {seat + 1} in a hand of {self._n}",
                          "seat_does_not_exist", seat=seat, seats=self._n)  # fmt: skip

    def _turn_refusal(self, seat: int) -> str | None:
        if self._phase is Phase.COMPLETE:
            return "the hand is over"
        if not 0 <= seat < self._n:
            return f"there is no player {seat + 1} in a hand of {self._n}"
        if not self._in[seat]:
            return f"player {seat + 1} is out of the hand"
        if not self._order:
            return "no one is to act in the betting now"
        actor = self._order[0]
        if actor != seat:
            return f"it is player {actor + 1}'s turn, not player {seat + 1}'s"
        return None

    def _check_turn(self, seat: int) -> None:
        refusal = self._turn_refusal(seat)
        if refusal is not None:
            raise IllegalActionError(refusal, **self.turn_reason(seat))

    def _raise_refusal(self, seat: int) -> str | None:
        """Why the actor ``seat`` may not bet or raise at all, or ``None``."""
        return raise_refusal(
            seat, self._rules.cap, self._rules.casino, self._bets, self._stacks, self._in,
            self._acted, self._raises, self._increment, self._short,
        )  # fmt: skip

    def _may_raise(self, seat: int, top: int) -> bool:
        """``self._raise_refusal(seat) is None`` (the same conditions, in the same order:
        :func:`~croupier.games.holdem.betting.raise_refusal`), without building a reason."""
        rules = self._rules
        if rules.cap is not None and self._raises >= rules.cap:
            return False
        bets = self._bets
        stacks = self._stacks
        stack = stacks[seat]
        owed = top - bets[seat]
        if rules.casino:
            if self._acted[seat]:
                return False
        else:
            increment = self._increment
            short = self._short
            if (owed if owed < stack else stack) < increment or (
                short and short < increment and self._acted[seat]
            ):
                return False
        if stack <= owed:
            return False
        live = self._in
        for other in rules.after[seat]:  # noqa: SIM110 (a loop is faster than any())
            if live[other] and stacks[other] + bets[other] > top:
                return True
        return False

    def _bounds(self, seat: int) -> tuple[int, int]:
        street_bet = self._rules.street_bets[self._street]
        return street_bounds(
            self._cfg.structure, seat, self._bets, self._stacks, self._put_in, self._increment,
            street_bet,
        )  # fmt: skip

    def _check_or_call(self, seat: int) -> Checked | Called:
        order = self._order
        del order[0]
        self._acted[seat] = True
        bets = self._bets
        stack = self._stacks[seat]
        owed = self._top - bets[seat]
        if owed > stack:
            owed = stack
        event: Checked | Called
        if owed:
            bets[seat] += owed
            self._stacks[seat] = stack - owed
            event = _build.called(seat, owed, stack == owed)
        else:
            event = _build.checked(seat)
        self._events.append(event)
        if not order or self._live <= 1:
            self._end_betting()
        return event

    def _start_street(self) -> None:
        """A new street's betting: who acts, in which order; nobody has acted or raised."""
        bets = self._bets
        if self._street:
            first = 0  # betting.opener: after the flop, the first player left of the button
        elif bets == list(self._rules.blinds):
            first = self._rules.opener
        else:
            first = opener(self._cfg, street=0, bets=bets)
        order = acting_order(first, bets=bets, stacks=self._stacks, live=self._in)
        self._phase = Phase.BETTING
        self._leader = first
        self._order = order
        self._acted = [False] * self._n
        self._increment = self._raises = self._short = 0
        if not order or (len(order) == 1 and bets[order[0]] >= self._top):
            self._end_betting()

    def _end_betting(self) -> None:
        self._order = []
        live = self._live
        if live > 1 and not self._over:
            stacks = self._stacks
            if (
                self._street == 3
                or sum([1 for i, alive in enumerate(self._in) if alive and stacks[i]]) <= 1
            ):
                self._over = True
        self._collect_bets()
        if live == 1:
            self._settle()
        elif self._over:
            self._begin_showdown()
        else:
            self._street += 1
            self._phase = Phase.BOARD
            if self._shoe is not None:
                self._deal_from_shoe()
                self._after_board()

    def _collect_bets(self) -> None:
        bets = self._bets
        top = self._top
        if not top:
            return
        cutoff = sorted(bets)[-2]
        if top > cutoff:
            # the uncalled part of the one largest bet goes back (spec/holdem.md, A hand)
            seat = bets.index(top)
            self._stacks[seat] += top - cutoff
            self._events.append((_build.bet_returned, seat, top - cutoff))
            bets[seat] = cutoff
        self._put_in = [a + b for a, b in zip(self._put_in, bets, strict=True)]
        self._bets = [0] * self._n
        self._top = 0

    def _deal_from_shoe(self) -> None:
        assert self._shoe is not None
        burned, cards = next_street(self._shoe, board_size=len(self._board))
        self._turn_board(burned, cards)

    def _after_board(self) -> None:
        if self._over:
            self._run_out()
        else:
            self._start_street()

    def _begin_showdown(self) -> None:
        self._phase = Phase.SHOWDOWN
        self._pending = list(self._in)
        if self._rules.shows_hand_aggressor:
            # spec/holdem.md "Winning" (seed 002): the last bet or raise of the hand, on any
            # street, shows first; nobody bet or raised: the first player left of the button
            self._leader = self._aggressor if self._aggressor >= 0 else 0
        order = self.showdown_order
        self._first = order[0] if order else None
        if self._auto_showdown:
            events = self._events
            holes = self._holes
            shown = self._shown
            for seat in order:
                shown[seat] = True
                events.append((_build.shown, seat, holes[seat]))
            self._pending = [False] * self._n
        self._after_showdown_action()

    def _after_showdown_action(self) -> None:
        if self._live <= 1:
            self._settle()
        else:
            self._run_out()

    def _run_out(self) -> None:
        """With the betting over: deal the rest of the board from the shoe once no one is
        left to show or muck, then settle when every live hand is known."""
        size = len(self._board)
        if size < 5:
            shoe = self._shoe
            if shoe is None or any(self._pending):
                return
            # every street left, burn and turn each, from one draw (the same cards in the
            # same order as street by street: nobody acts in between)
            cards = shoe.draw(_RUN_OUT[size])
            start = 0
            while start < len(cards):
                width = 4 if size + start == 0 else 2
                self._turn_board(cards[start], cards[start + 1 : start + width])
                start += width
        self._try_settle()

    def _try_settle(self) -> None:
        if any(self._pending):
            return
        if any(self._in[s] and self._holes[s] is None for s in range(self._n)):
            return
        self._settle()

    def _reveal(self, seat: int) -> Shown:
        self._shown[seat] = True
        self._pending[seat] = False
        event = _build.shown(seat, self._holes[seat])
        self._events.append(event)
        return event

    def _settle(self) -> None:
        awards = None
        rules = self._rules
        if rules.plain:
            awards = uncontested(self._put_in, self._antes, self._in)
            if awards is None and rules.simple_split:
                awards = settle_simple(
                    self._put_in, self._antes, self._in, self._holes, self._board
                )
        if awards is not None:
            rake = 0
        else:
            # every share is computed before any chip moves (an exact split may refuse)
            rake, awards = settle(
                self._cfg,
                put_in=self._put_in,
                antes=self._antes,
                live=self._in,
                holes=self._holes,
                board=self._board,
                unit=self._unit,
            )
        if rake:
            self._rake = rake
            self._events.append(Raked(Chips(rake)))
        for award in awards:
            for seat, share in zip(award.seats, award.amounts, strict=True):
                self._stacks[seat] += share
            self._events.append(award)
        self._put_in = [0] * self._n
        self._order = []
        self._pending = [False] * self._n
        self._phase = Phase.COMPLETE

    def __repr__(self) -> str:
        return (
            f"<CashHand {self._cfg.structure.variant} {self._n} players phase={self._phase}"
            f" street={STREET_NAMES[self._street]} stacks={self.stacks} pot={self.pot_total}>"
        )
