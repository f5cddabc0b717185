"""Betting rules: forced bets, order of action, bet sizing, and which raises reopen the betting.

Pure functions over a hand's amounts (one street's bookkeeping lives in the hand itself);
:class:`~croupier.games.holdem.state.CashHand` owns the state and applies their results. The
rules follow spec/holdem.md "A hand" and, where the spec is silent, PokerKit (so that PHH files
written by other tools replay): the minimum raise is the largest bet or raise increment of the
street, at least the street's minimum bet; blinds and straddles are not raises.

>>> from croupier.games.holdem.config import BettingStructure as B
>>> raise_bounds(B.NO_LIMIT, stack=1000, bet=0, max_bet=100, increment=100, street_bet=100,
...              pot_total=250)
(200, 1000)
>>> raise_bounds(B.POT_LIMIT, stack=1000, bet=0, max_bet=100, increment=100, street_bet=100,
...              pot_total=250)
(200, 450)
>>> raise_bounds(B.FIXED_LIMIT, stack=1000, bet=0, max_bet=100, increment=100, street_bet=100,
...              pot_total=250)
(200, 200)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from croupier.chips import Chips
from croupier.errors import IllegalActionError
from croupier.games.holdem.config import BettingStructure, HoldemConfig, ReopenRule
from croupier.games.holdem.events import AntePosted, BetReturned, BlindPosted, HoldemEvent
from croupier.games.holdem.options import Options

__all__ = [
    "Options",
    "Reopening",
    "acting_order",
    "opener",
    "post_forced_bets",
    "raise_bounds",
    "raise_refusal",
    "reopen_after",
    "reopening",
    "street_bounds",
    "verify_raise_to",
]


def raise_bounds(
    structure: BettingStructure,
    *,
    stack: int,
    bet: int,
    max_bet: int,
    increment: int,
    street_bet: int,
    pot_total: int,
) -> tuple[int, int]:
    """The smallest and largest street totals a bet or raise may go to.

    Args:
        stack: chips the player has behind.
        bet: what the player already put in on this street.
        max_bet: the largest street total so far.
        increment: the largest full bet or raise increment of this street (0 before any).
        street_bet: the street's minimum bet (No-/Pot-Limit) or fixed size (Fixed-Limit).
        pot_total: all chips in the middle, current street bets included.

    An all-in for less than the minimum is always allowed (table stakes), so both bounds are
    capped at ``stack + bet``. Pot-Limit: call, then raise by the pot after the call.
    """
    all_in = stack + bet
    min_to = min(all_in, max_bet + max(increment, street_bet))
    if structure is BettingStructure.FIXED_LIMIT:
        return min_to, min_to
    if structure is BettingStructure.POT_LIMIT:
        # spec/holdem.md Decision (Pot-Limit): to = max_bet + (pot + amount to call)
        return min_to, min(all_in, max(min_to, 2 * max_bet - bet + pot_total))
    return min_to, all_in


def street_bounds(
    structure: BettingStructure,
    seat: int,
    bets: Sequence[int],
    stacks: Sequence[int],
    put_in: Sequence[int],
    increment: int,
    street_bet: int,
) -> tuple[int, int]:
    """:func:`raise_bounds` for ``seat`` from a hand's amounts (``put_in``: the pots so far),
    with the No-Limit case worked out inline: the engine asks at every decision."""
    stack = stacks[seat]
    bet = bets[seat]
    if structure is BettingStructure.NO_LIMIT:
        all_in = stack + bet
        low = max(bets) + (increment if increment > street_bet else street_bet)
        return (low if low < all_in else all_in), all_in
    return raise_bounds(
        structure,
        stack=stack,
        bet=bet,
        max_bet=max(bets),
        increment=increment,
        street_bet=street_bet,
        pot_total=sum(put_in) + sum(bets),
    )


def verify_raise_to(
    to: int, *, seat: int, stack: int, bet: int, low: int, high: int, unit: int
) -> None:
    """Check the size of a bet or raise to a street total of ``to`` against the player's
    chips (``stack`` behind plus ``bet`` in front), the money ``unit`` and the bounds.

    Raises:
        IllegalActionError: ``to`` is more than the player has, not in whole chips, or outside
            ``low..high`` (see :func:`raise_bounds`).
    """
    if to > stack + bet:
        raise IllegalActionError(
            f"raise to {to} is more than player {seat + 1} has ({stack + bet})",
            reason="raise_above_stack",
            params={"to": to, "stack": stack + bet},
        )
    if to % unit:
        raise IllegalActionError(
            f"raise to {to} is not in whole chips of {unit} units",
            reason="raise_not_whole_chips",
            params={"to": to, "step": unit},
        )
    if not low <= to <= high:
        side = "below the minimum" if to < low else "above the maximum"
        raise IllegalActionError(
            f"raise to {to} is {side} raise to {low if to < low else high}",
            reason="raise_out_of_bounds",
            params={"to": to, "min": low, "max": high},
        )


class Reopening(NamedTuple):
    """What a bet or raise does to the street's betting (see :func:`reopening`)."""

    full: bool
    """A full bet or raise (``Raised.full``)."""
    reopens: bool
    """Players who already acted may act, and raise, again."""
    increment: int
    """The street's new largest full bet or raise increment."""
    short: int
    """The new sum of all-in raises short of a full raise."""


def reopening(
    rule: ReopenRule, *, by: int, all_in: bool, increment: int, short: int, street_bet: int
) -> Reopening:
    """How a bet or raise of ``by`` over the largest bet changes the betting.

    >>> reopening(ReopenRule.CASINO, by=50, all_in=True, increment=100, short=0, street_bet=100)
    Reopening(full=False, reopens=False, increment=100, short=50)
    >>> reopening(ReopenRule.CASINO, by=50, all_in=True, increment=100, short=50, street_bet=100)
    Reopening(full=False, reopens=True, increment=100, short=0)
    """
    return Reopening(
        *reopen_after(rule is ReopenRule.CASINO, by, all_in, increment, short, street_bet)
    )


def reopen_after(
    casino: bool, by: int, all_in: bool, increment: int, short: int, street_bet: int
) -> tuple[bool, bool, int, int]:
    """:func:`reopening` as a plain tuple, ``casino`` for ``ReopenRule.CASINO`` (the engine
    calls it at every raise)."""
    if casino:
        # spec/holdem.md Decision: an all-in short of a full raise does not reopen the
        # betting; short all-ins that add up to a full raise do
        threshold = increment if increment > street_bet else street_bet
        full = by >= threshold
        if full:
            increment = by
            short = 0
        else:
            short += by
        reopens = full or short >= threshold
        return full, reopens, increment, 0 if reopens else short
    full = by >= increment
    if by > increment:
        increment = by
    if all_in:
        short += by
        if short >= increment:
            short = 0
    else:
        short = 0
    return full, full, increment, short


def post_forced_bets(
    config: HoldemConfig, stacks: Sequence[int]
) -> tuple[list[int], list[int], list[HoldemEvent]]:
    """Antes, then blinds and straddles, each all-in for less when the stack is short.

    Returns:
        Each player's ante in the pot, their blind or straddle (their pre-flop bet), and the
        events in order.
    """
    n = config.players
    # the effective amounts (HoldemConfig.effective_ante/_blind): reversed heads-up
    ante_of = config.antes if n != 2 else config.antes[::-1]
    blind_of = config.blinds_or_straddles if n != 2 else config.blinds_or_straddles[::-1]
    antes = [0] * n
    blinds = [0] * n
    events: list[HoldemEvent] = []
    if any(ante_of):
        for seat in range(n):
            ante = min(ante_of[seat], stacks[seat])
            if ante:
                antes[seat] = ante
                events.append(AntePosted(seat, Chips(ante)))
    for seat in range(n):
        blind = blind_of[seat]
        if blind:
            blind = min(blind, stacks[seat] - antes[seat])
            if blind:
                blinds[seat] = blind
                events.append(BlindPosted(seat, Chips(blind)))
    if config.ante_trimming and any(antes):
        # PHH ante_trimming_status: antes are trimmed like bets, an ante above the second
        # largest goes back once the blinds are posted (as PokerKit; a lone big-blind ante is
        # all returned)
        cutoff = sorted(antes)[-2]
        for seat in range(n):
            over = antes[seat] - cutoff
            if over > 0:
                antes[seat] = cutoff
                events.append(BetReturned(seat, Chips(over)))
    return antes, blinds, events


def opener(config: HoldemConfig, *, street: int, bets: Sequence[int]) -> int:
    """The first player to act on ``street``: pre-flop the one left of the largest blind or
    straddle posted (as PokerKit), after it the first player left of the button."""
    if street:
        return 0
    n = len(bets)
    blind_of = config.blinds_or_straddles if n != 2 else config.blinds_or_straddles[::-1]
    top = 0
    largest = -1
    for i in range(n):
        posted = bets[i] if blind_of[i] else 0
        if posted >= largest:  # ties: the last such player
            top = i
            largest = posted
    return (top + 1) % n


def acting_order(
    first: int, *, bets: Sequence[int], stacks: Sequence[int], live: Sequence[bool]
) -> list[int]:
    """The players who will act on a new street, in order from ``first``.

    A player acts only if they could still lose chips: their effective stack (against the
    second-largest bet plus stack) is positive (as PokerKit).
    """
    n = len(bets)
    # the second largest total (bet plus stack) among live players
    best = second = 0
    for j in range(n):
        if live[j]:
            total = bets[j] + stacks[j]
            if total > best:
                best, second = total, best
            elif total > second:
                second = total
    return [
        j
        for j in (*range(first, n), *range(first))
        if live[j] and stacks[j] > 0 and second > bets[j]
    ]


def raise_refusal(
    seat: int,
    cap: int | None,
    casino: bool,
    bets: Sequence[int],
    stacks: Sequence[int],
    live: Sequence[bool],
    acted: Sequence[bool],
    raises: int,
    increment: int,
    short: int,
) -> str | None:
    """Why ``seat``, the player to act, may not bet or raise at all, or ``None``.

    Args:
        cap: the most bets and raises per street (``HoldemConfig.raise_cap``).
        casino: the reopen rule is ``ReopenRule.CASINO`` (else PokerKit's).
        acted: who acted since the betting was last reopened.
        raises: bets and raises so far this street.
        increment: the street's largest full raise increment; ``short``: the sum of short
            all-in raises since (see :func:`reopening`).
    """
    max_bet = max(bets)
    stack = stacks[seat]
    if cap is not None and raises >= cap:
        return f"the betting is capped at {cap} bets and raises this street"
    if casino:
        refused = acted[seat]
    else:
        owed = min(stack, max_bet - bets[seat])
        refused = owed < increment or (bool(short) and short < increment and acted[seat])
    if refused:
        # spec/holdem.md Decision: an incomplete all-in raise does not reopen the betting
        return f"player {seat + 1} already acted and the betting was not reopened"
    if stack <= max_bet - bets[seat]:
        return f"player {seat + 1} can only call all-in"
    for other in range(len(bets)):
        if other != seat and live[other] and stacks[other] + bets[other] > max_bet:
            return None
    return "every other player is all-in"
