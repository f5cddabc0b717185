"""Side pots by contribution level, split policies and rake (pure functions).

>>> [(p.amount, p.seats) for p in build_pots((100, 300, 300), (0, 0, 0), (True, True, True))]
[(300, (0, 1, 2)), (400, (1, 2))]
>>> split_pot(101, (2, 0), SplitPolicy.LIVE)
((0, 2), (51, 50))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from croupier.cards import Card
from croupier.errors import ConfigError
from croupier.games.holdem.config import OddChip, SplitPolicy

__all__ = ["Pot", "build_pots", "level_pots", "split_pot", "take_rake"]


@dataclass(frozen=True, slots=True)
class Pot:
    """A main or side pot and the players who can win it (in position order)."""

    amount: int
    seats: tuple[int, ...]


def build_pots(
    put_in: Sequence[int],
    antes: Sequence[int],
    live: Sequence[bool],
    *,
    ante_trimming: bool = False,
) -> list[Pot]:
    """Pots formed by contribution levels (spec/holdem.md "A hand": side pots).

    ``put_in`` is each player's total in the pot (antes included, uncalled chips already
    returned); ``live`` marks players still able to win. Without ante trimming the antes all
    go to the lowest pot, which every live player can win (PHH ``ante_trimming_status`` =
    false, as PokerKit). Consecutive pots with the same players are merged.
    """
    n = len(put_in)
    if ante_trimming:
        levels = list(put_in)
        amount = 0
    else:
        levels = [total - ante for total, ante in zip(put_in, antes, strict=True)]
        amount = sum(antes)
    cut = level_pots(levels, amount, live)
    if cut is not None:
        return [Pot(total, seats) for total, seats in cut]
    pots: list[Pot] = []
    previous = 0
    for level in sorted(set(levels)):
        contributors = [i for i in range(n) if levels[i] >= level]
        amount += (level - previous) * len(contributors)
        seats = tuple(i for i in contributors if live[i])
        if not seats:
            # chips no live player matched (a folded player's ante above every live player's
            # total, with ante trimming) go back to those who put them in
            seats = tuple(contributors)
        while pots and pots[-1].seats == seats:
            amount += pots.pop().amount
        if amount:
            pots.append(Pot(amount, seats))
        amount = 0
        previous = level
    return pots


def level_pots(
    levels: Sequence[int], amount: int, live: Sequence[bool]
) -> list[tuple[int, tuple[int, ...]]] | None:
    """:func:`build_pots`' pots as (amount, seats) when a live player is among those who put
    in the most (``levels``: each player's total less the antes, ``amount`` the antes that go
    to the lowest pot), ``None`` otherwise.

    The seats change only where a live player's level ends, so the pots are cut there (and
    never merge): the same pots as the general loop of :func:`build_pots`, fewer steps.
    """
    n = len(levels)
    live_levels = sorted({levels[i] for i in range(n) if live[i]})
    if not live_levels or live_levels[-1] < max(levels):
        return None
    pots: list[tuple[int, tuple[int, ...]]] = []
    previous = 0
    for level in live_levels:
        for mine in levels:
            if mine > previous:
                amount += (mine if mine < level else level) - previous
        if amount:
            pots.append((amount, tuple([i for i in range(n) if live[i] and levels[i] >= level])))
        amount = 0
        previous = level
    return pots


def split_pot(
    amount: int,
    winners: Sequence[int],
    policy: SplitPolicy,
    *,
    odd_chip: OddChip = OddChip.POSITION,
    holes: Sequence[Sequence[Card] | None] = (),
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Divide ``amount`` among ``winners``; return (seats, shares) in position order.

    ``live``: the remainder goes to the first tied winner left of the button, i.e. the lowest
    position index (spec/holdem.md, Winning), or with ``odd_chip`` ``suit`` to the winner whose
    ``holes`` hold the highest card by rank, then suit (docs/rules.md). ``exact``: the amount
    must divide exactly.

    Raises:
        ConfigError: ``exact`` with an amount that does not divide (count money in finer
            units, see ``EXACT_SCALE``).
    """
    seats = tuple(sorted(winners))
    share, odd = divmod(amount, len(seats))
    if odd and policy is SplitPolicy.EXACT:
        raise ConfigError(
            f"pot of {amount} does not divide exactly among {len(seats)} winners;"
            " count money in finer units (EXACT_SCALE)"
        )
    shares = [share] * len(seats)
    first = 0
    if odd and odd_chip is OddChip.SUIT:
        first = max(range(len(seats)), key=lambda i: _highest(holes, seats[i]))
    shares[first] += odd
    return seats, tuple(shares)


def _highest(holes: Sequence[Sequence[Card] | None], seat: int) -> int:
    cards = holes[seat] if seat < len(holes) else None
    if not cards:
        raise ConfigError(f"the odd chip by suit needs the cards of player {seat + 1}")
    # card ids are 4 x rank + suit (clubs, diamonds, hearts, spades): rank first, then suit
    return max(card.id for card in cards)


def take_rake(pots: list[Pot], rake: int) -> list[Pot]:
    """Take ``rake`` from the pots, main pot first (spec/holdem.md, House)."""
    result: list[Pot] = []
    for pot in pots:
        taken = min(rake, pot.amount)
        rake -= taken
        result.append(Pot(pot.amount - taken, pot.seats))
    return result
