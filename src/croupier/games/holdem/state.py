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

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from croupier.cards import Card
from croupier.chips import Chips
from croupier.errors import IllegalActionError, InvalidCardsError, RecordError
from croupier.evaluator import evaluate_ids
from croupier.games.holdem.betting import (
    BettingRound,
    Options,
    acting_order,
    opener,
    post_forced_bets,
    raise_bounds,
    verify_raise_to,
)
from croupier.games.holdem.config import HoldemConfig, ShowdownRule
from croupier.games.holdem.dealing import (
    deal_hole_cards,
    next_street,
    street_of,
    verify_board_cards,
    verify_hole_cards,
    verify_shown_cards,
)
from croupier.games.holdem.engine import HandEngine
from croupier.games.holdem.events import (
    BetReturned,
    BoardDealt,
    Called,
    CardBurned,
    Checked,
    Folded,
    HoldemEvent,
    HoleDealt,
    Mucked,
    Raised,
    Raked,
    Shown,
)
from croupier.games.holdem.phase import STREET_NAMES, Phase
from croupier.games.holdem.pots import build_pots
from croupier.games.holdem.showdown import muck_refusal, order_of_showing, settle
from croupier.games.protocol import refused

if TYPE_CHECKING:
    from croupier.deck import Shoe

__all__ = ["STREET_NAMES", "CashHand", "Phase"]


def _succeeds(verify: Callable[..., None], *args: Any, **kwargs: Any) -> bool:
    """Whether ``verify`` accepts the arguments (the ``can_x`` half of verify/can/do)."""
    try:
        verify(*args, **kwargs)
    except (IllegalActionError, InvalidCardsError):
        return False
    return True


class CashHand(HandEngine):
    """A hand of hold'em from the forced bets to the pots paid; the engine protocol of
    :mod:`croupier.games.protocol` comes from :class:`HandEngine`.

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
        "_antes",
        "_auto_showdown",
        "_bets",
        "_board",
        "_cfg",
        "_dealt",
        "_events",
        "_first",
        "_holes",
        "_in",
        "_n",
        "_over",
        "_pending",
        "_phase",
        "_put_in",
        "_rake",
        "_round",
        "_shoe",
        "_shown",
        "_stacks",
        "_starting",
        "_street",
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
        config.verify_stacks(stacks)
        n = config.players
        self._unit = config.split.unit
        self._cfg = config
        self._n = n
        self._starting = tuple(stacks)
        antes, blinds, forced = post_forced_bets(config, stacks)
        self._stacks = [stacks[i] - antes[i] - blinds[i] for i in range(n)]
        self._bets = blinds
        self._put_in = list(antes)
        self._antes = antes
        self._in = [True] * n
        self._shown = [False] * n
        self._pending = [False] * n
        self._holes: list[tuple[Card, ...] | None] = [None] * n
        self._dealt = [False] * n
        self._board: list[Card] = []
        self._street = 0
        self._phase = Phase.HOLE
        self._round = BettingRound(first=0, order=[], players=n)
        self._over = False
        self._rake = 0
        self._shoe = shoe
        self._first: int | None = None
        self._auto_showdown = auto_showdown
        self._events: list[HoldemEvent] = forced
        if shoe is not None:
            for seat, cards in enumerate(deal_hole_cards(shoe, n)):
                self._give_hole(seat, cards)
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
        return tuple(self._events)

    @property
    def active(self) -> tuple[bool, ...]:
        """Players still able to win (not folded, not mucked)."""
        return tuple(self._in)

    @property
    def actor(self) -> int | None:
        """The player to act in the betting, or ``None``."""
        return self._round.actor

    @property
    def to_call(self) -> int:
        """What the actor must add to call (capped at the stack); 0 when no one is to act."""
        seat = self._round.actor
        if seat is None:
            return 0
        return min(self._stacks[seat], max(self._bets) - self._bets[seat])

    @property
    def showdown_order(self) -> tuple[int, ...]:
        """Players still to show or muck, in order: last aggressor first, then clockwise."""
        return order_of_showing(self._round.leader, self._pending)

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

    def can_win(self, seat: int) -> bool:
        """Whether ``seat``'s hand still wins or ties some pot it contests against the hands
        shown so far (spec/holdem.md "Winning": a player who cannot win may muck).

        Only a complete board decides that; before it, and for unknown cards, ``True``.
        """
        hole = self._holes[seat]
        if len(self._board) < 5 or hole is None or not self._in[seat]:
            return True
        board = [c.id for c in self._board]

        def value(s: int) -> int:
            cards = self._holes[s]
            assert cards is not None
            return evaluate_ids([cards[0].id, cards[1].id, *board])

        mine = value(seat)
        pots = build_pots(
            self._put_in, self._antes, self._in, ante_trimming=self._cfg.ante_trimming
        )
        for pot in pots:
            if seat not in pot.seats:
                continue
            shown = [value(s) for s in pot.seats if s != seat and self._shown[s]]
            if not shown or mine >= max(shown):
                return True
        return False

    def raise_bounds(self) -> tuple[int, int] | None:
        """(min, max) street totals the actor may bet or raise to, or ``None`` if they may not."""
        seat = self._round.actor
        if seat is None:
            return None
        return None if self._raise_refusal(seat) is not None else self._bounds(seat)

    def options(self) -> Options | None:
        """The actor's choices now, or ``None`` when no one is to act in the betting."""
        seat = self._round.actor
        if seat is None:
            return None
        stack = self._stacks[seat]
        bet = self._bets[seat]
        pot = sum(self._put_in) + sum(self._bets)
        low: int | None = None
        high: int | None = None
        if self._raise_refusal(seat) is None:
            low, high = self._bounds(seat)
        owed = min(stack, max(self._bets) - bet)
        return Options(seat, owed, low, high, stack, bet, pot, self._unit)

    # -- dealing (only without a shoe) --------------------------------------------------

    def verify_deal_hole(self, seat: int, cards: Sequence[Card] | None) -> None:
        """Check that ``cards`` (``None`` = unknown) may be dealt to ``seat`` now."""
        if self._shoe is not None:
            raise refused("cards come from the shoe in this hand", "shoe_deals")
        if self._phase is not Phase.HOLE:
            raise refused("hole cards are dealt only before the betting", "not_dealing_now")
        self._check_seat(seat)
        if self._dealt[seat]:
            raise refused(f"player {seat + 1} already has hole cards", "already_dealt", seat=seat)
        if cards is not None:
            verify_hole_cards(cards, board=self._board, holes=self._holes)

    def can_deal_hole(self, seat: int, cards: Sequence[Card] | None) -> bool:
        return _succeeds(self.verify_deal_hole, seat, cards)

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
        return _succeeds(self.verify_deal_board, cards)

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
        self.verify_fold(seat)
        self._round.passed(seat)
        self._in[seat] = False
        event = Folded(seat)
        self._events.append(event)
        self._after_bet_action()
        return event

    def verify_check(self, seat: int) -> None:
        self._check_turn(seat)
        owed = max(self._bets) - self._bets[seat]
        if owed:
            raise refused(
                f"player {seat + 1} cannot check facing a bet of {owed}",
                "check_facing_bet",
                seat=seat,
                to_call=min(owed, self._stacks[seat]),
            )

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
        self.verify_check_or_call(seat)
        return self._check_or_call(seat)

    def verify_raise(self, seat: int, *, to: int) -> None:
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

    def can_raise(self, seat: int, *, to: int) -> bool:
        return _succeeds(self.verify_raise, seat, to=to)

    def raise_to(self, seat: int, to: int) -> Raised:
        """Bet or raise to a street total of ``to``; returns the :class:`Raised` event."""
        self.verify_raise(seat, to=to)
        bets = self._bets
        stacks = self._stacks
        max_bet = max(bets)
        by = to - max_bet
        amount = to - bets[seat]
        bets[seat] = to
        stacks[seat] -= amount
        all_in = stacks[seat] == 0
        full = self._round.raised(
            seat,
            by=by,
            all_in=all_in,
            stacks=stacks,
            live=self._in,
            rule=self._cfg.reopen,
            street_bet=self._cfg.street_bet(self._street),
        )
        event = Raised(seat, Chips(to), Chips(amount), all_in, full)
        self._events.append(event)
        self._after_bet_action()
        return event

    # -- showdown -----------------------------------------------------------------------

    def verify_show(self, seat: int, cards: Sequence[Card] | None = None) -> None:
        """Check that ``seat`` may table their cards (``cards`` names them in a replay).

        After the hand, a player dealt in who has not shown may still show (a winner who
        took the pot uncontested, a player who folded or mucked): show one, show all -- the
        cards are shown to every seat, never to one (docs/rules.md).
        """
        if self._phase is Phase.COMPLETE:
            self._check_seat(seat)
            if self._shown[seat]:
                raise refused(f"player {seat + 1} has shown already", "already_shown", seat=seat)
            if self._holes[seat] is None and cards is None:
                raise refused(
                    f"the cards of player {seat + 1} are not known", "cards_unknown", seat=seat
                )
        else:
            self._check_showdown(seat)
        if cards is not None:
            verify_shown_cards(seat, cards, board=self._board, holes=self._holes)

    def can_show(self, seat: int, cards: Sequence[Card] | None = None) -> bool:
        return _succeeds(self.verify_show, seat, cards)

    def show(self, seat: int, cards: Sequence[Card] | None = None) -> Shown:
        """Table ``seat``'s hole cards (cards speak; a player may table out of turn)."""
        self.verify_show(seat, cards)
        if cards is not None and self._holes[seat] is None:
            self._holes[seat] = tuple(cards)
        if self._phase is Phase.COMPLETE:
            return self._reveal(seat)
        event = self._reveal(seat)
        self._after_showdown_action()
        return event

    def verify_muck(self, seat: int) -> None:
        """Check that ``seat`` may give up their hand at showdown without showing it.

        A player who alone contests a side pot wins it without showing and may not muck it.
        Under the ``seed`` showdown rule (seed 002, the default) the first to show -- the last
        bettor or raiser -- may not muck, and another player only when a hand already shown
        beats theirs in every pot they contest (cards not known, as in a replayed record that
        hides them, cannot be checked and are let through).
        """
        self._check_showdown(seat)
        refusal = muck_refusal(
            seat,
            put_in=self._put_in,
            antes=self._antes,
            live=self._in,
            ante_trimming=self._cfg.ante_trimming,
        )
        if refusal is not None:
            raise refused(refusal, "muck_not_allowed", seat=seat)
        if self._cfg.showdown is ShowdownRule.SEED:
            if seat == self._first:
                raise refused(
                    f"player {seat + 1} bet or raised last and shows first: no muck (seed 002)",
                    "must_show_first",
                    seat=seat,
                )
            if self._holes[seat] is not None and self.can_win(seat):
                raise refused(
                    f"player {seat + 1} may concede only to a hand shown that beats theirs"
                    " (seed 002): show",
                    "must_show",
                    seat=seat,
                )

    def can_muck(self, seat: int) -> bool:
        return _succeeds(self.verify_muck, seat)

    def muck(self, seat: int) -> Mucked:
        self.verify_muck(seat)
        self._in[seat] = False
        self._pending[seat] = False
        event = Mucked(seat)
        self._events.append(event)
        self._after_showdown_action()
        return event

    def verify_finish(self) -> None:
        """Check that the showdown can be settled now: the board is complete and every
        player still in has known cards."""
        if self._phase is not Phase.SHOWDOWN:
            raise refused(
                f"no showdown to finish in phase {self._phase}",
                "not_showdown",
                phase=self._phase.value,
            )
        if len(self._board) < 5:
            raise refused("the board is not complete", "board_incomplete")
        if sum(self._in) > 1:
            for seat in range(self._n):
                if self._in[seat] and self._holes[seat] is None:
                    raise RecordError(f"hole cards of player {seat + 1} are unknown at showdown")

    def finish(self) -> tuple[HoldemEvent, ...]:
        """Show every player who has not yet shown or mucked, in order, and pay the pots."""
        self.verify_finish()
        start = len(self._events)
        for seat in self.showdown_order:
            self._reveal(seat)
        self._settle()
        return tuple(self._events[start:])

    # -- internals ----------------------------------------------------------------------

    def _give_hole(self, seat: int, cards: tuple[Card, ...] | None) -> HoleDealt:
        self._holes[seat] = cards
        self._dealt[seat] = True
        event = HoleDealt(seat, cards)
        self._events.append(event)
        return event

    def _put_board(self, cards: tuple[Card, ...]) -> BoardDealt:
        self._board.extend(cards)
        street = street_of(len(self._board))
        self._street = street
        event = BoardDealt(street, cards)
        self._events.append(event)
        return event

    def _check_seat(self, seat: int) -> None:
        if not 0 <= seat < self._n:
            raise refused(
                f"there is no player {seat + 1} in a hand of {self._n}",
                "seat_does_not_exist",
                seat=seat,
                seats=self._n,
            )

    def _turn_refusal(self, seat: int) -> str | None:
        if self._phase is Phase.COMPLETE:
            return "the hand is over"
        if not 0 <= seat < self._n:
            return f"there is no player {seat + 1} in a hand of {self._n}"
        if not self._in[seat]:
            return f"player {seat + 1} is out of the hand"
        actor = self._round.actor
        if actor is None:
            return "no one is to act in the betting now"
        if actor != seat:
            return f"it is player {actor + 1}'s turn, not player {seat + 1}'s"
        return None

    def _check_turn(self, seat: int) -> None:
        refusal = self._turn_refusal(seat)
        if refusal is not None:
            raise IllegalActionError(refusal, **self.turn_reason(seat))

    def _raise_refusal(self, seat: int) -> str | None:
        """Why the actor may not bet or raise at all, or ``None``."""
        return self._round.refusal(
            seat, config=self._cfg, bets=self._bets, stacks=self._stacks, live=self._in
        )

    def _bounds(self, seat: int) -> tuple[int, int]:
        return raise_bounds(
            self._cfg.structure,
            stack=self._stacks[seat],
            bet=self._bets[seat],
            max_bet=max(self._bets),
            increment=self._round.increment,
            street_bet=self._cfg.street_bet(self._street),
            pot_total=sum(self._put_in) + sum(self._bets),
        )

    def _check_or_call(self, seat: int) -> Checked | Called:
        self._round.passed(seat)
        owed = min(self._stacks[seat], max(self._bets) - self._bets[seat])
        event: Checked | Called
        if owed:
            self._bets[seat] += owed
            self._stacks[seat] -= owed
            event = Called(seat, Chips(owed), self._stacks[seat] == 0)
        else:
            event = Checked(seat)
        self._events.append(event)
        self._after_bet_action()
        return event

    def _start_street(self) -> None:
        bets = self._bets
        first = opener(self._cfg, street=self._street, bets=bets)
        order = acting_order(first, bets=bets, stacks=self._stacks, live=self._in)
        self._phase = Phase.BETTING
        self._round = BettingRound(first=first, order=order, players=self._n)
        if not order or (len(order) == 1 and bets[order[0]] >= max(bets)):
            self._end_betting()

    def _after_bet_action(self) -> None:
        if self._round.actor is None or sum(self._in) <= 1:
            self._end_betting()

    def _end_betting(self) -> None:
        self._round.close()
        n = self._n
        live = sum(self._in)
        if live > 1 and (
            self._street == 3 or sum(1 for i in range(n) if self._in[i] and self._stacks[i]) <= 1
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
        if not any(bets):
            return
        cutoff = sorted(bets)[-2]
        for seat in range(self._n):
            if bets[seat] > cutoff:
                over = bets[seat] - cutoff
                self._stacks[seat] += over
                bets[seat] = cutoff
                self._events.append(BetReturned(seat, Chips(over)))
            self._put_in[seat] += bets[seat]
            bets[seat] = 0

    def _deal_from_shoe(self) -> None:
        assert self._shoe is not None
        burned, cards = next_street(self._shoe, board_size=len(self._board))
        self._events.append(CardBurned(burned))
        self._put_board(cards)

    def _after_board(self) -> None:
        if self._over:
            self._run_out()
        else:
            self._start_street()

    def _begin_showdown(self) -> None:
        self._phase = Phase.SHOWDOWN
        self._pending = list(self._in)
        order = self.showdown_order
        self._first = order[0] if order else None
        if self._auto_showdown:
            for seat in self.showdown_order:
                self._reveal(seat)
        self._after_showdown_action()

    def _after_showdown_action(self) -> None:
        if sum(self._in) <= 1:
            self._settle()
        else:
            self._run_out()

    def _run_out(self) -> None:
        """With the betting over: deal the rest of the board from the shoe once no one is
        left to show or muck, then settle when every live hand is known."""
        if len(self._board) < 5:
            if self._shoe is not None and not any(self._pending):
                self._deal_from_shoe()
                self._after_board()
        else:
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
        event = Shown(seat, self._holes[seat])
        self._events.append(event)
        return event

    def _check_showdown(self, seat: int) -> None:
        if self._phase in (Phase.COMPLETE, Phase.VOIDED):
            raise refused("the hand is over", "hand_over")
        self._check_seat(seat)
        if self._phase is not Phase.SHOWDOWN:
            raise refused(
                "cards are shown only once the betting is over",
                "not_showdown",
                phase=self._phase.value,
            )
        if not self._in[seat]:
            raise refused(f"player {seat + 1} is out of the hand", "not_in_hand", seat=seat)

    def _settle(self) -> None:
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
        self._round.close()
        self._pending = [False] * self._n
        self._phase = Phase.COMPLETE

    def __repr__(self) -> str:
        return (
            f"<CashHand {self._cfg.structure.variant} {self._n} players phase={self._phase}"
            f" street={STREET_NAMES[self._street]} stacks={self.stacks} pot={self.pot_total}>"
        )
