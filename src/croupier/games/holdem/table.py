"""A cash-game table: physical seats, stacks carried from hand to hand, a moving button.

A hand's players are the seats with chips, in position order starting left of the button
(PHH order; spec/holdem.md "Table": the button moves one seat clockwise after every hand).

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

    Raises:
        ConfigError: fewer than two seats or a negative stack.
    """

    __slots__ = ("_button", "_config_for", "_hand", "_positions", "_stacks")

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

    @property
    def stacks(self) -> tuple[int, ...]:
        return tuple(self._stacks)

    @property
    def button(self) -> int:
        return self._button

    def positions(self) -> tuple[int, ...]:
        """The seat of each position of the next hand: left of the button first, button last."""
        n = len(self._stacks)
        order = ((self._button + 1 + k) % n for k in range(n))
        # a seat without chips is skipped; if the button's own seat is empty, the last player
        # with chips before it takes the button's position for this hand
        return tuple(seat for seat in order if self._stacks[seat] > 0)

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
        positions = self.positions()
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
        self._positions = positions
        return hand

    def seat_of(self, position: int) -> int:
        """The physical seat of a position in the hand in play."""
        return self._positions[position]

    def end_hand(self, hand: CashHand) -> None:
        """Take the finished hand's stacks back and move the button one seat clockwise."""
        if hand is not self._hand:
            raise IllegalActionError(
                "this hand is not the one in play at this table", reason="not_this_hand"
            )
        if not hand.is_over:
            raise IllegalActionError("the hand is not over", reason="hand_not_over")
        for position, stack in enumerate(hand.stacks):
            self._stacks[self._positions[position]] = stack
        self._button = (self._button + 1) % len(self._stacks)
        self._hand = None
        self._positions = ()
