"""Brute-force Russian Poker values: every dealer hand and every card the dealer may buy,
one by one (the reference the exact analysis is checked against; slow, any deck).

A *deck* is a 52-bit mask of the cards in play (the full deck, or a reduced one for tests);
*dead* cards are those the dealer cannot hold: the player's cards and discards. Values are
exact integers: a bet's value is ``total / (hands * scale)`` Antes, where ``scale`` is a
common multiple of every possible count of replacement cards (:func:`buy_scale`).

``rules`` is the int64 array ``(ante_win, failed_buy, rebuy_same_rank, straight_plus_pair)``:
what a win against a qualifying dealer pays on the Ante (0 or 1), what the Ante pays after a
bought game that still does not qualify (0: returned, ``failed_buy_ante = "forfeit"``; 1:
paid), the rebuy option, and the duplicate-rank straights option.
"""

from __future__ import annotations

from math import lcm
from typing import Any

import numba as nb
import numpy as np

from croupier.analysis.russian._kernels import multiple_of, value_of
from croupier.errors import ConfigError

__all__ = ["buy_scale"]

HIGH_CARD_MAX = 1277
"""The highest high-card value; anything above is a pair or better."""
TRIPS_MIN = 4996
"""The lowest value of three of a kind (insurance needs it)."""


def buy_scale(available: int, *, rebuy: bool) -> int:
    """A common multiple of the replacement-card counts when ``available`` cards are left
    for the dealer (before the dealer's five): with the rebuy rule the count is
    ``available - 5 - (cards of the replaced rank still in the deck)``, which is 0..3."""
    if available - 8 < 1:
        raise ConfigError(
            f"{available} cards left for the dealer can leave none to buy with; the deck is "
            "too small"
        )
    if not rebuy:
        return available - 5
    return lcm(*(available - 5 - extra for extra in range(4)))


@nb.njit(cache=True, nogil=True)
def qualifies(value: Any, hand: Any) -> Any:  # pragma: no cover - compiled
    """Ace-King or better (spec "Dealer and settlement")."""
    if value > HIGH_CARD_MAX:
        return True
    ace = False
    king = False
    for j in range(5):
        rank = hand[j] >> 2
        ace |= rank == 12
        king |= rank == 11
    return ace and king


@nb.njit(cache=True, nogil=True)
def _buy_numerator(
    hand: Any, rest: Any, count: Any, v: Any, win: Any, tab: Any, rules: Any
) -> Any:  # pragma: no cover - compiled
    """Sum of the outcomes (in Antes, before the fee) over the replacement cards, and their
    number, for a dealer ``hand`` that does not qualify."""
    top_j = 0
    for j in range(5):
        if hand[j] > hand[top_j]:
            top_j = j
    top = hand[top_j]
    held = np.int64(0)
    for j in range(5):
        held |= np.int64(1) << hand[j]
    total = 0
    n = 0
    for i in range(count):
        card = rest[i]
        if (held >> card) & 1 or (rules[2] and card >> 2 == top >> 2):
            continue
        hand[top_j] = card
        nv = value_of(hand, 5, tab)
        n += 1
        if qualifies(nv, hand):
            if v > nv:
                total += win
            elif v < nv:
                total -= 3
        else:
            total += rules[1]
    hand[top_j] = top
    return total, n


@nb.njit(cache=True, nogil=True)
def deal_net(
    final: Any,
    size: Any,
    dealer: Any,
    buy: Any,
    card: Any,
    insurance: Any,
    tab: Any,
    pays: Any,
    rules: Any,
) -> Any:  # pragma: no cover - compiled
    """The player's net in Antes of one box that bet (fees excluded): ``final`` (``size``
    cards) against the five-card ``dealer``; ``buy``: the dealer's game is bought and its
    top card replaced by ``card`` (which the caller draws under the rebuy rule);
    ``insurance``: Antes insured. The settlement the exact analysis sums."""
    v = value_of(final, size, tab)
    win = 2 * multiple_of(final, size, pays, rules[3] != 0) + rules[0]
    dv = value_of(dealer, 5, tab)
    net = 0
    qualified = qualifies(dv, dealer)
    if insurance:
        net += -insurance if qualified else insurance
    if qualified:
        if v > dv:
            return net + win
        if v < dv:
            return net - 3
        return net
    if not buy:
        return net + 1
    hand = dealer.copy()
    top = 0
    for j in range(5):
        if hand[j] > hand[top]:
            top = j
    hand[top] = card
    nv = value_of(hand, 5, tab)
    net -= 1  # the buying fee
    if qualifies(nv, hand):
        if v > nv:
            return net + win
        if v < nv:
            return net - 3
        return net
    return net + rules[1]


@nb.njit(cache=True, nogil=True)
def bet_total(
    final: Any, size: Any, dead: Any, deck: Any, tab: Any, pays: Any, rules: Any, scale: Any
) -> Any:  # pragma: no cover - compiled
    """``(total, hands)``: the value of betting with ``final`` (``size`` = 5 or 6 cards) is
    ``total / (hands * scale)`` Antes, the Ante and the Bet settled, the dealer's game bought
    when that is worth more than the Ante's payment, insurance placed at its maximum when it
    is worth it (three of a kind or better)."""
    v = value_of(final, size, tab)
    m = multiple_of(final, size, pays, rules[3] != 0)
    win = 2 * m + rules[0]
    rest = np.empty(52, dtype=np.int64)
    count = 0
    for c in range(52):
        if (deck >> c) & 1 and not (dead >> c) & 1:
            rest[count] = c
            count += 1
    hand = np.empty(5, dtype=np.int64)
    total = 0
    hands = 0
    missing = 0
    for a in range(count):
        hand[0] = rest[a]
        for b in range(a + 1, count):
            hand[1] = rest[b]
            for c in range(b + 1, count):
                hand[2] = rest[c]
                for d in range(c + 1, count):
                    hand[3] = rest[d]
                    for e in range(d + 1, count):
                        hand[4] = rest[e]
                        hands += 1
                        dv = value_of(hand, 5, tab)
                        if qualifies(dv, hand):
                            if v > dv:
                                total += win * scale
                            elif v < dv:
                                total -= 3 * scale
                            continue
                        missing += 1
                        s, n = _buy_numerator(hand, rest, count, v, win, tab, rules)
                        # buying is worth -1 + s / n against the Ante's 1
                        if s > 2 * n:
                            total += (s - n) * (scale // n)
                        else:
                            total += scale
    if v >= TRIPS_MIN:
        edge = 2 * missing - hands
        if edge > 0:
            total += 2 * m * edge * scale
    return total, hands


@nb.njit(cache=True)
def option_total(
    hand: Any, option: Any, deck: Any, tab: Any, pays: Any, rules: Any, scale: Any
) -> Any:  # pragma: no cover - compiled
    """``(total, draws, hands)``: the value of ``option`` for the five cards ``hand`` is
    ``total / (draws * hands * scale)`` Antes (fees included). ``option``: 0 fold, 1 stand,
    2 the sixth card, 2 + d the exchange of the cards in bit mask ``d`` of ``hand``."""
    seen = np.int64(0)
    for j in range(5):
        seen |= np.int64(1) << hand[j]
    if option == 0:
        return np.int64(-1), np.int64(1), np.int64(1)
    final = np.empty(6, dtype=np.int64)
    if option == 1:
        for j in range(5):
            final[j] = hand[j]
        t, h = bet_total(final, 5, seen, deck, tab, pays, rules, scale)
        return max(t, -h * scale), np.int64(1), h
    rest = np.empty(52, dtype=np.int64)
    count = 0
    for c in range(52):
        if (deck >> c) & 1 and not (seen >> c) & 1:
            rest[count] = c
            count += 1
    if option == 2:
        for j in range(5):
            final[j] = hand[j]
        total = 0
        hands = 1
        for i in range(count):
            final[5] = rest[i]
            t, hands = bet_total(
                final, 6, seen | (np.int64(1) << rest[i]), deck, tab, pays, rules, scale
            )
            total += max(t, -hands * scale) - hands * scale
        return total, np.int64(count), hands
    discard = option - 2
    kept = 0
    for j in range(5):
        if not (discard >> j) & 1:
            final[kept] = hand[j]
            kept += 1
    k = 5 - kept
    picks = np.arange(k)
    total = 0
    draws = 0
    hands = 1
    while True:
        drawn = seen
        for i in range(k):
            final[kept + i] = rest[picks[i]]
            drawn |= np.int64(1) << rest[picks[i]]
        t, hands = bet_total(final, 5, drawn, deck, tab, pays, rules, scale)
        total += max(t, -hands * scale) - hands * scale
        draws += 1
        # next combination of k indices out of count
        i = k - 1
        while i >= 0 and picks[i] == count - k + i:
            i -= 1
        if i < 0:
            break
        picks[i] += 1
        for j in range(i + 1, k):
            picks[j] = picks[j - 1] + 1
    return total, np.int64(draws), hands
