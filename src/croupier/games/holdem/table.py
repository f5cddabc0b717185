"""A cash-game table: physical seats, stacks carried from hand to hand, a moving button.

A hand's players are the seats with chips, in position order starting left of the button
(PHH order; spec/holdem.md "Table": the button moves clockwise after every hand, to the next
seat with chips; docs/rules.md "The button").

>>> from croupier.deck import Shoe, seeded_source, shuffled
>>> table = CashTable(lambda n: HoldemConfig.cash(players=n, small_blind=1, big_blind=2),
...                   stacks=(100, 100, 100), button=0)
>>> table.positions()
(1, 2, 0)
>>> hand = table.start_hand(shoe=Shoe(shuffled(seeded_source(3))))
>>> while not hand.is_over:
...     _ = hand.fold(hand.actor) if hand.to_call else hand.check_or_call(hand.actor)
>>> table.end_hand(hand)
>>> table.button, sum(table.stacks)
(1, 300)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from croupier.errors import ConfigError, IllegalActionError
from croupier.games.holdem.config import HoldemConfig
from croupier.games.holdem.state import CashHand

if TYPE_CHECKING:
    from croupier.deck import Shoe

__all__ = ["CashTable"]


class CashTable:
    """Seats 0..n-1 clockwise; ``config_for(players)`` gives the rules for a hand of that size.

    The button moves as in most card rooms' cash games and the server's tables (docs/rules.md
    "The button"): after every hand to the next seat clockwise with chips, so a seat left
    empty never holds it; and never so that the big blind falls on the player who posted it
    the hand before (a player who busted or sat down beside the blinds could cause that):
    then it moves one seat with chips further.

    Raises:
        ConfigError: fewer than two seats or a negative stack.
    """

    __slots__ = ("_button", "_config_for", "_hand", "_last_big_blind", "_positions", "_stacks")

    def __init__(
        self,
        config_for: Callable[[int], HoldemConfig],
        *,
        stacks: Sequence[int],
        button: int = 0,
    ) -> None:
        if len(stacks) < 2 or any(stack < 0 for stack in stacks):
            raise ConfigError(f"a table needs two or more seats with stacks >= 0, not {stacks}")
        if not 0 <= button < len(stacks):
            raise ConfigError(f"button seat {button} is not at the table")
        self._config_for = config_for
        self._stacks = list(stacks)
        self._button = button
        self._hand: CashHand | None = None
        self._positions: tuple[int, ...] = ()
        self._last_big_blind: int | None = None

    @property
    def stacks(self) -> tuple[int, ...]:
        return tuple(self._stacks)

    @property
    def button(self) -> int:
        """The button's seat: the hand in play's, or between hands the next hand's."""
        return self._button if self._hand is not None else self._next_button()

    @property
    def big_blind(self) -> int | None:
        """The seat that posts the big blind: in the hand in play, or between hands in the
        next hand (``None`` while fewer than two seats have chips)."""
        order = self._positions if self._hand is not None else self.positions()
        return _big_blind(order) if len(order) >= 2 else None

    def positions(self) -> tuple[int, ...]:
        """The seat of each position of the next hand: left of the button first, button last;
        a seat without chips is skipped."""
        return self._order(self._next_button())

    def _order(self, button: int) -> tuple[int, ...]:
        n = len(self._stacks)
        order = ((button + 1 + k) % n for k in range(n))
        return tuple(seat for seat in order if self._stacks[seat] > 0)

    def _with_chips_after(self, seat: int) -> int | None:
        """The first seat clockwise after ``seat`` (itself last) that has chips."""
        n = len(self._stacks)
        return next(
            ((seat + k) % n for k in range(1, n + 1) if self._stacks[(seat + k) % n] > 0), None
        )

    def _next_button(self) -> int:
        """The next hand's button (docs/rules.md "The button"): the button's seat if it has
        chips, else the next seat with chips; one seat with chips further when the big blind
        would fall again on the seat that posted it last hand."""
        button = self._button
        if self._stacks[button] <= 0:
            nxt = self._with_chips_after(button)
            button = button if nxt is None else nxt
        order = self._order(button)
        if len(order) >= 2 and _big_blind(order) == self._last_big_blind:
            further = self._with_chips_after(button)
            if further is not None:
                button = further
        return button

    def set_stack(self, seat: int, amount: int) -> None:
        """Change a seat's stack between hands (buy-in, rebuy, leaving)."""
        if self._hand is not None:
            raise IllegalActionError(
                "stacks change only between hands", reason="stacks_during_hand"
            )
        if amount < 0:
            raise ConfigError(f"stack {amount} is negative")
        self._stacks[seat] = amount

    def start_hand(self, *, shoe: Shoe | None = None, auto_showdown: bool = False) -> CashHand:
        """Deal a hand to the seats with chips."""
        if self._hand is not None:
            raise IllegalActionError("a hand is already in play", reason="hand_in_play")
        button = self._next_button()
        positions = self._order(button)
        if len(positions) < 2:
            raise IllegalActionError("fewer than two players have chips", reason="too_few_players")
        config = self._config_for(len(positions))
        hand = CashHand(
            config,
            stacks=[self._stacks[seat] for seat in positions],
            shoe=shoe,
            auto_showdown=auto_showdown,
        )
        self._hand = hand
        self._button = button
        self._positions = positions
        return hand

    def seat_of(self, position: int) -> int:
        """The physical seat of a position in the hand in play."""
        return self._positions[position]

    def end_hand(self, hand: CashHand) -> None:
        """Take the finished hand's stacks back and move the button to the next seat with
        chips (docs/rules.md "The button")."""
        if hand is not self._hand:
            raise IllegalActionError(
                "this hand is not the one in play at this table", reason="not_this_hand"
            )
        if not hand.is_over:
            raise IllegalActionError("the hand is not over", reason="hand_not_over")
        for position, stack in enumerate(hand.stacks):
            self._stacks[self._positions[position]] = stack
        self._last_big_blind = _big_blind(self._positions)
        nxt = self._with_chips_after(self._button)
        if nxt is not None:
            self._button = nxt
        self._hand = None
        self._positions = ()


def _big_blind(order: Sequence[int]) -> int:
    """The big blind's seat in a hand's positions: the second left of the button, heads-up
    the first (the button posts the small blind, spec/holdem.md "Table")."""
    return order[1] if len(order) > 2 else order[0]
