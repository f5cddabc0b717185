"""An exchange's exact total, draw by draw (or, for most rank patterns, in one step).

The draws of a rank pattern ``x`` differ only by suits. For a final hand whose per-suit
correction is linear in two mask counts (a pair to trips, or a high card without Ace-King:
``alpha * ace_king + beta * not_qualified``), that cannot gain from buying or insuring, the
pattern's total is exact from the sums of those counts over its draws (:func:`x_stats`, one
pass per class and number of cards drawn, shared by every exchange of that size) whenever
every draw of the pattern takes the same decision (bet, or fold); otherwise each draw is
valued (:func:`draw_value`) and the decisions taken one by one.
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np

from croupier.analysis.russian._bounds import _weak_coefficients, kept_suited_bound
from croupier.analysis.russian._counts import category_totals, versus
from croupier.analysis.russian._option import _suit_choices, add2
from croupier.analysis.russian._ranks import FLUSH, FULL, QUADS, TRIPS, _popcount
from croupier.analysis.russian._ranktable import (
    FIELDS,
    FL,
    GAIN,
    GMAX,
    LMAX,
    NBUY,
    NPROF,
    STRONG,
    TOT,
    M,
    V,
    qualifying_cards,
    rank_entry,
)
from croupier.analysis.russian._state import (
    _set_count,
    bought_pay,
    buy_rank_sums,
    cmp,
    flush_correction,
    kept_suited_outcomes,
)

__all__: list[str] = []

STATS = 7
S_AK, S_NQ, MIN_AK, MAX_AK, MIN_NQ, MAX_NQ, COUNT = range(STATS)
EXT = 8
"""Extra sums per option: draws that bet, insurance placed (Antes), dealer hands bought,
the insurance's net (two words, a value's units), buying's gain (two words), and draws
that insure."""
BETS, INSURED, BUYS, INS_NET, GAIN_SUM, INS_COUNT = 0, 1, 2, 3, 5, 7


@nb.njit(cache=True, nogil=True)
def _bet_parts(ext: Any, parts: Any) -> None:  # pragma: no cover - compiled
    """Count one draw that bets, with its ``parts`` from :func:`draw_value`."""
    ext[BETS] += 1
    ext[INSURED] += parts[1]
    ext[INS_COUNT] += parts[1] > 0
    ext[BUYS] += parts[3]
    add2(ext[INS_NET : INS_NET + 2], parts[0])
    add2(ext[GAIN_SUM : GAIN_SUM + 2], parts[2])


@nb.njit(cache=True, nogil=True)
def profitable_sets(
    a: Any,
    v: Any,
    m: Any,
    rules: Any,
    scale: Any,
    vt: Any,
    ds: Any,
    idx: Any,
    outs: Any,
    cards: Any,
) -> Any:  # pragma: no cover - compiled
    """The rank sets whose buying can pay more than the Ante (alone or with flush
    completions) for a final hand of value ``v``: indices, outcome sums, card counts."""
    ds_mask, ds_top, _, ds_new, ds_flush, ds_qual, _, _ = ds
    win = 2 * m + rules[0]
    onq = rules[1]
    rebuy = rules[2] != 0
    category = vt[0][v]
    atot = 0
    for r in range(13):
        atot += a[r]
    n_list = 0
    for i in range(ds_mask.shape[0]):
        if _set_count(a, i, ds) == 0:
            continue
        o, n = buy_rank_sums(a, atot, i, v, win, onq, rebuy, ds)
        generic = bought_pay(o, n, scale)
        if generic == scale:
            if category < FLUSH:
                continue  # flush completions only lose below a flush
            best = kept_suited_outcomes(
                i, 8191, v, win, onq, rebuy, ds_mask, ds_top, ds_new, ds_qual, ds_flush, True
            )
            if bought_pay(o + best, n, scale) == scale:
                continue
        idx[n_list] = i
        outs[n_list] = o
        cards[n_list] = n
        n_list += 1
    return n_list


@nb.njit(cache=True, nogil=True)
def buy_suit_exact(
    a: Any,
    mask: Any,
    v: Any,
    m: Any,
    rules: Any,
    scale: Any,
    ds: Any,
    idx: Any,
    outs: Any,
    cards: Any,
    n_list: Any,
    category: Any,
) -> Any:  # pragma: no cover - compiled
    """One suit's share of :func:`._state.buy_suits` over a profitable list (a final hand
    of ``category``: below a flush every flush completion loses, from a full house it
    wins unless it is a straight flush, so the completions are counted, not valued)."""
    ds_mask, ds_top, ds_kept, ds_new, ds_flush, ds_qual, _, straights = ds
    win = 2 * m + rules[0]
    onq = rules[1]
    rebuy = rules[2] != 0
    below = category < FLUSH
    counted = below or FULL <= category <= QUADS
    each = (-3 - onq) if below else (win - onq)
    total = 0
    bought = 0
    for j in range(n_list):
        i = idx[j]
        kept = ds_kept[i]
        if mask & kept != kept:
            continue
        top = ds_top[i]
        generic = bought_pay(outs[j], cards[j], scale)
        if (mask >> top) & 1 and generic > scale:
            total -= generic - scale
            bought -= 1
        tops = a[top] - ((mask >> top) & 1)
        if tops <= 0:
            continue
        if counted:
            completions = mask & ~ds_mask[i]
            if not rebuy and (mask >> top) & 1:
                completions |= 1 << top
            extra = each * _popcount(completions)
            for t in range(2):
                r = straights[i, t]
                if r >= 0 and (completions >> r) & 1:
                    # a straight flush: it beats the hand; the straight alone was valued
                    straight = cmp(v, ds_new[i, r], win)
                    extra += (-3 - straight) - each
        else:
            extra = kept_suited_outcomes(
                i, mask, v, win, onq, rebuy, ds_mask, ds_top, ds_new, ds_qual, ds_flush, False
            )
        if extra:
            pay = bought_pay(outs[j] + extra, cards[j], scale)
            total += tops * (pay - generic)
            bought += tops * ((pay > scale) - (generic > scale))
    return total, bought


@nb.njit(cache=True, nogil=True)
def flush_entry(
    a: Any,
    totals: Any,
    v: Any,
    m: Any,
    rules: Any,
    scale: Any,
    vt: Any,
    ds: Any,
    row: Any,
    idx: Any,
    outs: Any,
    cards: Any,
) -> Any:  # pragma: no cover - compiled
    """:func:`._ranktable.rank_entry` for a flush (or better) final hand, filling the list
    of rank sets whose buying can pay at the same time (every outcome of a bought card but
    a flush is a win); return the list's length."""
    ds_mask = ds[0]
    ds_top = ds[1]
    win = 2 * m + rules[0]
    onq = rules[1]
    rebuy = rules[2] != 0
    below, _, above = versus(a, vt[0][v], vt[1][v], totals)
    total = (win * below - 3 * above + totals[8]) * scale
    atot = 0
    for r in range(13):
        atot += a[r]
    completions = 8 if rebuy else 9
    n_list = 0
    gains = 0
    bought = 0
    for i in range(ds_mask.shape[0]):
        count = _set_count(a, i, ds)
        if count == 0:
            continue
        q = qualifying_cards(a, i, ds)
        n = atot - 5 - ((a[ds_top[i]] - 1) if rebuy else 0)
        o = win * q + onq * (n - q)
        gain = bought_pay(o, n, scale) - scale
        if gain > 0:
            gains += count * gain
            bought += count
        if gain > 0 or o + max(win - onq, 0) * completions > 2 * n:
            idx[n_list] = i
            outs[n_list] = o
            cards[n_list] = n
            n_list += 1
    row[V] = v
    row[M] = m
    row[TOT] = total + gains
    row[STRONG] = 1 if n_list else 0
    row[NPROF] = n_list
    row[GAIN] = gains
    row[NBUY] = bought
    return n_list


@nb.njit(cache=True, nogil=True)
def x_stats(
    k: Any, xs: Any, xoff: Any, suits0: Any, avail: Any, mt: Any, stats: Any
) -> None:  # pragma: no cover - compiled
    """``stats[ix]``: over the draws of pattern ``ix`` (``k`` cards), the sums, minima and
    maxima of the four suits' Ace-King and non-qualifying subset counts, and the draws."""
    mt_ak, mt_nq, _, _ = mt
    subs, nsubs = _suit_choices()
    ranks = np.zeros(5, dtype=np.int64)
    choice = np.zeros(5, dtype=np.int64)
    masks = np.zeros(4, dtype=np.int64)
    for ix in range(xoff[k], xoff[k + 1]):
        nr = 0
        possible = True
        for r in range(13):
            if xs[ix, r]:
                if nsubs[avail[r], xs[ix, r]] == 0:
                    possible = False
                ranks[nr] = r
                choice[nr] = 0
                nr += 1
        st = stats[ix]
        for j in range(STATS):
            st[j] = 0
        if not possible:
            continue
        st[MIN_AK] = st[MIN_NQ] = 1 << 40
        while True:
            for s in range(4):
                masks[s] = suits0[s]
            for j in range(nr):
                sm = subs[avail[ranks[j]], xs[ix, ranks[j]], choice[j]]
                for s in range(4):
                    if (sm >> s) & 1:
                        masks[s] &= ~(1 << ranks[j])
            ak = mt_ak[masks[0]] + mt_ak[masks[1]] + mt_ak[masks[2]] + mt_ak[masks[3]]
            nq = mt_nq[masks[0]] + mt_nq[masks[1]] + mt_nq[masks[2]] + mt_nq[masks[3]]
            st[S_AK] += ak
            st[S_NQ] += nq
            st[MIN_AK] = min(st[MIN_AK], ak)
            st[MAX_AK] = max(st[MAX_AK], ak)
            st[MIN_NQ] = min(st[MIN_NQ], nq)
            st[MAX_NQ] = max(st[MAX_NQ], nq)
            st[COUNT] += 1
            j = nr - 1
            while j >= 0:
                choice[j] += 1
                if choice[j] < nsubs[avail[ranks[j]], xs[ix, ranks[j]]]:
                    break
                choice[j] = 0
                j -= 1
            if j < 0:
                break


@nb.njit(cache=True, nogil=True)
def draw_value(
    cur: Any,
    flush: Any,
    masks: Any,
    ys: Any,
    a: Any,
    nq_rank: Any,
    hands: Any,
    rules: Any,
    scale: Any,
    vt: Any,
    mt: Any,
    ds: Any,
    kt: Any,
    exact: Any,
    idx: Any,
    outs: Any,
    cards: Any,
    n_list: Any,
    cache: Any,
    cached: Any,
    use_cache: Any,
    fast: Any,
    alpha: Any,
    beta: Any,
    parts: Any,
) -> Any:  # pragma: no cover - compiled
    """``(lo, hi)``: the value (numerator) of betting from one draw's state: the rank-level
    total of its final hand ``cur`` plus the per-suit corrections of its masks, insurance,
    and buying's per-suit corrections (exact over the profitable list, or bounded).
    ``parts``: the insurance's net (same units), the insurance placed (Antes), buying's
    gain (same units) and the dealer hands bought (the last two only when exact)."""
    mt_ak, mt_nq, mt_str, _ = mt
    vt_cat, vt_ranks, vt_mask = vt
    v = cur[V]
    m = cur[M]
    win = 2 * m + rules[0]
    s_nq = 0
    for s in range(4):
        s_nq += mt_nq[masks[s]]
    if fast and not flush:
        s_ak = 0
        for s in range(4):
            s_ak += mt_ak[masks[s]]
        corr = alpha * s_ak + beta * s_nq
    elif vt_cat[v] == 0:
        # Ace-King high: the flush-suited Ace-King hands below it (table) and equal to it
        f = vt_ranks[v]
        akb = mt[3]
        row = 121 * f[2] + 11 * f[3] + f[4]
        corr = -4 * s_nq
        for s in range(4):
            mask = masks[s]
            if (mask >> 12) & 1 and (mask >> 11) & 1:
                corr -= (win + 3) * akb[row, mask & 0x7FF]
                if mask & vt_mask[v] == vt_mask[v]:
                    corr -= 3
    else:
        corr = 0
        for s in range(4):
            corr += flush_correction(
                masks[s], vt_cat[v], vt_ranks[v], vt_mask[v], win, mt_ak, mt_nq, mt_str
            )
    value = cur[TOT] + corr * scale
    parts[0] = 0
    parts[1] = 0
    parts[2] = cur[GAIN]
    parts[3] = cur[NBUY]
    if vt_cat[v] >= TRIPS:
        edge = 2 * (nq_rank - s_nq) - hands
        if edge > 0:
            parts[0] = 2 * m * edge * scale
            parts[1] = 2 * m
            value += parts[0]
    if not cur[STRONG]:
        return value, value
    if exact:
        buy = 0
        bought = 0
        for s in range(4):
            if use_cache:
                y = ys[s]
                if not cached[s, y]:
                    cache[s, y, 0], cache[s, y, 1] = buy_suit_exact(
                        a, masks[s], v, m, rules, scale, ds, idx, outs, cards, n_list, vt_cat[v]
                    )
                    cached[s, y] = True
                buy += cache[s, y, 0]
                bought += cache[s, y, 1]
            else:
                t, b = buy_suit_exact(
                    a, masks[s], v, m, rules, scale, ds, idx, outs, cards, n_list, vt_cat[v]
                )
                buy += t
                bought += b
        parts[2] += buy
        parts[3] += bought
        return value + buy, value + buy
    kept = kept_suited_bound(a, masks, kt)
    return value - cur[GMAX] * (s_nq + kept), value + cur[LMAX] * kept


@nb.njit(cache=True, nogil=True)
def _flush_row(
    a: Any,
    totals: Any,
    row: Any,
    rules: Any,
    scale: Any,
    vt: Any,
    ds: Any,
    flrow: Any,
    idx: Any,
    outs: Any,
    cards: Any,
    exact: Any,
) -> Any:  # pragma: no cover - compiled
    """The flush final hand of a draw pattern: its rank-level row and, when its buying is
    summed exactly, its profitable list (length returned)."""
    category_totals(a, totals)
    if exact:
        return flush_entry(
            a, totals, row[FL + V], row[FL + M], rules, scale, vt, ds, flrow, idx, outs, cards
        )
    rank_entry(a, totals, row[FL + V], row[FL + M], rules, scale, vt, ds, flrow, 0, True)
    return 0


@nb.njit(cache=True, nogil=True)
def exchange_exact(
    code: Any,
    kept_suit: Any,
    k: Any,
    a0: Any,
    suits0: Any,
    avail: Any,
    xs: Any,
    xoff: Any,
    xnq: Any,
    entries: Any,
    eoff: Any,
    stats: Any,
    hands: Any,
    rules: Any,
    scale: Any,
    vt: Any,
    mt: Any,
    ds: Any,
    kt: Any,
    acc_lo: Any,
    acc_hi: Any,
    policy: Any,
    ext: Any,
) -> Any:  # pragma: no cover - compiled
    """Add to ``acc_lo``/``acc_hi`` (two words each) the exchange's total over every draw
    (equal unless buying's per-suit corrections were bounded); return the draws. ``ext``
    (see :data:`EXT`) receives what the draws that bet add up to: their number, the
    insurance placed, the dealer hands bought, the insurance's net and buying's gain.

    ``policy``: buying's per-suit corrections are exact for a non-flush final hand when at
    most ``policy[0]`` cards are drawn or at most ``policy[1]`` rank sets can profit, and for
    a flush final hand when at most ``policy[2]`` cards are drawn; otherwise bounded."""
    fold = hands * scale
    subs, nsubs = _suit_choices()
    sets = ds[0].shape[0]
    idx = np.zeros((2, sets), dtype=np.int64)
    outs = np.zeros((2, sets), dtype=np.int64)
    cards = np.zeros((2, sets), dtype=np.int64)
    cache = np.zeros((4, 32, 2), dtype=np.int64)
    cached = np.zeros((4, 32), dtype=np.bool_)
    a = np.zeros(13, dtype=np.int64)
    totals = np.zeros(11, dtype=np.int64)
    flrow = np.zeros(FIELDS, dtype=np.int64)
    ranks = np.zeros(5, dtype=np.int64)
    choice = np.zeros(5, dtype=np.int64)
    masks = np.zeros(4, dtype=np.int64)
    ys = np.zeros(4, dtype=np.int64)
    parts = np.zeros(4, dtype=np.int64)
    vt_cat, vt_ranks, vt_mask = vt
    mt_ak, mt_nq, _, akb = mt
    draws = 0
    for ix in range(xoff[k], xoff[k + 1]):
        st = stats[ix]
        if st[COUNT] == 0:
            continue
        row = entries[eoff[code] + ix - xoff[k]]
        nr = 0
        xm = 0
        for r in range(13):
            a[r] = a0[r] - xs[ix, r]
            if xs[ix, r]:
                ranks[nr] = r
                choice[nr] = 0
                nr += 1
                xm |= 1 << r
        nq_rank = xnq[ix]
        win = 2 * row[M] + rules[0]
        fast, alpha, beta = _weak_coefficients(row[V], win, vt)
        fl_ready = False
        n_list1 = 0
        exact1 = False
        draws += st[COUNT]
        # one step: a pair to trips or a plain high card, no buying, no insurance, and
        # every draw deciding alike
        if (
            fast
            and not row[STRONG]
            and (vt_cat[row[V]] < TRIPS or 2 * (nq_rank - st[MIN_NQ]) <= hands)
        ):
            v_lo = row[TOT] + (alpha * st[MAX_AK] + beta * st[MAX_NQ]) * scale
            v_hi = row[TOT] + (alpha * st[MIN_AK] + beta * st[MIN_NQ]) * scale
            if v_lo >= -fold or v_hi < -fold:
                n = st[COUNT]
                s_ak = st[S_AK]
                s_nq = st[S_NQ]
                group = 0
                if row[FL + V]:
                    # the flush draws are not this final hand: value them apart
                    for s in range(4):
                        if not ((kept_suit == -2 or kept_suit == s) and suits0[s] & xm == xm):
                            continue
                        for t in range(4):
                            masks[t] = suits0[t]
                        masks[s] = suits0[s] & ~xm
                        n -= 1
                        s_ak -= (
                            mt_ak[masks[0]] + mt_ak[masks[1]] + mt_ak[masks[2]] + mt_ak[masks[3]]
                        )
                        s_nq -= (
                            mt_nq[masks[0]] + mt_nq[masks[1]] + mt_nq[masks[2]] + mt_nq[masks[3]]
                        )
                        if not fl_ready:
                            exact1 = k <= policy[2]
                            n_list1 = _flush_row(
                                a,
                                totals,
                                row,
                                rules,
                                scale,
                                vt,
                                ds,
                                flrow,
                                idx[1],
                                outs[1],
                                cards[1],
                                exact1,
                            )
                            fl_ready = True
                        lo, hi = draw_value(
                            flrow,
                            True,
                            masks,
                            ys,
                            a,
                            nq_rank,
                            hands,
                            rules,
                            scale,
                            vt,
                            mt,
                            ds,
                            kt,
                            exact1,
                            idx[1],
                            outs[1],
                            cards[1],
                            n_list1,
                            cache,
                            cached,
                            False,
                            False,
                            0,
                            0,
                            parts,
                        )
                        add2(acc_lo, max(lo, -fold) - fold)
                        add2(acc_hi, max(hi, -fold) - fold)
                        if lo >= -fold:
                            _bet_parts(ext, parts)
                if v_lo >= -fold:
                    group = n * (row[TOT] - fold) + (alpha * s_ak + beta * s_nq) * scale
                    ext[BETS] += n
                else:
                    group = -2 * n * fold
                add2(acc_lo, group)
                add2(acc_hi, group)
                continue
        # draw by draw
        n_list0 = 0
        exact0 = False
        if row[STRONG]:
            exact0 = k <= policy[0] or row[NPROF] <= policy[1]
            if exact0:
                n_list0 = profitable_sets(
                    a, row[V], row[M], rules, scale, vt, ds, idx[0], outs[0], cards[0]
                )
        for s in range(4):
            for y in range(32):
                cached[s, y] = False
        # the common states are valued here, the others by draw_value
        category = vt_cat[row[V]]
        plain = not row[STRONG] and (fast or category == 0)
        f = vt_ranks[row[V]]
        ak_row = 121 * f[2] + 11 * f[3] + f[4] if category == 0 else 0
        ak_mask = vt_mask[row[V]]
        tot = row[TOT]
        insurable = category >= TRIPS
        twice_m = 2 * row[M]
        group_lo = 0
        group_hi = 0
        while True:
            one_suit = -2
            for s in range(4):
                masks[s] = suits0[s]
                ys[s] = 0
            for j in range(nr):
                r = ranks[j]
                sm = subs[avail[r], xs[ix, r], choice[j]]
                for s in range(4):
                    if (sm >> s) & 1:
                        masks[s] &= ~(1 << r)
                        ys[s] |= 1 << j
                        one_suit = s if (one_suit == -2 or one_suit == s) else -1
            flush = (
                row[FL + V] != 0 and one_suit >= 0 and (kept_suit == -2 or kept_suit == one_suit)
            )
            if flush:
                if not fl_ready:
                    exact1 = k <= policy[2]
                    n_list1 = _flush_row(
                        a,
                        totals,
                        row,
                        rules,
                        scale,
                        vt,
                        ds,
                        flrow,
                        idx[1],
                        outs[1],
                        cards[1],
                        exact1,
                    )
                    fl_ready = True
                lo, hi = draw_value(
                    flrow,
                    True,
                    masks,
                    ys,
                    a,
                    nq_rank,
                    hands,
                    rules,
                    scale,
                    vt,
                    mt,
                    ds,
                    kt,
                    exact1,
                    idx[1],
                    outs[1],
                    cards[1],
                    n_list1,
                    cache,
                    cached,
                    False,
                    False,
                    0,
                    0,
                    parts,
                )
            elif plain:
                s_nq = mt_nq[masks[0]] + mt_nq[masks[1]] + mt_nq[masks[2]] + mt_nq[masks[3]]
                if fast:
                    s_ak = mt_ak[masks[0]] + mt_ak[masks[1]] + mt_ak[masks[2]] + mt_ak[masks[3]]
                    corr = alpha * s_ak + beta * s_nq
                else:  # Ace-King high (see draw_value)
                    corr = -4 * s_nq
                    for s in range(4):
                        mask = masks[s]
                        if (mask >> 12) & 1 and (mask >> 11) & 1:
                            corr -= (win + 3) * akb[ak_row, mask & 0x7FF]
                            if mask & ak_mask == ak_mask:
                                corr -= 3
                lo = tot + corr * scale
                parts[0] = parts[1] = parts[2] = parts[3] = 0
                if insurable:
                    edge = 2 * (nq_rank - s_nq) - hands
                    if edge > 0:
                        parts[0] = twice_m * edge * scale
                        parts[1] = twice_m
                        lo += parts[0]
                hi = lo
            else:
                lo, hi = draw_value(
                    row,
                    False,
                    masks,
                    ys,
                    a,
                    nq_rank,
                    hands,
                    rules,
                    scale,
                    vt,
                    mt,
                    ds,
                    kt,
                    exact0,
                    idx[0],
                    outs[0],
                    cards[0],
                    n_list0,
                    cache,
                    cached,
                    True,
                    fast,
                    alpha,
                    beta,
                    parts,
                )
            group_lo += max(lo, -fold) - fold
            group_hi += max(hi, -fold) - fold
            if lo >= -fold:
                _bet_parts(ext, parts)
            j = nr - 1
            while j >= 0:
                choice[j] += 1
                if choice[j] < nsubs[avail[ranks[j]], xs[ix, ranks[j]]]:
                    break
                choice[j] = 0
                j -= 1
            if j < 0:
                break
        add2(acc_lo, group_lo)
        add2(acc_hi, group_hi)
    return draws
