"""numba kernels of the exact analysis (notes/performance.md "Ultimate Texas Hold'em, exact").

Board-major: for one canonical five-card board the two-card hands of the remaining cards are
evaluated once and radix-sorted by value; one sweep in that order gives, for every player
hand {x, y}, how many dealer hands it beats, ties and loses to, with card removal by
inclusion-exclusion (hands below minus those holding x or y). The dealer's qualification splits
the counts at one threshold, since every non-qualifying hand ranks below every qualifying one.

Money is in *units*: the Ante is ``scale`` units (the least common multiple of the Blind's
denominators, 2 for 3:2), so everything stays integral. The kernels allocate nothing per board;
the work is interleaved over ``threads`` chunks, each with its own scratch and accumulators.
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np

__all__: list[str] = []

_LOW_MASK = (1 << 17) - 1
_HIGH_MASK = (1 << 14) - 1

# result slots of the per-hand counts
W_Q, W_NQ, L_Q, L_NQ, T_Q, T_NQ = range(6)
# paths of the stats array: FOLD, then each Play multiple m at index m
FOLD = 0

SCRATCH_ROWS = 16
"""Rows of the scratch that :func:`board_counts` uses; :func:`decide_pass` takes one more
per flop multiple (its EVs)."""


@nb.njit(cache=True, nogil=True)
def board_counts(
    board: Any,
    deck: Any,
    keys: Any,
    low7: Any,
    high: Any,
    nonflush7: Any,
    flush: Any,
    pair_index: Any,
    qualify_min: int,
    s: Any,
    cnt: Any,
) -> int:  # pragma: no cover - compiled
    """Evaluate every player hand on ``board`` and count the dealer hands it beats, ties, loses to.

    ``s`` is an int64 scratch of shape (SCRATCH_ROWS, pairs); on return, for each pair k of the
    remaining cards: s[0] value, s[1] card x, s[2] card y, s[3] pair index, s[4..9] the counts
    W_Q, W_NQ, L_Q, L_NQ, T_Q, T_NQ (rows 10 and 15 are left to the caller, 11-14 are work
    space). ``cnt`` is an int64
    scratch of shape (4, 52). Returns the number of pairs.
    """
    val = s[0]
    cx = s[1]
    cy = s[2]
    pid = s[3]
    order = s[11]
    tmp = s[12]
    less = s[13]
    eq = s[14]
    n = deck.shape[0]
    base = np.int64(0x3333) << 32
    m0 = 0
    m1 = 0
    m2 = 0
    m3 = 0
    used = np.int64(0)
    for j in range(5):
        c = board[j]
        base += keys[c]
        used |= np.int64(1) << c
        bit = 1 << (c >> 2)
        su = c & 3
        if su == 0:
            m0 |= bit
        elif su == 1:
            m1 |= bit
        elif su == 2:
            m2 |= bit
        else:
            m3 |= bit
    np_ = 0
    for i in range(n):
        x = deck[i]
        if (used >> x) & 1:
            continue
        kx = base + keys[x]
        for j in range(i + 1, n):
            y = deck[j]
            if (used >> y) & 1:
                continue
            key = kx + keys[y]
            suits = (key >> 32) & 0x8888
            if suits:
                if suits & 0x8:
                    su = 0
                    mask = m0
                elif suits & 0x80:
                    su = 1
                    mask = m1
                elif suits & 0x800:
                    su = 2
                    mask = m2
                else:
                    su = 3
                    mask = m3
                if x & 3 == su:
                    mask |= 1 << (x >> 2)
                if y & 3 == su:
                    mask |= 1 << (y >> 2)
                v = flush[mask]
            else:
                v = nonflush7[low7[key & _LOW_MASK] + high[(key >> 17) & _HIGH_MASK]]
            val[np_] = v
            cx[np_] = x
            cy[np_] = y
            pid[np_] = pair_index[x, y]
            np_ += 1
    # radix sort of the indices by value (values < 8192: 7 + 6 bits), stable
    hist = cnt[3]
    for r in range(128):
        hist[r] = 0
    for k in range(np_):
        hist[val[k] & 127] += 1
    total = 0
    for r in range(128):
        h = hist[r]
        hist[r] = total
        total += h
    for k in range(np_):
        r = val[k] & 127
        tmp[hist[r]] = k
        hist[r] += 1
    for r in range(64):
        hist[r] = 0
    for k in range(np_):
        hist[val[k] >> 7] += 1
    total = 0
    for r in range(64):
        h = hist[r]
        hist[r] = total
        total += h
    for g in range(np_):
        k = tmp[g]
        r = val[k] >> 7
        order[hist[r]] = k
        hist[r] += 1
    # per card: hands seen so far (cnt[0]), in the current group (cnt[1]), non-qualifying (cnt[2])
    run = cnt[0]
    grp = cnt[1]
    nqc = cnt[2]
    for c in range(52):
        run[c] = 0
        grp[c] = 0
        nqc[c] = 0
    nq_total = 0
    for k in range(np_):
        if val[k] < qualify_min:
            nqc[cx[k]] += 1
            nqc[cy[k]] += 1
            nq_total += 1
    before = 0
    i = 0
    while i < np_:
        v = val[order[i]]
        j = i
        while j < np_ and val[order[j]] == v:
            k = order[j]
            grp[cx[k]] += 1
            grp[cy[k]] += 1
            j += 1
        size = j - i
        for g in range(i, j):
            k = order[g]
            x = cx[k]
            y = cy[k]
            less[k] = before - run[x] - run[y]
            eq[k] = size - grp[x] - grp[y] + 1
        for g in range(i, j):
            k = order[g]
            x = cx[k]
            y = cy[k]
            run[x] += 1
            run[y] += 1
            grp[x] = 0
            grp[y] = 0
        before += size
        i = j
    rem = n - 5
    dealer = (rem - 2) * (rem - 3) // 2
    per_card = rem - 1  # pairs of the remaining cards holding a given card
    q_total = np_ - nq_total
    for k in range(np_):
        x = cx[k]
        y = cy[k]
        lo = less[k]
        e = eq[k]
        hi = dealer - lo - e
        if val[k] >= qualify_min:
            wnq = nq_total - nqc[x] - nqc[y]
            s[4, k] = lo - wnq
            s[5, k] = wnq
            s[6, k] = hi
            s[7, k] = 0
            s[8, k] = e
            s[9, k] = 0
        else:
            lq = q_total - (per_card - nqc[x]) - (per_card - nqc[y])
            s[4, k] = 0
            s[5, k] = lo
            s[6, k] = lq
            s[7, k] = hi - lq
            s[8, k] = 0
            s[9, k] = e
    return np_


@nb.njit(cache=True, parallel=True)
def decide_pass(
    start: int,
    stop: int,
    boards: Any,
    weights: Any,
    deck: Any,
    keys: Any,
    low7: Any,
    high: Any,
    nonflush7: Any,
    flush: Any,
    pair_index: Any,
    pair_perm: Any,
    pair_class: Any,
    flop_class: Any,
    flop_perm: Any,
    category: Any,
    blind_units: Any,
    scale: int,
    qualify_min: int,
    pre_m: Any,
    flop_m: Any,
    river_lo: int,
    river_hi: int,
    scratch: Any,
    cnt: Any,
    acc: Any,
    pre: Any,
) -> None:  # pragma: no cover - compiled
    """Pass 1: accumulate what the pre-flop and flop decisions need, for boards[start:stop].

    For each flop multiple ``flop_m[j]``, ``acc[t, f, q, j]`` sums weight * EV(that Play),
    and ``acc[t, f, q, len(flop_m)]`` weight * EV(best river action: the best river multiple
    in ``river_lo..river_hi`` or fold) over the boards whose split (flop F0, turn+river) has
    canonical flop f, with the player's pair q mapped by a permutation taking F0 to f
    (symmetrised later over the stabiliser of f). ``pre[t, class, i]`` sums weight *
    EV(``pre_m[i]`` x) per board. EV(m) of a (hand, board) is the sum over dealer hands, in
    units. The EV is linear in the multiple, so the best river multiple is the largest or
    the smallest.
    """
    threads = scratch.shape[0]
    n = deck.shape[0]
    rem = n - 5
    fold = -2 * scale * ((rem - 2) * (rem - 3) // 2)
    npre = pre_m.shape[0]
    nflop = flop_m.shape[0]
    for t in nb.prange(threads):
        s = scratch[t]
        ct = cnt[t]
        riv = s[15]
        for b in range(start + t, stop, threads):
            board = boards[b]
            w = weights[b]
            np_ = board_counts(
                board, deck, keys, low7, high, nonflush7, flush, pair_index, qualify_min, s, ct
            )
            for k in range(np_):
                bu = blind_units[category[s[0, k]]]
                wq = s[4, k]
                wnq = s[5, k]
                lq = s[6, k]
                lnq = s[7, k]
                dw = scale * (wq + wnq - lq - lnq)
                basev = wq * (scale + bu) + wnq * bu - 2 * scale * lq - scale * lnq
                cls = pair_class[s[3, k]]
                for i in range(npre):
                    pre[t, cls, i] += w * (pre_m[i] * dw + basev)
                for j in range(nflop):
                    s[SCRATCH_ROWS + j, k] = w * (flop_m[j] * dw + basev)
                r = (river_hi if dw > 0 else river_lo) * dw + basev
                riv[k] = w * (r if r > fold else fold)
            for a in range(3):
                for bb in range(a + 1, 4):
                    for c in range(bb + 1, 5):
                        slot = board[a] * 2704 + board[bb] * 52 + board[c]
                        f = flop_class[slot]
                        pp = pair_perm[flop_perm[slot]]
                        row = acc[t, f]
                        for k in range(np_):
                            q = pp[s[3, k]]
                            for j in range(nflop):
                                row[q, j] += s[SCRATCH_ROWS + j, k]
                            row[q, nflop] += riv[k]


@nb.njit(cache=True, parallel=True)
def stats_pass(
    start: int,
    stop: int,
    boards: Any,
    weights: Any,
    deck: Any,
    keys: Any,
    low7: Any,
    high: Any,
    nonflush7: Any,
    flush: Any,
    pair_index: Any,
    pair_perm: Any,
    pair_class: Any,
    flop_class: Any,
    flop_perm: Any,
    category: Any,
    blind_units: Any,
    scale: int,
    qualify_min: int,
    river_lo: int,
    river_hi: int,
    preflop: Any,
    flop_bet: Any,
    scratch: Any,
    cnt: Any,
    stats: Any,
) -> None:  # pragma: no cover - compiled
    """Pass 2: count every (hand, flop, turn+river, dealer hand) by path, category and result.

    ``preflop[class]`` is the pre-flop Play multiple taken, or 0 (check); ``flop_bet[f, q]``
    the flop multiple taken, or 0. ``stats[t, path, category, result]`` are weighted counts of
    the deals; the path is the Play multiple of the deal (0: folded on the river).
    """
    threads = scratch.shape[0]
    n = deck.shape[0]
    rem = n - 5
    fold = -2 * scale * ((rem - 2) * (rem - 3) // 2)
    for t in nb.prange(threads):
        s = scratch[t]
        ct = cnt[t]
        river_path = s[10]
        pre_path = s[15]
        for b in range(start + t, stop, threads):
            board = boards[b]
            w = weights[b]
            np_ = board_counts(
                board, deck, keys, low7, high, nonflush7, flush, pair_index, qualify_min, s, ct
            )
            for k in range(np_):
                cat = category[s[0, k]]
                bu = blind_units[cat]
                wq = s[4, k]
                wnq = s[5, k]
                lq = s[6, k]
                lnq = s[7, k]
                dw = scale * (wq + wnq - lq - lnq)
                basev = wq * (scale + bu) + wnq * bu - 2 * scale * lq - scale * lnq
                best = river_hi if dw > 0 else river_lo
                river_path[k] = best if best * dw + basev >= fold else FOLD
                d = preflop[pair_class[s[3, k]]]
                pre_path[k] = d
                if d != 0:
                    for r in range(6):
                        stats[t, d, cat, r] += 10 * w * s[4 + r, k]
            for a in range(3):
                for bb in range(a + 1, 4):
                    for c in range(bb + 1, 5):
                        slot = board[a] * 2704 + board[bb] * 52 + board[c]
                        f = flop_class[slot]
                        pp = pair_perm[flop_perm[slot]]
                        bet = flop_bet[f]
                        for k in range(np_):
                            if pre_path[k] != 0:
                                continue
                            m = np.int64(bet[pp[s[3, k]]])
                            path = m if m != 0 else river_path[k]
                            cat = category[s[0, k]]
                            for r in range(6):
                                stats[t, path, cat, r] += w * s[4 + r, k]
