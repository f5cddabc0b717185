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
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from croupier.cards import Card, check_distinct
from croupier.errors import ConfigError, IllegalActionError, InvalidCardsError, RecordError
from croupier.games.holdem.betting import Options, raise_bounds
from croupier.games.holdem.config import EXACT_SCALE, HoldemConfig, ReopenRule, SplitPolicy
from croupier.games.holdem.events import (
    AntePosted,
    BetReturned,
    BlindPosted,
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
from croupier.games.holdem.pots import build_pots
from croupier.games.holdem.showdown import settle

if TYPE_CHECKING:
    from croupier.deck import Shoe

__all__ = ["STREET_NAMES", "CashHand", "Phase"]

STREET_NAMES = ("pre-flop", "flop", "turn", "river")
_BOARD_SIZES = (0, 3, 4, 5)


def _succeeds(verify: Callable[..., None], *args: Any, **kwargs: Any) -> bool:
    """Whether ``verify`` accepts the arguments (the ``can_x`` half of verify/can/do)."""
    try:
        verify(*args, **kwargs)
    except (IllegalActionError, InvalidCardsError):
        return False
    return True


class Phase(StrEnum):
    """Where the hand stands."""

    HOLE = "hole"
    """Waiting for hole cards (only when no shoe was handed in)."""
    BETTING = "betting"
    BOARD = "board"
    """Waiting for the next street's board cards (no shoe)."""
    SHOWDOWN = "showdown"
    """Betting is over; players show or muck, remaining board cards may still come."""
    COMPLETE = "complete"


class CashHand:
    """A hand of hold'em from the forced bets to the pots paid.

    Args:
        config: the table's rules for this hand.
        stacks: each player's chips at the start, in position order (table stakes).
        shoe: deal from this ordered deck (burning before each street); without it, cards
            come through :meth:`deal_hole` and :meth:`deal_board` (replaying a record).
        auto_showdown: at showdown every player still in shows (no mucking decisions).

    Raises:
        ConfigError: stacks do not match the number of players or are not positive.
    """

    __slots__ = (
        "_acted",
        "_antes",
        "_auto_showdown",
        "_bets",
        "_board",
        "_casino",
        "_cfg",
        "_dealt",
        "_events",
        "_holes",
        "_in",
        "_increment",
        "_n",
        "_opener",
        "_over",
        "_pending",
        "_phase",
        "_put_in",
        "_queue",
        "_raises",
        "_rake",
        "_shoe",
        "_short",
        "_shown",
        "_stacks",
        "_starting",
        "_street",
        "_unit",
    )

    def __init__(
        self,
        config: HoldemConfig,
        *,
        stacks: Sequence[int],
        shoe: Shoe | None = None,
        auto_showdown: bool = False,
    ) -> None:
        n = config.players
        if len(stacks) != n:
            raise ConfigError(f"{len(stacks)} stacks for {n} players")
        if any(stack <= 0 for stack in stacks):
            raise ConfigError(f"stacks {tuple(stacks)} must all be positive")
        unit = EXACT_SCALE if config.split is SplitPolicy.EXACT else 1
        amounts = (*stacks, *config.antes, *config.blinds_or_straddles, config.min_bet)
        if any(a % unit for a in (*amounts, config.small_bet, config.big_bet)):
            # spec/holdem.md Winning, Decision `exact`: every pot must divide exactly among up
            # to ten winners, so money is counted in 1/EXACT_SCALE of a whole chip
            raise ConfigError(
                f"the exact split policy needs every amount in whole multiples of EXACT_SCALE"
                f" ({EXACT_SCALE} units per chip)"
            )
        self._unit = unit
        self._casino = config.reopen is ReopenRule.CASINO
        self._cfg = config
        self._n = n
        self._starting = tuple(stacks)
        self._stacks = list(stacks)
        self._bets = [0] * n
        self._put_in = [0] * n
        self._antes = [0] * n
        self._in = [True] * n
        self._shown = [False] * n
        self._pending = [False] * n
        self._holes: list[tuple[Card, ...] | None] = [None] * n
        self._dealt = [False] * n
        self._board: list[Card] = []
        self._street = 0
        self._phase = Phase.HOLE
        self._queue: list[int] = []
        self._acted = [False] * n
        self._increment = 0
        self._raises = 0
        self._short = 0
        self._opener = 0
        self._over = False
        self._rake = 0
        self._shoe = shoe
        self._auto_showdown = auto_showdown
        self._events: list[HoldemEvent] = []
        self._post_forced_bets()
        if shoe is not None:
            # spec/holdem.md "A hand" 1: one card at a time clockwise from left of the button
            cards = shoe.draw(2 * n)
            for seat in range(n):
                self._give_hole(seat, (cards[seat], cards[seat + n]))
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
        return self._queue[0] if self._queue else None

    @property
    def to_call(self) -> int:
        """What the actor must add to call (capped at the stack); 0 when no one is to act."""
        if not self._queue:
            return 0
        seat = self._queue[0]
        return min(self._stacks[seat], max(self._bets) - self._bets[seat])

    @property
    def showdown_order(self) -> tuple[int, ...]:
        """Players still to show or muck, in order: last aggressor first, then clockwise."""
        n = self._n
        order = ((self._opener + k) % n for k in range(n))
        return tuple(seat for seat in order if self._pending[seat])

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
        if not self._queue:
            return None
        seat = self._queue[0]
        if self._raise_refusal(seat) is not None:
            return None
        return self._bounds(seat)

    def options(self) -> Options | None:
        """The actor's choices now, or ``None`` when no one is to act in the betting."""
        if not self._queue:
            return None
        seat = self._queue[0]
        bets = self._bets
        stack = self._stacks[seat]
        bet = bets[seat]
        max_bet = max(bets)
        pot = sum(self._put_in) + sum(bets)
        low: int | None = None
        high: int | None = None
        if self._raise_refusal(seat) is None:
            low, high = raise_bounds(
                self._cfg.structure,
                stack=stack,
                bet=bet,
                max_bet=max_bet,
                increment=self._increment,
                street_bet=self._cfg.street_bet(self._street),
                pot_total=pot,
            )
        return Options(seat, min(stack, max_bet - bet), low, high, stack, bet, pot, self._unit)

    # -- dealing (only without a shoe) --------------------------------------------------

    def verify_deal_hole(self, seat: int, cards: Sequence[Card] | None) -> None:
        """Check that ``cards`` (``None`` = unknown) may be dealt to ``seat`` now."""
        if self._shoe is not None:
            raise IllegalActionError("cards come from the shoe in this hand")
        if self._phase is not Phase.HOLE:
            raise IllegalActionError("hole cards are dealt only before the betting")
        self._check_seat(seat)
        if self._dealt[seat]:
            raise IllegalActionError(f"player {seat + 1} already has hole cards")
        if cards is not None:
            if len(cards) != 2:
                raise InvalidCardsError(f"hold'em deals two hole cards, not {len(cards)}")
            self._check_new_cards(cards)

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
            raise IllegalActionError("cards come from the shoe in this hand")
        waiting = self._phase is Phase.BOARD or (
            self._phase is Phase.SHOWDOWN and len(self._board) < 5
        )
        if not waiting:
            raise IllegalActionError("no board cards are due now")
        size = 1 if self._board else 3
        if len(cards) != size:
            raise InvalidCardsError(f"the next street needs {size} board cards, not {len(cards)}")
        self._check_new_cards(cards)

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
        self._queue.pop(0)
        self._acted[seat] = True
        self._in[seat] = False
        event = Folded(seat)
        self._events.append(event)
        self._after_bet_action()
        return event

    def verify_check(self, seat: int) -> None:
        self._check_turn(seat)
        owed = max(self._bets) - self._bets[seat]
        if owed:
            raise IllegalActionError(f"player {seat + 1} cannot check facing a bet of {owed}")

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
            raise IllegalActionError(f"player {seat + 1} has nothing to call")

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
        refusal = self._raise_refusal(seat)
        if refusal is not None:
            raise IllegalActionError(refusal)
        low, high = self._bounds(seat)
        if to > self._stacks[seat] + self._bets[seat]:
            raise IllegalActionError(
                f"raise to {to} is more than player {seat + 1} has"
                f" ({self._stacks[seat] + self._bets[seat]})"
            )
        if to % self._unit:
            raise IllegalActionError(f"raise to {to} is not in whole chips of {self._unit} units")
        if to < low:
            raise IllegalActionError(f"raise to {to} is below the minimum raise to {low}")
        if to > high:
            raise IllegalActionError(f"raise to {to} is above the maximum raise to {high}")

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
        n = self._n
        self._queue = [
            j for j in ((seat + k) % n for k in range(1, n)) if self._in[j] and stacks[j] > 0
        ]
        self._opener = seat
        all_in = stacks[seat] == 0
        self._raises += 1
        if self._casino:
            # spec/holdem.md Decision: an all-in short of a full raise does not reopen the
            # betting; short all-ins that add up to a full raise do
            threshold = max(self._increment, self._cfg.street_bet(self._street))
            full = by >= threshold
            if full:
                self._increment = by
                self._short = 0
            else:
                self._short += by
            if full or self._short >= threshold:
                self._acted = [False] * n
                self._short = 0
        else:
            full = by >= self._increment
            if full:
                self._acted = [False] * n
            if by > self._increment:
                self._increment = by
            if all_in:
                self._short += by
                if self._short >= self._increment:
                    self._short = 0
            else:
                self._short = 0
        self._acted[seat] = True
        event = Raised(seat, to, amount, all_in, full)
        self._events.append(event)
        self._after_bet_action()
        return event

    # -- showdown -----------------------------------------------------------------------

    def verify_show(self, seat: int, cards: Sequence[Card] | None = None) -> None:
        """Check that ``seat`` may table their cards (``cards`` names them in a replay)."""
        self._check_showdown(seat)
        if cards is None:
            return
        if len(cards) != 2:
            raise InvalidCardsError(f"a player shows two hole cards, not {len(cards)}")
        hole = self._holes[seat]
        if hole is not None:
            if set(hole) != set(cards):
                raise IllegalActionError(
                    f"player {seat + 1} holds {''.join(map(str, hole))},"
                    f" not {''.join(map(str, cards))}"
                )
        else:
            self._check_new_cards(cards)

    def can_show(self, seat: int, cards: Sequence[Card] | None = None) -> bool:
        return _succeeds(self.verify_show, seat, cards)

    def show(self, seat: int, cards: Sequence[Card] | None = None) -> Shown:
        """Table ``seat``'s hole cards (cards speak; a player may table out of turn)."""
        self.verify_show(seat, cards)
        if cards is not None and self._holes[seat] is None:
            self._holes[seat] = tuple(cards)
        event = self._reveal(seat)
        self._after_showdown_action()
        return event

    def verify_muck(self, seat: int) -> None:
        """Check that ``seat`` may give up their hand at showdown without showing it.

        A player who alone contests a side pot wins it without showing and may not muck it.
        """
        self._check_showdown(seat)
        live = list(self._in)
        live[seat] = False
        pots = build_pots(self._put_in, self._antes, live, ante_trimming=self._cfg.ante_trimming)
        if any(seat in pot.seats and not any(live[s] for s in pot.seats) for pot in pots):
            raise IllegalActionError(
                f"player {seat + 1} alone contests a side pot and takes it without showing"
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
            raise IllegalActionError(f"no showdown to finish in phase {self._phase}")
        if len(self._board) < 5:
            raise IllegalActionError("the board is not complete")
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

    def _post_forced_bets(self) -> None:
        cfg = self._cfg
        for seat in range(self._n):
            ante = min(cfg.effective_ante(seat), self._stacks[seat])
            if ante:
                self._stacks[seat] -= ante
                self._antes[seat] = ante
                self._put_in[seat] = ante
                self._events.append(AntePosted(seat, ante))
        for seat in range(self._n):
            blind = min(cfg.effective_blind(seat), self._stacks[seat])
            if blind:
                self._stacks[seat] -= blind
                self._bets[seat] = blind
                self._events.append(BlindPosted(seat, blind))
        if cfg.ante_trimming and any(self._antes):
            # PHH ante_trimming_status: antes are trimmed like bets, an ante above the second
            # largest goes back once the blinds are posted (as PokerKit; a lone big-blind ante is all returned)
            cutoff = sorted(self._antes)[-2]
            for seat in range(self._n):
                over = self._antes[seat] - cutoff
                if over > 0:
                    self._antes[seat] = self._put_in[seat] = cutoff
                    self._stacks[seat] += over
                    self._events.append(BetReturned(seat, over))

    def _give_hole(self, seat: int, cards: tuple[Card, ...] | None) -> HoleDealt:
        self._holes[seat] = cards
        self._dealt[seat] = True
        event = HoleDealt(seat, cards)
        self._events.append(event)
        return event

    def _put_board(self, cards: tuple[Card, ...]) -> BoardDealt:
        self._board.extend(cards)
        street = _BOARD_SIZES.index(len(self._board))
        self._street = street
        event = BoardDealt(street, cards)
        self._events.append(event)
        return event

    def _known_cards(self) -> list[Card]:
        known = list(self._board)
        for hole in self._holes:
            if hole is not None:
                known.extend(hole)
        return known

    def _check_new_cards(self, cards: Sequence[Card]) -> None:
        check_distinct([*self._known_cards(), *cards])

    def _check_seat(self, seat: int) -> None:
        if not 0 <= seat < self._n:
            raise IllegalActionError(f"there is no player {seat + 1} in a hand of {self._n}")

    def _turn_refusal(self, seat: int) -> str | None:
        if self._phase is Phase.COMPLETE:
            return "the hand is over"
        if not 0 <= seat < self._n:
            return f"there is no player {seat + 1} in a hand of {self._n}"
        if not self._in[seat]:
            return f"player {seat + 1} is out of the hand"
        if not self._queue:
            return "no one is to act in the betting now"
        if self._queue[0] != seat:
            return f"it is player {self._queue[0] + 1}'s turn, not player {seat + 1}'s"
        return None

    def _check_turn(self, seat: int) -> None:
        refusal = self._turn_refusal(seat)
        if refusal is not None:
            raise IllegalActionError(refusal)

    def _raise_refusal(self, seat: int) -> str | None:
        """Why the actor may not bet or raise at all, or ``None``."""
        bets = self._bets
        max_bet = max(bets)
        owed = min(self._stacks[seat], max_bet - bets[seat])
        cap = self._cfg.raise_cap
        if cap is not None and self._raises >= cap:
            return f"the betting is capped at {cap} bets and raises this street"
        if self._casino:
            refused = self._acted[seat]
        else:
            refused = owed < self._increment or (
                bool(self._short) and self._short < self._increment and self._acted[seat]
            )
        if refused:
            # spec/holdem.md Decision: an incomplete all-in raise does not reopen the betting
            return f"player {seat + 1} already acted and the betting was not reopened"
        if self._stacks[seat] <= max_bet - bets[seat]:
            return f"player {seat + 1} can only call all-in"
        for other in range(self._n):
            if other != seat and self._in[other] and self._stacks[other] + bets[other] > max_bet:
                return None
        return "every other player is all-in"

    def _bounds(self, seat: int) -> tuple[int, int]:
        return raise_bounds(
            self._cfg.structure,
            stack=self._stacks[seat],
            bet=self._bets[seat],
            max_bet=max(self._bets),
            increment=self._increment,
            street_bet=self._cfg.street_bet(self._street),
            pot_total=sum(self._put_in) + sum(self._bets),
        )

    def _check_or_call(self, seat: int) -> Checked | Called:
        self._queue.pop(0)
        self._acted[seat] = True
        owed = min(self._stacks[seat], max(self._bets) - self._bets[seat])
        event: Checked | Called
        if owed:
            self._bets[seat] += owed
            self._stacks[seat] -= owed
            event = Called(seat, owed, self._stacks[seat] == 0)
        else:
            event = Checked(seat)
        self._events.append(event)
        self._after_bet_action()
        return event

    def _start_street(self) -> None:
        n = self._n
        bets = self._bets
        if self._street == 0:
            cfg = self._cfg
            # PokerKit's opening: left of the largest blind or straddle posted
            top = max(range(n), key=lambda i: (bets[i] if cfg.effective_blind(i) else 0, i))
            opener = (top + 1) % n
        else:
            opener = 0
        self._opener = opener
        self._phase = Phase.BETTING
        stacks = self._stacks
        live = self._in
        totals = sorted(bets[j] + stacks[j] for j in range(n) if live[j])
        second = totals[-2] if len(totals) > 1 else 0
        # a player acts only if they could still lose chips: their effective stack (against
        # the second-largest bet plus stack) is positive (as PokerKit)
        self._queue = [
            j
            for j in ((opener + k) % n for k in range(n))
            if live[j] and stacks[j] > 0 and second > bets[j]
        ]
        self._acted = [False] * n
        self._increment = 0
        self._raises = 0
        self._short = 0
        queue = self._queue
        if not queue or (len(queue) == 1 and bets[queue[0]] >= max(bets)):
            self._end_betting()

    def _after_bet_action(self) -> None:
        if not self._queue or sum(self._in) <= 1:
            self._end_betting()

    def _end_betting(self) -> None:
        self._queue = []
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
                self._events.append(BetReturned(seat, over))
            self._put_in[seat] += bets[seat]
            bets[seat] = 0

    def _deal_from_shoe(self) -> None:
        shoe = self._shoe
        assert shoe is not None
        self._events.append(CardBurned(shoe.burn()))
        self._put_board(shoe.draw(3 if not self._board else 1))

    def _after_board(self) -> None:
        if not self._over:
            self._start_street()
        elif len(self._board) < 5:
            if self._shoe is not None and not any(self._pending):
                self._deal_from_shoe()
                self._after_board()
        else:
            self._try_settle()

    def _begin_showdown(self) -> None:
        self._phase = Phase.SHOWDOWN
        self._pending = list(self._in)
        if self._auto_showdown:
            for seat in self.showdown_order:
                self._reveal(seat)
        self._after_showdown_action()

    def _after_showdown_action(self) -> None:
        if sum(self._in) <= 1:
            self._settle()
        elif len(self._board) < 5:
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
        if self._phase is Phase.COMPLETE:
            raise IllegalActionError("the hand is over")
        self._check_seat(seat)
        if self._phase is not Phase.SHOWDOWN:
            raise IllegalActionError("cards are shown only once the betting is over")
        if not self._in[seat]:
            raise IllegalActionError(f"player {seat + 1} is out of the hand")

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
            self._events.append(Raked(rake))
        for award in awards:
            for seat, share in zip(award.seats, award.amounts, strict=True):
                self._stacks[seat] += share
            self._events.append(award)
        self._put_in = [0] * self._n
        self._queue = []
        self._pending = [False] * self._n
        self._phase = Phase.COMPLETE

    def __repr__(self) -> str:
        return (
            f"<CashHand {self._cfg.structure.variant} {self._n} players phase={self._phase}"
            f" street={STREET_NAMES[self._street]} stacks={self.stacks} pot={self.pot_total}>"
        )
