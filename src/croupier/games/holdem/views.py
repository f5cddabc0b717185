"""What one player may see of a hand: their own hole cards, the board, and cards tabled at
showdown -- never another player's hole cards before they are shown (STYLE.md rule 5).

>>> from croupier.deck import Shoe, seeded_source, shuffled
>>> from croupier.games.holdem import CashHand, HoldemConfig
>>> config = HoldemConfig.cash(players=3, small_blind=1, big_blind=2)
>>> hand = CashHand(config, stacks=(100, 100, 100), shoe=Shoe(shuffled(seeded_source(1))))
>>> view = hand.view(0)
>>> view.hole_cards[1] is None and view.hole_cards[2] is None and view.hole_cards[0] is not None
True
"""

from __future__ import annotations

from dataclasses import dataclass

from croupier.cards import Card
from croupier.games.holdem.betting import Options
from croupier.games.holdem.hand import HandState
from croupier.games.holdem.phase import Phase

__all__ = ["HandView", "Options", "options_for", "view_for"]


@dataclass(frozen=True, slots=True, kw_only=True)
class HandView:
    """A hand as ``seat`` sees it (``None``: a spectator)."""

    seat: int | None
    phase: Phase
    street: int
    board: tuple[Card, ...]
    hole_cards: tuple[tuple[Card, ...] | None, ...]
    """Own cards, and other players' only once tabled at showdown."""
    stacks: tuple[int, ...]
    bets: tuple[int, ...]
    active: tuple[bool, ...]
    pot: int
    actor: int | None
    options: Options | None
    """Set when ``seat`` is the player to act."""


def options_for(hand: HandState) -> Options | None:
    """The actor's choices, or ``None`` when no one is to act in the betting."""
    return None if hand.phase is Phase.VOIDED else hand.options()


def view_for(hand: HandState, seat: int | None) -> HandView:
    """The projection of ``hand`` that ``seat`` may see (``CashHand.view``)."""
    holes = tuple(
        hand.hole_cards(other) if other == seat or hand.shown(other) else None
        for other in range(hand.players)
    )
    actor = None if hand.phase is Phase.VOIDED else hand.actor
    options = options_for(hand) if seat is not None and actor == seat else None
    return HandView(
        seat=seat,
        phase=hand.phase,
        street=hand.street,
        board=hand.board,
        hole_cards=holes,
        stacks=hand.stacks,
        bets=hand.bets,
        active=hand.active,
        pot=hand.pot_total,
        actor=actor,
        options=options,
    )
