"""Dealer hands counted by rank: how many beat, tie and lose to a player's hand.

The dealer's five cards come from the cards still available; ``a[r]`` is how many of rank
``r`` are left. A dealer hand with rank multiset ``rho`` can be dealt in
``prod_r C(a[r], rho[r])`` ways, all of them counted here as non-flush hands (the flush-suited
ones are corrected per suit in :mod:`._state`). Each category's count is a sum of products,
written with elementary symmetric polynomials of the ``a[r]``; within the player's own
category the hands below it are counted rank by rank (kickers lexicographically), so one
count costs a few hundred operations instead of a pass over 6,175 multisets.
"""

from __future__ import annotations

from typing import Any

import numba as nb

from croupier.analysis.russian._ranks import (
    ACE,
    FLUSH,
    FULL,
    HC,
    KING,
    PAIR,
    QUADS,
    STRAIGHT,
    STRAIGHT_MASKS,
    TRIPS,
    TWO_PAIR,
)

__all__: list[str] = []

_STRAIGHTS = STRAIGHT_MASKS


@nb.njit(cache=True, nogil=True)
def esym(a: Any, allowed: Any, k: Any) -> Any:  # pragma: no cover - compiled
    """The elementary symmetric polynomial of degree ``k`` (<= 5) of ``a[r]`` over ranks in
    the mask ``allowed``: the ways to deal ``k`` cards of distinct allowed ranks."""
    e1 = e2 = e3 = e4 = e5 = 0
    for r in range(13):
        x = a[r]
        if (allowed >> r) & 1 and x:
            e5 += e4 * x
            e4 += e3 * x
            e3 += e2 * x
            e2 += e1 * x
            e1 += x
    if k == 0:
        return 1
    if k == 1:
        return e1
    if k == 2:
        return e2
    if k == 3:
        return e3
    if k == 4:
        return e4
    return e5


@nb.njit(cache=True, nogil=True, inline="always")
def _without(e1: Any, e2: Any, e3: Any, x: Any) -> Any:  # pragma: no cover - compiled
    """``(e1, e2, e3)`` of a multiset of counts with one count ``x`` taken out."""
    f1 = e1 - x
    f2 = e2 - x * f1
    return f1, f2, e3 - x * f2


@nb.njit(cache=True, nogil=True)
def lex_below(a: Any, allowed: Any, f: Any, start: Any, k: Any) -> Any:  # pragma: no cover
    """The ways to deal ``k`` (<= 3) cards of distinct allowed ranks whose ranks, sorted
    high to low, are lexicographically below ``f[start:start + k]`` (itself high to low)."""
    total = 0
    weight = 1
    for i in range(k):
        fi = f[start + i]
        rest = k - i - 1
        p1 = 0  # e1, e2 of the allowed counts below r
        p2 = 0
        for r in range(fi):
            x = a[r]
            if (allowed >> r) & 1 and x:
                if rest == 0:
                    total += weight * x
                elif rest == 1:
                    total += weight * x * p1
                else:
                    total += weight * x * p2
                p2 += p1 * x
                p1 += x
        weight *= a[fi]
        if weight == 0:
            break
    return total


@nb.njit(cache=True, nogil=True, inline="always")
def _straight(a: Any, j: Any) -> Any:  # pragma: no cover - compiled
    """Deals of the ``j``-th straight (0: the wheel)."""
    if j == 0:
        return a[12] * a[0] * a[1] * a[2] * a[3]
    return a[j - 1] * a[j] * a[j + 1] * a[j + 2] * a[j + 3]


@nb.njit(cache=True, nogil=True, inline="always")
def _sums3(a: Any) -> Any:  # pragma: no cover - compiled
    """``(e1, e2, e3)`` of all thirteen counts."""
    e1 = e2 = e3 = 0
    for r in range(13):
        x = a[r]
        e3 += e2 * x
        e2 += e1 * x
        e1 += x
    return e1, e2, e3


@nb.njit(cache=True, nogil=True)
def category_totals(a: Any, out: Any) -> None:  # pragma: no cover - compiled
    """``out``: dealer hands by category (non-flush counting) and the non-qualifying ones:
    0 Ace-King high, 1 pair, 2 two pair, 3 trips, 4 straight, 5 (unused), 6 full house,
    7 quads, 8 not qualified, 9 all qualifying, 10 all hands."""
    e1 = e2 = e3 = e4 = e5 = 0
    for r in range(13):
        x = a[r]
        e5 += e4 * x
        e4 += e3 * x
        e3 += e2 * x
        e2 += e1 * x
        e1 += x
    straights = 0
    for j in range(10):
        straights += _straight(a, j)
    high = e5
    g1, g2, g3 = _without(e1, e2, e3, a[ACE])
    g1, g2, g3 = _without(g1, g2, g3, a[KING])
    ak = a[ACE] * a[KING] * (g3 - a[10] * a[9] * a[8])
    pair = 0
    two = 0
    trips = 0
    full = 0
    quads = 0
    pairs_total = 0
    for r in range(13):
        pairs_total += a[r] * (a[r] - 1) // 2
    for r in range(13):
        c2 = a[r] * (a[r] - 1) // 2
        c3 = c2 * (a[r] - 2) // 3
        c4 = c3 * (a[r] - 3) // 4
        _, h2, h3 = _without(e1, e2, e3, a[r])
        if c2:
            pair += c2 * h3
            for q in range(r):
                d2 = a[q] * (a[q] - 1) // 2
                two += c2 * d2 * (e1 - a[r] - a[q])
        if c3:
            trips += c3 * h2
            full += c3 * (pairs_total - c2)
        if c4:
            quads += c4 * (e1 - a[r])
    out[0] = ak
    out[1] = pair
    out[2] = two
    out[3] = trips
    out[4] = straights
    out[5] = 0
    out[6] = full
    out[7] = quads
    out[8] = high - straights - ak
    out[9] = ak + pair + two + trips + straights + full + quads
    e5 = e1 * (e1 - 1) * (e1 - 2) * (e1 - 3) * (e1 - 4) // 120
    out[10] = e5


@nb.njit(cache=True, nogil=True)
def versus(a: Any, category: Any, f: Any, totals: Any) -> Any:  # pragma: no cover - compiled
    """``(below, equal, above)``: qualifying dealer hands (non-flush counting) lower than,
    equal to and higher than a player's best five of ``category`` with ordering ranks ``f``
    (see :func:`._ranks.value_table`); ``totals`` from :func:`category_totals`."""
    all_ranks = (1 << 13) - 1
    q = totals[9]
    below = 0
    equal = 0
    e1 = 0
    for r in range(13):
        e1 += a[r]
    if category == HC:
        if f[0] == ACE and f[1] == KING:
            low = all_ranks & ~(1 << ACE) & ~(1 << KING)
            below = a[ACE] * a[KING] * lex_below(a, low, f, 2, 3)
            equal = a[f[0]] * a[f[1]] * a[f[2]] * a[f[3]] * a[f[4]]
    elif category == PAIR:
        p = f[0]
        below = totals[0]
        e1, e2, e3 = _sums3(a)
        for r in range(p):
            c2 = a[r] * (a[r] - 1) // 2
            if c2:
                below += c2 * _without(e1, e2, e3, a[r])[2]
        c2 = a[p] * (a[p] - 1) // 2
        below += c2 * lex_below(a, all_ranks & ~(1 << p), f, 1, 3)
        equal = c2 * a[f[1]] * a[f[2]] * a[f[3]]
    elif category == TWO_PAIR:
        hi, lo, kick = f[0], f[1], f[2]
        below = totals[0] + totals[1]
        for r in range(hi + 1):
            c2 = a[r] * (a[r] - 1) // 2
            if not c2:
                continue
            for s in range(r):
                if r == hi and s >= lo:
                    break
                d2 = a[s] * (a[s] - 1) // 2
                below += c2 * d2 * (e1 - a[r] - a[s])
        both = (a[hi] * (a[hi] - 1) // 2) * (a[lo] * (a[lo] - 1) // 2)
        for r in range(kick):
            if r != hi and r != lo:
                below += both * a[r]
        equal = both * a[kick]
    elif category == TRIPS:
        t = f[0]
        below = totals[0] + totals[1] + totals[2]
        e1, e2, e3 = _sums3(a)
        for r in range(t):
            c3 = a[r] * (a[r] - 1) * (a[r] - 2) // 6
            if c3:
                below += c3 * _without(e1, e2, e3, a[r])[1]
        c3 = a[t] * (a[t] - 1) * (a[t] - 2) // 6
        below += c3 * lex_below(a, all_ranks & ~(1 << t), f, 1, 2)
        equal = c3 * a[f[1]] * a[f[2]]
    elif category == STRAIGHT:
        below = totals[0] + totals[1] + totals[2] + totals[3]
        index = 0 if f[0] == 3 else f[0] - 3
        for j in range(index + 1):
            p = _straight(a, j)
            if j < index:
                below += p
            else:
                equal = p
    elif category == FLUSH:
        below = q - totals[6] - totals[7]
    elif category == FULL:
        t, p = f[0], f[1]
        below = q - totals[6] - totals[7]
        for r in range(t + 1):
            c3 = a[r] * (a[r] - 1) * (a[r] - 2) // 6
            if not c3:
                continue
            for s in range(13):
                if s == r or (r == t and s >= p):
                    continue
                below += c3 * (a[s] * (a[s] - 1) // 2)
        equal = (a[t] * (a[t] - 1) * (a[t] - 2) // 6) * (a[p] * (a[p] - 1) // 2)
    elif category == QUADS:
        qr, kick = f[0], f[1]
        below = q - totals[7]
        for r in range(qr):
            c4 = a[r] * (a[r] - 1) * (a[r] - 2) * (a[r] - 3) // 24
            below += c4 * (e1 - a[r])
        c4 = a[qr] * (a[qr] - 1) * (a[qr] - 2) * (a[qr] - 3) // 24
        for r in range(kick):
            if r != qr:
                below += c4 * a[r]
        equal = c4 * a[kick]
    else:  # straight flush, royal flush: above every non-flush hand
        below = q
    qualifying_equal = equal if (category != HC or (f[0] == ACE and f[1] == KING)) else 0
    return below, equal, q - below - qualifying_equal
