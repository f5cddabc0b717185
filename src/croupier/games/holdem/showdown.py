"""Showdown and settlement: the order of showing, who may muck, rake, hand values, and each
pot paid to its best hands (spec/holdem.md, Winning).

Pure functions over the end-of-hand amounts; :class:`~croupier.games.holdem.state.CashHand`
applies the result.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from croupier.cards import Card
from croupier.chips import Chips
from croupier.errors import IllegalActionError
from croupier.evaluator import evaluate_ids, evaluate_on_board
from croupier.games.holdem import _build as build
from croupier.games.holdem.config import HoldemConfig
from croupier.games.holdem.events import PotAwarded
from croupier.games.holdem.pots import Pot, build_pots, level_pots, split_pot, take_rake
from croupier.games.protocol import refused

__all__ = [
    "can_win",
    "muck_refusal",
    "order_of_showing",
    "seed_muck_refusal",
    "settle",
    "settle_simple",
    "uncontested",
]


def order_of_showing(first: int, pending: Sequence[bool]) -> tuple[int, ...]:
    """The players still to show or muck, in order from ``first`` (the last aggressor, else
    the first player left of the button) clockwise.

    >>> order_of_showing(2, (True, False, True, True))
    (2, 3, 0)
    """
    n = len(pending)
    return tuple(seat for seat in ((first + k) % n for k in range(n)) if pending[seat])


def can_win(
    seat: int,
    *,
    put_in: Sequence[int],
    antes: Sequence[int],
    live: Sequence[bool],
    shown: Sequence[bool],
    holes: Sequence[tuple[Card, ...] | None],
    board: Sequence[Card],
    ante_trimming: bool,
) -> bool:
    """Whether ``seat``'s hand still wins or ties some pot it contests against the hands
    shown so far (``CashHand.can_win``); ``True`` before the board is complete and for
    unknown cards."""
    hole = holes[seat]
    if len(board) < 5 or hole is None or not live[seat]:
        return True
    ids = [c.id for c in board]

    def value(s: int) -> int:
        cards = holes[s]
        assert cards is not None
        return evaluate_ids([cards[0].id, cards[1].id, *ids])

    mine = value(seat)
    for pot in build_pots(put_in, antes, live, ante_trimming=ante_trimming):
        if seat not in pot.seats:
            continue
        others = [value(s) for s in pot.seats if s != seat and shown[s]]
        if not others or mine >= max(others):
            return True
    return False


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


def seed_muck_refusal(
    seat: int, *, first: int | None, known: bool, can_win: Callable[[int], bool]
) -> IllegalActionError | None:
    """Why ``seat`` may not muck under seed 002's showdown rule, or ``None``: the first to
    show -- the last bettor or raiser -- may not muck, and another player only when a hand
    already shown beats theirs (``can_win``; cards not ``known``, as in a replayed record
    that hides them, cannot be checked and are let through)."""
    if seat == first:
        return refused(
            f"player {seat + 1} bet or raised last and shows first: no muck (seed 002)",
            "must_show_first",
            seat=seat,
        )
    if known and can_win(seat):
        return refused(
            f"player {seat + 1} may concede only to a hand shown that beats theirs"
            " (seed 002): show",
            "must_show",
            seat=seat,
        )
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
    rake = 0
    if config.rake.percent:
        rake = config.rake.take(sum(p.amount for p in pots), flop_dealt=len(board) >= 3)
        rake -= rake % unit
    if rake:
        pots = take_rake(pots, rake)
    values = [0] * len(put_in)
    keep = list(live)
    # hands are valued only for a pot two live players contest: a pot of chips no live player
    # matched goes back to the folded players who put them in (pots.build_pots), unvalued --
    # there may be no board at all
    if any(len(pot.seats) > 1 and live[pot.seats[0]] for pot in pots):
        values = _values(live, holes, board)
        # beaten hands leave first, then pots with the same players merge and split as one
        # (PokerKit's hand killing; it decides where odd chips go under `live`)
        best = [max(values[s] for s in pot.seats) for pot in pots]
        for seat in range(len(keep)):
            if keep[seat] and not any(
                seat in pot.seats and values[seat] == top
                for pot, top in zip(pots, best, strict=True)
            ):
                keep[seat] = False
        if keep != list(live):  # else the pots are the same
            pots = build_pots(put_in, antes, keep, ante_trimming=trimming)
            if rake:
                pots = take_rake(pots, rake)
    levels = put_in if trimming else [t - a for t, a in zip(put_in, antes, strict=True)]
    awards = []
    for index, pot in enumerate(pots):
        if pot.amount:
            alone = len(pot.seats) == 1 and _beat_others(pot.seats[0], levels, keep, live)
            awards.append(_award(config, index, pot, values, holes, contested=alone))
    return rake, awards


def _beat_others(
    seat: int, levels: Sequence[int], keep: Sequence[bool], live: Sequence[bool]
) -> bool:
    """Whether the one-player pot of ``seat`` -- its chips above the next lower level of the
    players left after hand killing (``keep``) -- was contested by another hand still live
    at showdown, which ``seat``'s beat (``PotAwarded.value`` is then the winning hand's)."""
    top = levels[seat]
    floor = max((levels[s] for s in range(len(levels)) if keep[s] and levels[s] < top), default=0)
    others = [s for s in range(len(levels)) if live[s] and s != seat]
    # the lowest pot holds the antes, which every live player contests
    return any(floor == 0 or levels[s] > floor for s in others)


def settle_simple(
    put_in: Sequence[int],
    antes: Sequence[int],
    live: Sequence[bool],
    holes: Sequence[tuple[Card, ...] | None],
    board: Sequence[Card],
) -> list[PotAwarded] | None:
    """:func:`settle`'s awards, worked out directly, for a config without rake or ante
    trimming that splits in whole shares with the odd chip by position (``Rules.simple_split``)
    when a live player is among those who put in the most; ``None`` in every other case (then
    :func:`settle` decides). The same pots, the same hand killing, the same shares:
    ``tests/holdem/test_engine_speed_paths.py`` compares the two on random hands.
    """
    n = len(put_in)
    levels = [put_in[i] - antes[i] for i in range(n)]
    live_levels = {levels[i] for i in range(n) if live[i]}
    if len(live_levels) == 1 and max(live_levels) >= max(levels):
        # the live players all put in the most: one pot, for the best hands among them
        return _one_pot(sum(put_in), _values(live, holes, board), live)
    antes_total = sum(antes)
    pots = level_pots(levels, antes_total, live)
    if pots is None or (len(pots) == 1 and len(pots[0][1]) == 1):
        return None
    values = _values(live, holes, board)
    # beaten hands leave first (see settle): a player stays only if they tie the best hand of
    # some pot they contest
    best = [max([values[s] for s in seats]) for _, seats in pots]
    keep = list(live)
    killed = False
    for seat in range(n):
        if keep[seat]:
            mine = values[seat]
            for (_, seats), top in zip(pots, best, strict=True):
                if mine == top and seat in seats:
                    break
            else:
                keep[seat] = False
                killed = True
    if killed:
        pots = level_pots(levels, antes_total, keep)
        if pots is None:  # cannot happen: the best hand of the top level stays
            return None
    awards = []
    for index, (amount, seats) in enumerate(pots):
        if len(seats) == 1:
            alone = seats[0]
            value = values[alone] if _beat_others(alone, levels, keep, live) else 0
            awards.append(build.pot_awarded(index, seats, (amount,), value))
            continue
        top = max([values[s] for s in seats])
        winners = tuple([s for s in seats if values[s] == top])
        # spec/holdem.md Winning: whole shares, the odd chips to the first winner left of
        # the button (the lowest position; seats are in position order)
        share, odd = divmod(amount, len(winners))
        shares = [share] * len(winners)
        shares[0] += odd
        awards.append(build.pot_awarded(index, winners, tuple(shares), top))
    return awards


def _one_pot(amount: int, values: list[int], live: Sequence[bool]) -> list[PotAwarded]:
    """:func:`settle_simple` when every live player put in the most: one pot, every live
    player contests it, won by the best hands, whose value the award shows (0 when one
    player alone was left in it)."""
    if not amount:
        return []
    top = max([values[s] for s in range(len(live)) if live[s]])
    winners = tuple([s for s in range(len(live)) if live[s] and values[s] == top])
    if len(winners) == 1:
        return [build.pot_awarded(0, winners, (amount,), top if sum(live) > 1 else 0)]
    share, odd = divmod(amount, len(winners))
    shares = [share] * len(winners)
    shares[0] += odd  # spec/holdem.md Winning: the odd chips to the first left of the button
    return [build.pot_awarded(0, winners, tuple(shares), top)]


def uncontested(
    put_in: Sequence[int], antes: Sequence[int], live: Sequence[bool]
) -> list[PotAwarded] | None:
    """The award when one player is left and no one else put in more (antes aside), as
    :func:`settle` gives it without rake or ante trimming: everything in one pot; ``None``
    in every other case.
    """
    if sum(live) != 1:
        return None
    winner = list(live).index(True)
    top = put_in[winner] - antes[winner]
    for total, ante in zip(put_in, antes, strict=True):
        if total - ante > top:
            return None
    amount = sum(put_in)
    return [build.pot_awarded(0, (winner,), (amount,), 0)] if amount else []


def _values(
    live: Sequence[bool], holes: Sequence[tuple[Card, ...] | None], board: Sequence[Card]
) -> list[int]:
    """The hand value of each live player with known cards, 0 for the others."""
    if len(board) == 5:
        known = [
            (hole[0].id, hole[1].id) if alive and hole is not None else None
            for alive, hole in zip(live, holes, strict=True)
        ]
        return evaluate_on_board([card.id for card in board], known)
    ids = [card.id for card in board]
    return [
        evaluate_ids([hole[0].id, hole[1].id, *ids]) if alive and hole is not None else 0
        for alive, hole in zip(live, holes, strict=True)
    ]


def _award(
    config: HoldemConfig,
    index: int,
    pot: Pot,
    values: list[int],
    holes: Sequence[tuple[Card, ...] | None],
    *,
    contested: bool,
) -> PotAwarded:
    if len(pot.seats) == 1:
        # PotAwarded.value: the winning hand's value when hands were compared for the pot
        value = values[pot.seats[0]] if contested else 0
        return PotAwarded(index, pot.seats, (Chips(pot.amount),), value)
    best = max(values[s] for s in pot.seats)
    winners = [s for s in pot.seats if values[s] == best]
    seats, shares = split_pot(
        pot.amount, winners, config.split, odd_chip=config.odd_chip, holes=holes
    )
    return PotAwarded(index, seats, tuple(Chips(share) for share in shares), best)
