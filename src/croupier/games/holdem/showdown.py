"""Showdown and settlement: the order of showing, who may muck, rake, hand values, and each
pot paid to its best hands (spec/holdem.md, Winning).

Pure functions over the end-of-hand amounts; :class:`~croupier.games.holdem.state.CashHand`
applies the result.
"""

from __future__ import annotations

from collections.abc import Sequence

from croupier.cards import Card
from croupier.chips import Chips
from croupier.evaluator import evaluate_ids
from croupier.games.holdem.config import HoldemConfig
from croupier.games.holdem.events import PotAwarded
from croupier.games.holdem.pots import Pot, build_pots, split_pot, take_rake

__all__ = ["muck_refusal", "order_of_showing", "settle"]


def order_of_showing(first: int, pending: Sequence[bool]) -> tuple[int, ...]:
    """The players still to show or muck, in order from ``first`` (the last aggressor, else
    the first player left of the button) clockwise.

    >>> order_of_showing(2, (True, False, True, True))
    (2, 3, 0)
    """
    n = len(pending)
    return tuple(seat for seat in ((first + k) % n for k in range(n)) if pending[seat])


def muck_refusal(
    seat: int,
    *,
    put_in: Sequence[int],
    antes: Sequence[int],
    live: Sequence[bool],
    ante_trimming: bool,
) -> str | None:
    """Why ``seat`` may not muck at showdown, or ``None``: a player who alone contests a side
    pot wins it without showing and may not give it up."""
    others = list(live)
    others[seat] = False
    pots = build_pots(put_in, antes, others, ante_trimming=ante_trimming)
    if any(seat in pot.seats and not any(others[s] for s in pot.seats) for pot in pots):
        return f"player {seat + 1} alone contests a side pot and takes it without showing"
    return None


def settle(
    config: HoldemConfig,
    *,
    put_in: Sequence[int],
    antes: Sequence[int],
    live: Sequence[bool],
    holes: Sequence[tuple[Card, ...] | None],
    board: Sequence[Card],
    unit: int = 1,
) -> tuple[int, list[PotAwarded]]:
    """The rake and the pot awards of a finished hand.

    Args:
        put_in: each player's total in the pots (antes included, uncalled bets returned).
        antes: the antes each player posted.
        live: players still able to win (not folded, not mucked).
        holes: hole cards (``None`` unknown; only needed for contested pots).
        board: the community cards.
        unit: the rake is a whole multiple of this (``EXACT_SCALE`` for exact splits).

    Raises:
        ConfigError: an exact split that does not divide (see ``EXACT_SCALE``).
    """
    trimming = config.ante_trimming
    pots = build_pots(put_in, antes, live, ante_trimming=trimming)
    rake = config.rake.take(sum(p.amount for p in pots), flop_dealt=len(board) >= 3)
    rake -= rake % unit
    if rake:
        pots = take_rake(pots, rake)
    values = [0] * len(put_in)
    if any(len(pot.seats) > 1 for pot in pots):
        ids = [card.id for card in board]
        for seat, hole in enumerate(holes):
            if live[seat] and hole is not None:
                values[seat] = evaluate_ids([hole[0].id, hole[1].id, *ids])
        # beaten hands leave first, then pots with the same players merge and split as one
        # (PokerKit's hand killing; it decides where odd chips go under `live`)
        keep = list(live)
        for seat in range(len(keep)):
            if keep[seat] and not any(
                seat in pot.seats and values[seat] == max(values[s] for s in pot.seats)
                for pot in pots
            ):
                keep[seat] = False
        pots = build_pots(put_in, antes, keep, ante_trimming=trimming)
        if rake:
            pots = take_rake(pots, rake)
    awards = [
        _award(config, index, pot, values, holes) for index, pot in enumerate(pots) if pot.amount
    ]
    return rake, awards


def _award(
    config: HoldemConfig,
    index: int,
    pot: Pot,
    values: list[int],
    holes: Sequence[tuple[Card, ...] | None],
) -> PotAwarded:
    if len(pot.seats) == 1:
        return PotAwarded(index, pot.seats, (Chips(pot.amount),), 0)
    best = max(values[s] for s in pot.seats)
    winners = [s for s in pot.seats if values[s] == best]
    seats, shares = split_pot(
        pot.amount, winners, config.split, odd_chip=config.odd_chip, holes=holes
    )
    return PotAwarded(index, seats, tuple(Chips(share) for share in shares), best)
