"""Rounds played by the exact strategy, dealt from shuffled decks (a check of the exact
analysis by simulation).

The first-round option comes from the strategy's table; after the draw the box bets when the
exact value of betting (:func:`._state.state_parts`, the player's cards and discards known)
is at least the fold's; insurance is placed, at its most, when the exact chance that the
dealer does not qualify is above one half; the dealer's game is bought when the exact value
of buying, over the cards the dealer can be given, beats the Ante's payment. Each round is
settled by :func:`._brute.deal_net`, the settlement the engine agrees with.
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np

from croupier.analysis.russian._brute import deal_net, qualifies
from croupier.analysis.russian._kernels import multiple_of, value_of
from croupier.analysis.russian._simulate import _deal, _next
from croupier.analysis.russian._state import state_parts

__all__: list[str] = []

TOTAL, TOTAL2, WAGER, WAGER2, CROSS, ROUNDS = range(6)
COLUMNS = 6
FULL_DECK = (1 << 52) - 1


@nb.njit(cache=True, nogil=True)
def _buys(
    final: Any, size: Any, dealer: Any, dead: Any, tab: Any, pays: Any, rules: Any
) -> Any:  # pragma: no cover - compiled
    """Whether buying beats taking the Ante's 1, over every card the dealer can be given."""
    top = 0
    for j in range(5):
        top = max(top, dealer[j])
    total = 0
    count = 0
    for c in range(52):
        if (dead >> c) & 1 or (rules[2] and c >> 2 == top >> 2):
            continue
        total += deal_net(final, size, dealer, True, c, 0, tab, pays, rules) + 1
        count += 1
    return count > 0 and total > 2 * count


@nb.njit(cache=True, nogil=True)
def play_exact_round(
    deck: Any,
    decisions: Any,
    binom: Any,
    tab: Any,
    pays: Any,
    rules: Any,
    scales: Any,
    vt: Any,
    mt: Any,
    ds: Any,
) -> Any:  # pragma: no cover - compiled
    """``(net, wager)`` in Antes of one round from the ordered ``deck`` (box 5, dealer 5,
    then the draws and the bought cards, as the engine deals)."""
    hand = np.empty(6, dtype=np.int64)
    dealer = np.empty(5, dtype=np.int64)
    first = np.empty(5, dtype=np.int64)
    for j in range(5):
        first[j] = deck[j]
        dealer[j] = deck[5 + j]
    first.sort()
    idx = 0
    for j in range(5):
        idx += binom[first[j], j + 1]
    code = decisions[idx]
    if code == 0:
        return -1, 1
    seen = np.int64(0)
    for j in range(5):
        seen |= np.int64(1) << first[j]
        hand[j] = first[j]
    size = 5
    pos = 10
    fee = 0
    scale = scales[0]
    if code == 2:
        hand[5] = deck[pos]
        seen |= np.int64(1) << deck[pos]
        pos += 1
        size = 6
        fee = 1
        scale = scales[6]
    elif code >= 3:
        d = code - 2
        drawn = 0
        for j in range(5):
            if (d >> j) & 1:
                hand[j] = deck[pos]
                seen |= np.int64(1) << deck[pos]
                pos += 1
                drawn += 1
        fee = 1
        scale = scales[drawn]
    final = hand[:size].copy()
    v = value_of(final, size, tab)
    m = multiple_of(final, size, pays, rules[3] != 0)
    total, hands, _, insured, _, _ = state_parts(v, m, seen, FULL_DECK, rules, scale, vt, mt, ds)
    if total < -hands * scale:
        return -1 - fee, 1 + fee
    buy = False
    dv = value_of(dealer, 5, tab)
    card = 0
    if not qualifies(dv, dealer):
        dead = seen
        for j in range(5):
            dead |= np.int64(1) << dealer[j]
        buy = _buys(final, size, dealer, dead, tab, pays, rules)
        if buy:
            top = 0
            for j in range(5):
                top = max(top, dealer[j])
            card = deck[pos]
            pos += 1
            while rules[2] and card >> 2 == top >> 2:
                card = deck[pos]
                pos += 1
    net = deal_net(final, size, dealer, buy, card, insured, tab, pays, rules)
    return net - fee, 1 + fee + 2 + insured + (1 if buy else 0)


@nb.njit(cache=True, parallel=True)
def simulate_exact(
    lanes: Any,
    rounds_per_lane: Any,
    seed: Any,
    decisions: Any,
    binom: Any,
    tab: Any,
    pays: Any,
    rules: Any,
    scales: Any,
    vt: Any,
    mt: Any,
    ds: Any,
) -> Any:  # pragma: no cover - compiled
    """Per-lane sums over ``lanes * rounds_per_lane`` rounds (columns as this module's)."""
    sums = np.zeros((lanes, COLUMNS))
    for lane in nb.prange(lanes):
        state = np.empty(1, dtype=np.uint64)
        state[0] = np.uint64(seed) + np.uint64(lane + 1) * np.uint64(0xD1B54A32D192ED03)
        state[0] = _next(state)
        state[0] = _next(state)
        deck = np.arange(52, dtype=np.int64)
        s = sums[lane]
        for _ in range(rounds_per_lane):
            for i in range(24):  # 10 dealt, 5 drawn, a bought card and its rebuys
                _deal(deck, i, state)
            net, wager = play_exact_round(
                deck, decisions, binom, tab, pays, rules, scales, vt, mt, ds
            )
            s[TOTAL] += net
            s[TOTAL2] += net * net
            s[WAGER] += wager
            s[WAGER2] += wager * wager
            s[CROSS] += net * wager
            s[ROUNDS] += 1
    return sums
