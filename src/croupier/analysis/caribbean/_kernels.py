"""numba kernels of the exact analysis of Caribbean Stud Poker.

Up-card-major, with card removal by inclusion-exclusion (notes/performance.md): for one dealer
up card ``u`` every dealer hand holding it (four more cards from the others) is evaluated once.
Its value is counted in a histogram for the hand as a whole, for each of its four other cards,
for each pair of them, and listed for each three of them; prefix sums turn the histograms into
"how many such hands rank below x". For a player hand P, the dealer hands that share no card
with P and rank below x are then

    sum over the subsets S of P with at most four cards of (-1)^|S| * #{hands holding u and S
    that rank below x}

(31 terms; a subset of four names one hand, evaluated directly). Every non-qualifying dealer
hand ranks below every qualifying one, so three such counts (below the lowest qualifying hand,
below P, below or equal to P) give the hands that do not qualify, that P beats, ties and loses
to. The Raise's EV is integer arithmetic in *units* (the Ante is ``scale`` units: the least
common multiple of the pay table's denominators).

Card sets are indexed in colexicographic order over deck *positions* (0..n-1 of the sorted
deck), so a reduced deck (tests) runs through the same code: the colex rank of positions
a < b < c < d < e is C(a,1) + C(b,2) + C(c,3) + C(d,4) + C(e,5).
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np

__all__: list[str] = []

# slots of the per-chunk statistics (int64)
S_HANDS, S_RAISED, S_FOLDED, S_NQ, S_TIE, S_LOSE = range(6)
S_WIN = 6
"""Wins by the player's category: S_WIN + category (ten slots)."""
S_SIZE = S_WIN + 10

# the strategy the counting pass plays
OPTIMAL, PAIR_OR_BETTER, ACE_KING_OR_BETTER, ALWAYS = range(4)


@nb.njit(cache=True)
def binomials(n: int) -> Any:  # pragma: no cover - compiled
    """C(i, k) for i <= n, k <= 5, as an int64 table."""
    table = np.zeros((n + 1, 6), dtype=np.int64)
    for i in range(n + 1):
        table[i, 0] = 1
        for k in range(1, min(i, 5) + 1):
            table[i, k] = table[i - 1, k - 1] + (table[i - 1, k] if k <= i - 1 else 0)
    return table


@nb.njit(cache=True)
def colex_rows(n: int, out: Any) -> None:  # pragma: no cover - compiled
    """Every 5-subset of 0..n-1 as a row of ``out``, in colex order."""
    row = 0
    for e in range(4, n):
        for d in range(3, e):
            for c in range(2, d):
                for b in range(1, c):
                    for a in range(b):
                        out[row, 0] = a
                        out[row, 1] = b
                        out[row, 2] = c
                        out[row, 3] = d
                        out[row, 4] = e
                        row += 1


@nb.njit(cache=True, inline="always")
def _with(s0: int, s1: int, s2: int, s3: int, u: int, binom: Any) -> int:  # pragma: no cover
    """The colex rank of the sorted positions s0 < s1 < s2 < s3 with ``u`` put among them."""
    rank = binom[u, 1 + (s0 < u) + (s1 < u) + (s2 < u) + (s3 < u)]
    rank += binom[s0, 1 + (s0 > u)]
    rank += binom[s1, 2 + (s1 > u)]
    rank += binom[s2, 3 + (s2 > u)]
    rank += binom[s3, 4 + (s3 > u)]
    return int(rank)


@nb.njit(cache=True)
def build_tables(
    u: int, n: int, val5: Any, binom: Any, cum0: Any, cum1: Any, cum2: Any, rows3: Any
) -> None:  # pragma: no cover - compiled
    """The counts of the dealer hands holding position ``u`` (see the module docstring).

    On return ``cum0[x]``, ``cum1[c, x]``, ``cum2[pair, x]`` hold how many hands holding u
    (and c, and the pair) rank below x; ``rows3[triple]`` the sorted values of the n - 4 hands
    holding u and the triple. The arrays are overwritten.
    """
    cum0[:] = 0
    cum1[:] = 0
    cum2[:] = 0
    fill = np.zeros(rows3.shape[0], dtype=np.int64)
    other = np.empty(n - 1, dtype=np.int64)
    k = 0
    for p in range(n):
        if p != u:
            other[k] = p
            k += 1
    m = n - 1
    for i3 in range(3, m):
        z = other[i3]
        for i2 in range(2, i3):
            y = other[i2]
            for i1 in range(1, i2):
                x = other[i1]
                for i0 in range(i1):
                    w = other[i0]
                    v = val5[_with(w, x, y, z, u, binom)]
                    cum0[v + 1] += 1
                    cum1[w, v + 1] += 1
                    cum1[x, v + 1] += 1
                    cum1[y, v + 1] += 1
                    cum1[z, v + 1] += 1
                    cum2[w + binom[x, 2], v + 1] += 1
                    cum2[w + binom[y, 2], v + 1] += 1
                    cum2[w + binom[z, 2], v + 1] += 1
                    cum2[x + binom[y, 2], v + 1] += 1
                    cum2[x + binom[z, 2], v + 1] += 1
                    cum2[y + binom[z, 2], v + 1] += 1
                    for t in (
                        w + binom[x, 2] + binom[y, 3],
                        w + binom[x, 2] + binom[z, 3],
                        w + binom[y, 2] + binom[z, 3],
                        x + binom[y, 2] + binom[z, 3],
                    ):
                        rows3[t, fill[t]] = v
                        fill[t] += 1
    # histograms shifted by one -> prefix sums: cum[x] = #values < x
    for x in range(1, cum0.shape[0]):
        cum0[x] += cum0[x - 1]
    for c in range(cum1.shape[0]):
        for x in range(1, cum1.shape[1]):
            cum1[c, x] += cum1[c, x - 1]
    for q in range(cum2.shape[0]):
        for x in range(1, cum2.shape[1]):
            cum2[q, x] += cum2[q, x - 1]
    for t in range(rows3.shape[0]):
        if fill[t]:
            rows3[t, : fill[t]].sort()


@nb.njit(cache=True, inline="always")
def _below(row: Any, x: int) -> int:  # pragma: no cover - compiled
    """How many entries of the sorted ``row`` are below ``x``."""
    lo, hi = 0, row.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        if row[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


@nb.njit(cache=True)
def disjoint_below(
    p: Any,
    u: int,
    xs: Any,
    out: Any,
    val5: Any,
    binom: Any,
    cum0: Any,
    cum1: Any,
    cum2: Any,
    rows3: Any,
) -> None:  # pragma: no cover - compiled
    """For each threshold ``xs[j]``: how many dealer hands holding ``u`` and no card of the
    sorted player positions ``p`` rank below it (inclusion-exclusion), into ``out[j]``."""
    for j in range(xs.shape[0]):
        x = xs[j]
        total = cum0[x]
        for a in range(5):
            total -= cum1[p[a], x]
        for a in range(5):
            for b in range(a + 1, 5):
                total += cum2[p[a] + binom[p[b], 2], x]
        for a in range(5):
            for b in range(a + 1, 5):
                for c in range(b + 1, 5):
                    total -= _below(rows3[p[a] + binom[p[b], 2] + binom[p[c], 3]], x)
        # the five hands holding u and four cards of P
        p0, p1, p2, p3, p4 = p[0], p[1], p[2], p[3], p[4]
        total += val5[_with(p1, p2, p3, p4, u, binom)] < x
        total += val5[_with(p0, p2, p3, p4, u, binom)] < x
        total += val5[_with(p0, p1, p3, p4, u, binom)] < x
        total += val5[_with(p0, p1, p2, p4, u, binom)] < x
        total += val5[_with(p0, p1, p2, p3, u, binom)] < x
        out[j] = total


@nb.njit(cache=True, parallel=True)
def player_pass(
    u: int,
    n: int,
    val5: Any,
    binom: Any,
    cum0: Any,
    cum1: Any,
    cum2: Any,
    rows3: Any,
    category: Any,
    qualify_min: int,
    pay_units: Any,
    scale: int,
    multiple: int,
    strategy: int,
    decision: Any,
    margin: Any,
    counts: Any,
    stats: Any,
) -> None:  # pragma: no cover - compiled
    """Every player hand from the n - 1 positions other than ``u``, in colex order over them.

    ``decision[i]`` is 1 where the hand of colex rank i raises; ``margin[i]`` (if not empty)
    the Raise's EV minus the fold's in units summed over the dealer hands; ``counts[i]`` (if
    not empty) the dealer hands that do not qualify, that it beats, ties and loses to. The work
    is cut into ``stats.shape[0]`` equal chunks of the colex range; ``stats[chunk]`` sums
    (slots ``S_*``) over the chunk's hands.
    """
    m = n - 1
    hands = binom[m, 5]
    chunks = stats.shape[0]
    dealer = binom[n - 6, 4]
    for chunk in nb.prange(chunks):
        start = hands * chunk // chunks
        stop = hands * (chunk + 1) // chunks
        if start >= stop:
            continue
        # unrank ``start``: the largest e with C(e, 5) <= rest, and so on down
        c = np.empty(5, dtype=np.int64)
        rest = start
        for k in range(5, 0, -1):
            e = k - 1
            while binom[e + 1, k] <= rest:
                e += 1
            c[k - 1] = e
            rest -= binom[e, k]
        p = np.empty(5, dtype=np.int64)
        xs = np.empty(3, dtype=np.int64)
        below = np.empty(3, dtype=np.int64)
        st = stats[chunk]
        for i in range(start, stop):
            for k in range(5):
                p[k] = c[k] if c[k] < u else c[k] + 1
            pv = val5[
                binom[p[0], 1] + binom[p[1], 2] + binom[p[2], 3] + binom[p[3], 4] + binom[p[4], 5]
            ]
            cat = category[pv]
            xs[0] = qualify_min
            xs[1] = pv
            xs[2] = pv + 1
            disjoint_below(p, u, xs, below, val5, binom, cum0, cum1, cum2, rows3)
            nq = below[0]
            if pv < qualify_min:
                win = 0
                tie = 0
                lose = dealer - nq
            else:
                win = below[1] - nq
                tie = below[2] - below[1]
                lose = dealer - below[2]
            raise_ev = nq * scale + win * (scale + multiple * pay_units[cat])
            raise_ev -= lose * (1 + multiple) * scale
            fold_ev = -dealer * scale
            if strategy == OPTIMAL:
                raised = raise_ev > fold_ev  # an exact tie folds: less money at risk
            elif strategy == PAIR_OR_BETTER:
                raised = cat >= 1
            elif strategy == ACE_KING_OR_BETTER:
                raised = pv >= qualify_min
            else:
                raised = True
            decision[i] = 1 if raised else 0
            if margin.shape[0]:
                margin[i] = raise_ev - fold_ev
            if counts.shape[0]:
                counts[i, 0] = nq
                counts[i, 1] = win
                counts[i, 2] = tie
                counts[i, 3] = lose
            st[S_HANDS] += 1
            if raised:
                st[S_RAISED] += 1
                st[S_NQ] += nq
                st[S_TIE] += tie
                st[S_LOSE] += lose
                st[S_WIN + cat] += win
            else:
                st[S_FOLDED] += 1
            # colex successor
            k = 0
            while k < 4 and c[k] + 1 == c[k + 1]:
                k += 1
            c[k] += 1
            for j in range(k):
                c[j] = j


@nb.njit(cache=True)
def direct_counts(
    hand: Any,
    up: int,
    deck: Any,
    keys: Any,
    low5: Any,
    high: Any,
    nonflush5: Any,
    flush: Any,
    qualify_min: int,
    pv: int,
    out: Any,
) -> None:  # pragma: no cover - compiled
    """The advisor's count for one situation, by enumeration: every four cards from the deck
    outside ``hand`` and ``up`` with the up card, evaluated; into ``out``: the dealer hands
    that do not qualify, that the player (value ``pv``) beats, ties and loses to."""
    used = np.zeros(64, dtype=np.bool_)
    for k in range(5):
        used[hand[k]] = True
    used[up] = True
    rest = np.empty(deck.shape[0], dtype=np.int64)
    m = 0
    for k in range(deck.shape[0]):
        if not used[deck[k]]:
            rest[m] = deck[k]
            m += 1
    out[:] = 0
    base = (np.int64(0x3333) << 32) + keys[up]
    row = np.empty(5, dtype=np.int64)
    row[4] = up
    for a in range(m):
        ka = base + keys[rest[a]]
        for b in range(a + 1, m):
            kb = ka + keys[rest[b]]
            for c in range(b + 1, m):
                kc = kb + keys[rest[c]]
                for d in range(c + 1, m):
                    key = kc + keys[rest[d]]
                    suits = (key >> 32) & 0x8888
                    if suits:
                        row[0], row[1], row[2], row[3] = rest[a], rest[b], rest[c], rest[d]
                        s = 0
                        while not (suits >> (4 * s + 3)) & 1:
                            s += 1
                        mask = 0
                        for j in range(5):
                            if row[j] & 3 == s:
                                mask |= 1 << (row[j] >> 2)
                        v = flush[mask]
                    else:
                        v = nonflush5[
                            low5[key & ((1 << 17) - 1)] + high[(key >> 17) & ((1 << 14) - 1)]
                        ]
                    if v < qualify_min:
                        out[0] += 1
                    elif v < pv:
                        out[1] += 1
                    elif v == pv:
                        out[2] += 1
                    else:
                        out[3] += 1


@nb.njit(cache=True)
def play_rounds(
    uniforms: Any,
    val5: Any,
    binom: Any,
    decisions: Any,
    category: Any,
    qualify_min: int,
    pay_units: Any,
    scale: int,
    multiple: int,
    sums: Any,
    cards_out: Any,
    net_out: Any,
) -> None:  # pragma: no cover - compiled
    """Deal and settle one round per row of ``uniforms`` (ten uniforms: a partial
    Fisher-Yates shuffle), the player raising where ``decisions`` says (the shipped table,
    :func:`croupier.analysis.caribbean.strategy.hand_index`). Adds to ``sums``: rounds, net,
    net^2, raises (money in units). ``cards_out`` and ``net_out``, when not empty, receive
    each round's ten cards (the player's five, then the dealer's, the up card last) and net."""
    deck = np.empty(52, dtype=np.int64)
    hand = np.empty(5, dtype=np.int64)
    for r in range(uniforms.shape[0]):
        for i in range(52):
            deck[i] = i
        for i in range(10):
            j = i + int(uniforms[r, i] * (52 - i))
            deck[i], deck[j] = deck[j], deck[i]
        up = deck[9]
        club = up & ~3
        suit = up & 3
        for k in range(5):
            c = deck[k]
            s = c & 3
            s = 0 if s == suit else (suit if s == 0 else s)
            c = (c & ~3) | s
            hand[k] = c - 1 if c > club else c
        hand.sort()
        index = binom[hand[0], 1] + binom[hand[1], 2] + binom[hand[2], 3]
        index += binom[hand[3], 4] + binom[hand[4], 5]
        raised = decisions[up >> 2, index]
        for k in range(5):
            hand[k] = deck[k]
        hand.sort()
        pv = val5[
            binom[hand[0], 1]
            + binom[hand[1], 2]
            + binom[hand[2], 3]
            + binom[hand[3], 4]
            + binom[hand[4], 5]
        ]
        for k in range(5):
            hand[k] = deck[5 + k]
        hand.sort()
        dv = val5[
            binom[hand[0], 1]
            + binom[hand[1], 2]
            + binom[hand[2], 3]
            + binom[hand[3], 4]
            + binom[hand[4], 5]
        ]
        if not raised:
            net = -scale
        elif dv < qualify_min:
            net = scale
        elif pv > dv:
            net = scale + multiple * pay_units[category[pv]]
        elif pv < dv:
            net = -(1 + multiple) * scale
        else:
            net = 0
        sums[0] += 1
        sums[1] += net
        sums[2] += net * net
        sums[3] += raised
        if net_out.shape[0]:
            net_out[r] = net
            for k in range(10):
                cards_out[r, k] = deck[k]
