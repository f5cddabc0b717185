"""The rank-level table of the exact analysis, per first-hand rank multiset.

An exchange's draw has a rank pattern ``x``; with the kept ranks ``kappa`` it fixes the final
hand's ranks and the dealer's rank counts, whatever the suits. For a first hand of ranks ``p``
(shared by ~22 suit classes), :func:`prepare_p` computes, for every ``(kappa, x)``, the
rank-level value of the state (:mod:`._counts`, buying by ranks) for the non-flush final hand
and, when its ranks are distinct, for the flush one.
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np

from croupier.analysis.russian._counts import category_totals, versus
from croupier.analysis.russian._option import multisets, nonflush_value
from croupier.analysis.russian._ranks import FLUSH, HC, STRAIGHT, _popcount
from croupier.analysis.russian._state import (
    _set_count,
    bought_pay,
    buy_rank_sums,
    kept_suited_outcomes,
)

__all__: list[str] = []

# rank-table fields (per (kappa, x) entry, for the non-flush final hand at +0 and the flush
# final hand at +FL): value, multiple, rank-level total, strong (0/1), gain_max, lift_max,
# profitable rank sets, whether the total includes buying by ranks (else gain_max bounds
# the gain of every non-qualifying dealer hand), buying's gain in the total, dealer hands
# bought (by ranks)
V, M, TOT, STRONG, GMAX, LMAX, NPROF, BOUGHT, GAIN, NBUY = range(10)
FL = 10
FIELDS = 20
ENTRIES = 21_000
"""Enough rows for any first hand's (kept ranks, draw pattern) table."""
DRAW_PATTERNS = 8_600
"""Enough rows for the draw patterns of one to five cards."""


@nb.njit(cache=True, nogil=True)
def can_buy(a: Any, atot: Any, category: Any, win: Any, onq: Any, rebuy: Any) -> Any:
    # pragma: no cover - compiled
    """Whether buying the dealer's game can ever pay more than the Ante's 1 against a final
    hand of ``category`` (a bound: the best four pairing ranks and, from a straight up, the
    straight completions all won, every other card worth what a failed buy pays)."""
    if win <= 2:
        return False  # no outcome beats 2 = 1 (the Ante) + 1 (the fee)
    if category >= FLUSH:
        return True  # flush completions can win too
    best = np.zeros(4, dtype=np.int64)
    top_max = 0
    for r in range(13):
        c = a[r] - 1
        if a[r] > top_max:
            top_max = a[r]
        for j in range(4):
            if c > best[j]:
                for t in range(3, j, -1):
                    best[t] = best[t - 1]
                best[j] = c
                break
    wins = best[0] + best[1] + best[2] + best[3]
    if category == HC:
        wins = 0  # any pair beats a high card
    if category >= STRAIGHT:
        wins += 8
    n = atot - 5 - ((top_max - 1) if rebuy else 0)
    if n <= 0:
        return False
    return win * wins + onq * (n - wins) > 2 * n


@nb.njit(cache=True, nogil=True)
def qualifying_cards(a: Any, i: Any, ds: Any) -> Any:  # pragma: no cover - compiled
    """The replacement cards that give non-qualifying rank set ``i`` a game (no flush)."""
    kept = ds[6]
    straights = ds[7]
    count = 0
    for j in range(4):
        count += max(a[kept[i, j]] - 1, 0)
    for j in range(2):
        r = straights[i, j]
        if r >= 0:
            count += a[r]
    return count


@nb.njit(cache=True, nogil=True)
def rank_entry(
    a: Any,
    totals: Any,
    v: Any,
    m: Any,
    rules: Any,
    scale: Any,
    vt: Any,
    ds: Any,
    row: Any,
    at: Any,
    full: Any,
) -> None:  # pragma: no cover - compiled
    """Fill ``row[at:at+8]`` for a final hand of value ``v``, multiple ``m``; without
    ``full``, buying is left out of the total and only bounded (``GMAX``, ``LMAX``)."""
    vt_cat, vt_ranks, _ = vt
    ds_mask, ds_top, _, ds_new, ds_flush, ds_qual, _, _ = ds
    win = 2 * m + rules[0]
    onq = rules[1]
    rebuy = rules[2] != 0
    category = vt_cat[v]
    below, _, above = versus(a, category, vt_ranks[v], totals)
    total = (win * below - 3 * above + totals[8]) * scale
    row[at + V] = v
    row[at + M] = m
    row[at + STRONG] = 0
    row[at + GMAX] = 0
    row[at + LMAX] = 0
    row[at + NPROF] = 0
    row[at + BOUGHT] = 1
    row[at + GAIN] = 0
    row[at + NBUY] = 0
    atot = 0
    top_max = 0
    for r in range(13):
        atot += a[r]
        top_max = max(top_max, a[r])
    if can_buy(a, atot, category, win, onq, rebuy):
        n_min = atot - 5 - ((top_max - 1) if rebuy else 0)
        completions = 9 if not rebuy else 8
        if not full:
            # every qualifying card won: at most 12 pairing and 8 straight cards
            q = min(20, n_min)
            row[at + STRONG] = 1
            row[at + GMAX] = bought_pay(win * q + onq * (n_min - q), n_min, scale) - scale
            row[at + LMAX] = max(win - onq, 0) * completions * (scale // n_min)
            row[at + NPROF] = ds_mask.shape[0]
            row[at + BOUGHT] = 0
            row[at + TOT] = total
            return
        gmax = 0
        lmax = 0
        nprof = 0
        gains = 0
        bought = 0
        for i in range(ds_mask.shape[0]):
            count = _set_count(a, i, ds)
            if count == 0:
                continue
            if category >= FLUSH:
                # a flush or better beats every non-flush hand a bought card can make
                q = qualifying_cards(a, i, ds)
                n = atot - 5 - ((a[ds_top[i]] - 1) if rebuy else 0)
                o = win * q + onq * (n - q)
            else:
                o, n = buy_rank_sums(a, atot, i, v, win, onq, rebuy, ds)
            generic = bought_pay(o, n, scale)
            gain = generic - scale
            if gain > 0:
                gains += count * gain
                bought += count
            lift = 0
            if category >= FLUSH:
                best = kept_suited_outcomes(
                    i,
                    8191,
                    v,
                    win,
                    onq,
                    rebuy,
                    ds_mask,
                    ds_top,
                    ds_new,
                    ds_qual,
                    ds_flush,
                    True,
                )
                lift = bought_pay(o + best, n, scale) - generic
            gmax = max(gmax, gain)
            lmax = max(lmax, lift)
            if gain > 0 or lift > 0:
                nprof += 1
        if nprof:
            row[at + STRONG] = 1
        row[at + GMAX] = gmax
        row[at + LMAX] = lmax
        row[at + NPROF] = nprof
        row[at + GAIN] = gains
        row[at + NBUY] = bought
        total += gains
    row[at + TOT] = total


@nb.njit(cache=True)
def kept_tops() -> Any:  # pragma: no cover - compiled
    """``table[mask, t]``: four-rank subsets of ``mask`` below rank ``t`` that make a
    non-qualifying dealer hand with ``t`` on top (the kept cards of a suit, for counting
    the dealer hands a bought card can turn into a flush)."""
    out = np.zeros((8192, 13), dtype=np.int64)
    for t in range(13):
        below = (1 << t) - 1
        for q in range(8192):
            if q & ~below or _popcount(q) != 4:
                continue
            r = q | (1 << t)
            if t == 12 and (q >> 11) & 1:
                continue  # Ace-King qualifies
            if _is_straight(r):
                continue
            # every mask holding q gets one more subset
            out[q, t] += 1
    # sum over sub-masks: table[mask, t] = sum of out[q, t] for q inside mask
    for bit in range(13):
        for m in range(8192):
            if (m >> bit) & 1:
                for t in range(13):
                    out[m, t] += out[m ^ (1 << bit), t]
    return out


@nb.njit(cache=True, nogil=True)
def _is_straight(mask: Any) -> Any:  # pragma: no cover - compiled
    if mask == 0b1_0000_0000_1111:
        return True
    low = mask & -mask
    return mask == low * 0b11111


@nb.njit(cache=True, nogil=True)
def kappa_layout(pc: Any, ranks: Any, mult: Any, radix: Any) -> Any:  # pragma: no cover
    """The distinct ranks of ``pc`` (counts) with their multiplicities and the mixed radix
    numbering its sub-multisets (the kept ranks of an exchange); return how many there are."""
    nd = 0
    total = 1
    for r in range(13):
        if pc[r]:
            ranks[nd] = r
            mult[nd] = pc[r]
            radix[nd] = total
            total *= pc[r] + 1
            nd += 1
    for j in range(nd, 5):
        ranks[j] = 0
        mult[j] = 0
        radix[j] = 0
    return total


@nb.njit(cache=True, nogil=True)
def prepare_p(
    pc: Any,
    deck_counts: Any,
    tab: Any,
    m5: Any,
    rules: Any,
    scales: Any,
    vt: Any,
    ds: Any,
    xs: Any,
    xoff: Any,
    xnq: Any,
    entries: Any,
    eoff: Any,
) -> Any:  # pragma: no cover - compiled
    """The rank-level table of first-hand ranks ``pc``: draw patterns ``xs`` (rows
    ``xoff[k]:xoff[k+1]`` draw ``k`` cards), the non-qualifying dealer count ``xnq`` of
    each, and for each kept sub-multiset (code ``c``) the entries ``eoff[c] + i`` for its
    draws ``i``. Return the number of kept sub-multisets."""
    ranks = np.zeros(5, dtype=np.int64)
    mult = np.zeros(5, dtype=np.int64)
    radix = np.zeros(5, dtype=np.int64)
    n_kappa = kappa_layout(pc, ranks, mult, radix)
    a0 = np.zeros(13, dtype=np.int64)
    for r in range(13):
        a0[r] = deck_counts[r] - pc[r]
    xoff[0] = 0
    xoff[1] = 0
    for k in range(1, 6):
        n = multisets(a0, k, xs[xoff[k] :])
        xoff[k + 1] = xoff[k] + n
    # entries: kept sub-multisets in code order, each followed by its k's draws
    kappa = np.zeros(13, dtype=np.int64)
    at = 0
    for c in range(n_kappa):
        size = 0
        for j in range(5):
            if mult[j]:
                size += (c // radix[j]) % (mult[j] + 1)
        eoff[c] = at
        k = 5 - size
        if k > 0:
            at += xoff[k + 1] - xoff[k]
    eoff[n_kappa] = at
    a = np.zeros(13, dtype=np.int64)
    totals = np.zeros(11, dtype=np.int64)
    final = np.zeros(13, dtype=np.int64)
    for k in range(1, 6):
        for ix in range(xoff[k], xoff[k + 1]):
            for r in range(13):
                a[r] = a0[r] - xs[ix, r]
            category_totals(a, totals)
            xnq[ix] = totals[8]
            for c in range(n_kappa):
                size = 0
                for r in range(13):
                    kappa[r] = 0
                for j in range(5):
                    if mult[j]:
                        kc = (c // radix[j]) % (mult[j] + 1)
                        kappa[ranks[j]] = kc
                        size += kc
                if size != 5 - k:
                    continue
                distinct = True
                fmask = 0
                for r in range(13):
                    final[r] = kappa[r] + xs[ix, r]
                    if final[r] > 1:
                        distinct = False
                    if final[r]:
                        fmask |= 1 << r
                row = entries[eoff[c] + ix - xoff[k]]
                v = nonflush_value(final, tab)
                rank_entry(a, totals, v, m5[v], rules, scales[k], vt, ds, row, 0, True)
                if distinct:
                    vf = tab[6][fmask]
                    rank_entry(a, totals, vf, m5[vf], rules, scales[k], vt, ds, row, FL, False)
                else:
                    row[FL + V] = 0
    return n_kappa
