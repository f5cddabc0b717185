"""The exact value of betting from one state, by rank counts and per-suit corrections.

A *state* is what the player knows when choosing between the Bet and folding: the final
hand (five cards, or six after a sixth card) and every card the dealer cannot hold (the
player's cards, discards, and cards outside a reduced deck). The dealer's hand is uniform
over the five-card subsets of the other cards. Its value is assembled as:

1. **by ranks**: dealer hands counted by rank multiset (:mod:`._counts`), a non-qualifying
   one worth the Ante's 1 or buying, whichever is more, with the bought card's rank drawn
   from what is left (:func:`buy_rank_sums`);
2. **per suit**: the flush-suited dealer hands (five cards of one suit) are flushes or
   straight flushes, not the high cards or straights counted in 1 (:func:`flush_correction`);
   a non-qualifying hand whose four lower cards share a suit can become a flush when bought
   (:func:`kept_suited_correction`). Both depend only on the mask of ranks still available in
   that suit.
3. **insurance** (three of a kind or better): at its maximum when the exact chance of a
   non-qualifying dealer is above one half.

Every figure is an integer: a state's value is ``total / (hands * scale)`` Antes.
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np

from croupier.analysis.russian._counts import category_totals, versus
from croupier.analysis.russian._ranks import (
    ACE,
    FLUSH,
    FULL,
    HC,
    KING,
    QUADS,
    STRAIGHT,
    STRAIGHT_MASKS,
    TRIPS,
    _popcount,
)

__all__: list[str] = []

_STRAIGHTS = STRAIGHT_MASKS


@nb.njit(cache=True, nogil=True, inline="always")
def cmp(v: Any, w: Any, win: Any) -> Any:  # pragma: no cover - compiled
    """The Ante and Bet's net against a qualifying dealer of value ``w``."""
    if v > w:
        return win
    if v < w:
        return -3
    return 0


@nb.njit(cache=True, nogil=True)
def _subsets_below(mask: Any, f: Any, start: Any, k: Any) -> Any:  # pragma: no cover
    """Subsets of ``k`` ranks of ``mask`` below ``f[start:start+k]`` (high to low, lex)."""
    total = 0
    for i in range(k):
        fi = f[start + i]
        rest = k - i - 1
        for r in range(fi):
            if (mask >> r) & 1:
                n = _popcount(mask & ((1 << r) - 1))
                b = 1
                for j in range(rest):
                    b = b * (n - j) // (j + 1)
                total += b
        if not (mask >> fi) & 1:
            break
    return total


@nb.njit(cache=True, nogil=True)
def _straight_index(top: Any) -> Any:  # pragma: no cover - compiled
    return 0 if top == 3 else top - 3


@nb.njit(cache=True, nogil=True)
def flush_correction(
    mask: Any,
    category: Any,
    f: Any,
    rank_mask: Any,
    win: Any,
    mt_ak: Any,
    mt_nq: Any,
    mt_str: Any,
) -> Any:  # pragma: no cover - compiled
    """Flush-suited dealer hands in one suit (available ranks ``mask``): their true net minus
    the net counted for them by ranks, with 1 for a non-qualifying rank set (the buying gain
    is taken off by the caller). The player holds ``category`` / ordering ranks ``f`` /
    ``rank_mask`` (for a flush, its five ranks)."""
    ak = mt_ak[mask]
    nq = mt_nq[mask]
    straights = mt_str[mask]
    if category == HC:
        if f[0] != ACE or f[1] != KING or not ((mask >> ACE) & 1 and (mask >> KING) & 1):
            return -4 * nq
        low = mask & 0x7FF
        below = _subsets_below(low, f, 2, 3)
        equal = 1 if (mask & rank_mask) == rank_mask else 0
        above = ak - below - equal
        # flush -3 against what the ranks counted: +win below, -3 above, 0 equal
        return -4 * nq - 3 * ak - (win * below - 3 * above)
    if category < STRAIGHT:
        return -(3 + win) * ak - 4 * nq
    if category == STRAIGHT:
        total = -(3 + win) * ak - 4 * nq
        mine = _straight_index(f[0])
        for j in range(10):
            if (straights >> j) & 1:
                total += -3 - (win if mine > j else (-3 if mine < j else 0))
        return total
    count = 0
    for j in range(10):
        count += (straights >> j) & 1
    if category == FLUSH:
        lex = _subsets_below(mask, f, 0, 5)
        for j in range(10):
            if (straights >> j) & 1 and _desc_below(_STRAIGHTS[j], f):
                lex -= 1
        equal = 1 if (mask & rank_mask) == rank_mask else 0
        above = ak + nq - lex - equal
        return win * lex - 3 * above - win * ak - nq - (3 + win) * count
    if FULL <= category <= QUADS:
        return (win - 1) * nq - (3 + win) * count
    mine = _straight_index(f[0])
    total = (win - 1) * nq
    for j in range(10):
        if (straights >> j) & 1:
            total += (win if mine > j else (-3 if mine < j else 0)) - win
    return total


@nb.njit(cache=True, nogil=True)
def _desc_below(set_mask: Any, f: Any) -> Any:  # pragma: no cover - compiled
    """Whether the five ranks of ``set_mask``, high to low, are lexicographically below
    ``f[0:5]``."""
    j = 0
    for r in range(12, -1, -1):
        if (set_mask >> r) & 1:
            if r != f[j]:
                return r < f[j]
            j += 1
    return False


@nb.njit(cache=True, nogil=True, inline="always")
def _set_count(a: Any, i: Any, ds: Any) -> Any:  # pragma: no cover - compiled
    """Deals of non-qualifying rank set ``i``: one card of each of its five ranks."""
    kept = ds[6]
    return a[ds[1][i]] * a[kept[i, 0]] * a[kept[i, 1]] * a[kept[i, 2]] * a[kept[i, 3]]


@nb.njit(cache=True, nogil=True)
def buy_rank_sums(
    a: Any, atot: Any, i: Any, v: Any, win: Any, onq: Any, rebuy: Any, ds: Any
) -> Any:  # pragma: no cover - compiled
    """``(outcome_sum, cards)`` of buying against non-qualifying rank set ``i`` with no
    flush possible: the sum over the replacement cards of the Ante and Bet's net. ``atot``:
    the cards left (``sum(a)``). A new card pairs a kept rank, makes a straight, or leaves
    the dealer without a game (a new card of the replaced rank is drawn again under the
    rebuy option, and otherwise leaves the same ranks)."""
    top = ds[1][i]
    new = ds[3]
    kept = ds[6]
    straights = ds[7]
    n = atot - 5
    if rebuy:
        n -= a[top] - 1
    total = 0
    counted = 0
    for j in range(4):
        r = kept[i, j]
        c = a[r] - 1
        if c > 0:
            total += c * cmp(v, new[i, r], win)
            counted += c
    for j in range(2):
        r = straights[i, j]
        if r >= 0 and a[r] > 0:
            total += a[r] * cmp(v, new[i, r], win)
            counted += a[r]
    return total + onq * (n - counted), n


@nb.njit(cache=True, nogil=True, inline="always")
def bought_pay(outcomes: Any, n: Any, scale: Any) -> Any:  # pragma: no cover - compiled
    """``scale`` times the better of the Ante's 1 and buying (``-1 + outcomes / n``)."""
    if n > 0 and outcomes > 2 * n:
        return (outcomes - n) * (scale // n)
    return scale


@nb.njit(cache=True, nogil=True)
def kept_suited_outcomes(
    i: Any,
    suit_mask: Any,
    v: Any,
    win: Any,
    onq: Any,
    rebuy: Any,
    ds_mask: Any,
    ds_top: Any,
    ds_new: Any,
    ds_qual: Any,
    ds_flush: Any,
    gains_only: bool = False,
) -> Any:  # pragma: no cover - compiled
    """What the flush completions add to the outcome sum of rank set ``i`` when its four
    kept cards are of a suit whose available ranks are ``suit_mask``."""
    mask = ds_mask[i]
    top = ds_top[i]
    extra = 0
    for r in range(13):
        if not (suit_mask >> r) & 1 or ((mask >> r) & 1 and r != top):
            continue
        if r == top:
            if rebuy:
                continue
            # the replaced rank in the kept suit: the same ranks, now a flush
            w = cmp(v, ds_flush[i, 13], win) - onq
            extra += max(w, 0) if gains_only else w
            continue
        generic = cmp(v, ds_new[i, r], win) if ds_qual[i, r] else onq
        w = cmp(v, ds_flush[i, r], win) - generic
        extra += max(w, 0) if gains_only else w
    return extra


@nb.njit(cache=True, nogil=True)
def availability(dead: Any, deck: Any, a: Any, suit_masks: Any) -> Any:  # pragma: no cover
    """Fill ``a`` (cards left per rank) and ``suit_masks`` (ranks left per suit) from the
    dead cards and the deck; return the number of cards left."""
    left = deck & ~dead
    total = 0
    for s in range(4):
        suit_masks[s] = 0
    for r in range(13):
        a[r] = 0
        for s in range(4):
            if (left >> (4 * r + s)) & 1:
                a[r] += 1
                suit_masks[s] |= 1 << r
        total += a[r]
    return total


@nb.njit(cache=True, nogil=True)
def state_parts(
    v: Any, m: Any, dead: Any, deck: Any, rules: Any, scale: Any, vt: Any, mt: Any, ds: Any
) -> Any:  # pragma: no cover - compiled
    """``(total, hands, insurance_net, insured, gain, bought)``: betting with a final hand of
    value ``v`` and two-combination multiple ``m`` is worth ``total / (hands * scale)``
    Antes when the dealer's five cards come from ``deck`` minus ``dead`` (the module
    docstring's three parts); of that, ``insurance_net`` (same units) is the insurance's
    and ``gain`` buying's; ``insured`` is the insurance placed (Antes, 0 if none) and
    ``bought`` the number of dealer hands whose game is bought."""
    vt_cat, vt_ranks, vt_mask = vt
    mt_ak, mt_nq, mt_str, _ = mt
    win = 2 * m + rules[0]
    onq = rules[1]
    rebuy = rules[2] != 0
    a = np.zeros(13, dtype=np.int64)
    suits = np.zeros(4, dtype=np.int64)
    left = availability(dead, deck, a, suits)
    hands = left * (left - 1) * (left - 2) * (left - 3) * (left - 4) // 120
    totals = np.zeros(11, dtype=np.int64)
    category_totals(a, totals)
    category = vt_cat[v]
    f = vt_ranks[v]
    below, _, above = versus(a, category, f, totals)
    net = win * below - 3 * above + totals[8]
    not_qualified = totals[8]
    for s in range(4):
        net += flush_correction(suits[s], category, f, vt_mask[v], win, mt_ak, mt_nq, mt_str)
        not_qualified -= mt_nq[suits[s]]
    total = net * scale
    insurance = 0
    insured = 0
    if category >= TRIPS:
        edge = 2 * not_qualified - hands
        if edge > 0:
            insured = 2 * m
            insurance = insured * edge * scale
    gain = 0
    bought = 0
    if win >= 3:
        gain, bought = buy_total(a, suits, v, win, onq, rebuy, scale, ds)
    return total + insurance + gain, hands, insurance, insured, gain, bought


@nb.njit(cache=True, nogil=True)
def state_total(
    v: Any, m: Any, dead: Any, deck: Any, rules: Any, scale: Any, vt: Any, mt: Any, ds: Any
) -> Any:  # pragma: no cover - compiled
    """``(total, hands)`` of :func:`state_parts`."""
    total, hands, _, _, _, _ = state_parts(v, m, dead, deck, rules, scale, vt, mt, ds)
    return total, hands


@nb.njit(cache=True, nogil=True)
def buy_ranks(
    a: Any,
    v: Any,
    win: Any,
    onq: Any,
    rebuy: Any,
    scale: Any,
    ds: Any,
    outcomes: Any,
    cards: Any,
    counts: Any,
) -> Any:  # pragma: no cover - compiled
    """``(gain, bought)``: what buying adds over taking the Ante's 1, summed over the
    non-qualifying dealer hands counted by ranks (times ``scale``), and how many of them
    are bought; fills, per rank set, the outcome sum, the number of replacement cards (for
    :func:`buy_suits`) and the number of such hands."""
    ds_mask = ds[0]
    total = 0
    bought = 0
    atot = 0
    for r in range(13):
        atot += a[r]
    for i in range(ds_mask.shape[0]):
        count = _set_count(a, i, ds)
        counts[i] = count
        if count == 0:
            continue
        o, n = buy_rank_sums(a, atot, i, v, win, onq, rebuy, ds)
        outcomes[i] = o
        cards[i] = n
        gain = bought_pay(o, n, scale) - scale
        if gain > 0:
            total += count * gain
            bought += count
    return total, bought


@nb.njit(cache=True, nogil=True)
def buy_suits(
    a: Any,
    suits: Any,
    v: Any,
    win: Any,
    onq: Any,
    rebuy: Any,
    scale: Any,
    ds: Any,
    outcomes: Any,
    cards: Any,
    counts: Any,
) -> Any:  # pragma: no cover - compiled
    """``(gain, bought)``: the per-suit corrections to :func:`buy_ranks`: a flush-suited
    hand is a flush (its buying comes off), a kept-suited hand may be bought into a flush
    (which changes its worth and maybe the decision to buy)."""
    ds_mask, ds_top, ds_kept, ds_new, ds_flush, ds_qual, _, _ = ds
    total = 0
    bought = 0
    for i in range(ds_mask.shape[0]):
        if counts[i] == 0:
            continue
        top = ds_top[i]
        kept = ds_kept[i]
        o = outcomes[i]
        n = cards[i]
        generic = bought_pay(o, n, scale)
        for s in range(4):
            sm = suits[s]
            if sm & kept != kept:
                continue
            if (sm >> top) & 1 and generic > scale:
                total -= generic - scale
                bought -= 1
            tops = a[top] - ((sm >> top) & 1)
            if tops <= 0:
                continue
            extra = kept_suited_outcomes(
                i, sm, v, win, onq, rebuy, ds_mask, ds_top, ds_new, ds_qual, ds_flush
            )
            if extra:
                pay = bought_pay(o + extra, n, scale)
                total += tops * (pay - generic)
                bought += tops * ((pay > scale) - (generic > scale))
    return total, bought


@nb.njit(cache=True, nogil=True)
def buy_total(
    a: Any, suits: Any, v: Any, win: Any, onq: Any, rebuy: Any, scale: Any, ds: Any
) -> Any:  # pragma: no cover - compiled
    """:func:`buy_ranks` plus :func:`buy_suits` for one state: ``(gain, bought)``."""
    sets = ds[0].shape[0]
    outcomes = np.zeros(sets, dtype=np.int64)
    cards = np.zeros(sets, dtype=np.int64)
    counts = np.zeros(sets, dtype=np.int64)
    gain, bought = buy_ranks(a, v, win, onq, rebuy, scale, ds, outcomes, cards, counts)
    g2, b2 = buy_suits(a, suits, v, win, onq, rebuy, scale, ds, outcomes, cards, counts)
    return gain + g2, bought + b2
