"""numba kernels for single decisions (advisor) and for whole rounds (simulator).

Values come from the evaluator's lookup tables (croupier.evaluator.lookup_tables): a hand's key
is the sum of its cards' keys; the suit counters' top bits flag a flush.
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np

__all__: list[str] = []

_LOW_MASK = (1 << 17) - 1
_HIGH_MASK = (1 << 14) - 1
_INIT = np.int64(0x3333) << 32

# strategies of the simulator
OPTIMAL = 0
SIMPLE = 1


@nb.njit(cache=True, nogil=True)
def value_of(cards: Any, ncards: int, low: Any, nonflush: Any, tb: Any) -> int:  # pragma: no cover
    """The value of ``cards[:ncards]`` (5, 6 or 7; ``low``/``nonflush`` for that count)."""
    keys, high, flush = tb[0], tb[1], tb[2]
    key = _INIT
    for j in range(ncards):
        key += keys[cards[j]]
    suits = (key >> 32) & 0x8888
    if suits:
        su = 0
        while not (suits >> (4 * su + 3)) & 1:
            su += 1
        mask = 0
        for j in range(ncards):
            if cards[j] & 3 == su:
                mask |= 1 << (cards[j] >> 2)
        return int(flush[mask])
    return int(nonflush[low[key & _LOW_MASK] + high[(key >> 17) & _HIGH_MASK]])


@nb.njit(cache=True, nogil=True)
def river_counts(
    hole: Any, board: Any, low7: Any, nf7: Any, tb: Any, qualify_min: int, out: Any, work: Any
) -> int:  # pragma: no cover - compiled
    """Count the dealer hands against hole + board: out = W_Q, W_NQ, L_Q, L_NQ, T_Q, T_NQ.

    Running key sums from the board's key (notes/performance.md); ``work`` is an int64
    scratch of at least 7. Returns the player's value.
    """
    keys, high, flush = tb[0], tb[1], tb[2]
    base = _INIT
    used = np.int64(0)
    for su in range(4):
        work[su] = 0
    for j in range(5):
        c = board[j]
        base += keys[c]
        used |= np.int64(1) << c
        work[c & 3] |= 1 << (c >> 2)
    used |= (np.int64(1) << hole[0]) | (np.int64(1) << hole[1])
    m0, m1, m2, m3 = work[0], work[1], work[2], work[3]
    for r in range(6):
        out[r] = 0
    work[4] = board[0]
    work[5] = hole[0]
    work[6] = hole[1]
    for j in range(4):
        work[j] = board[j + 1]
    pv = value_of(work, 7, low7, nf7, tb)
    for x in range(52):
        if (used >> x) & 1:
            continue
        kx = base + keys[x]
        for y in range(x + 1, 52):
            if (used >> y) & 1:
                continue
            key = kx + keys[y]
            suits = (key >> 32) & 0x8888
            if suits:
                if suits & 0x8:
                    su, mask = 0, m0
                elif suits & 0x80:
                    su, mask = 1, m1
                elif suits & 0x800:
                    su, mask = 2, m2
                else:
                    su, mask = 3, m3
                if x & 3 == su:
                    mask |= 1 << (x >> 2)
                if y & 3 == su:
                    mask |= 1 << (y >> 2)
                v = flush[mask]
            else:
                v = nf7[low7[key & _LOW_MASK] + high[(key >> 17) & _HIGH_MASK]]
            if pv > v:
                out[0 if v >= qualify_min else 1] += 1
            elif pv < v:
                out[2 if v >= qualify_min else 3] += 1
            else:
                out[4 if v >= qualify_min else 5] += 1
    return int(pv)


@nb.njit(cache=True, nogil=True)
def river_ev1(counts: Any, category: int, blind_units: Any, scale: int) -> int:  # pragma: no cover
    """Sum over dealer hands of the Play 1x result, in units."""
    bu = blind_units[category]
    return int(
        counts[0] * (2 * scale + bu)
        + counts[1] * (scale + bu)
        - counts[2] * 3 * scale
        - counts[3] * 2 * scale
    )


@nb.njit(cache=True, nogil=True)
def flop_sums(
    hole: Any,
    flop: Any,
    low7: Any,
    nf7: Any,
    tb: Any,
    category: Any,
    blind_units: Any,
    scale: int,
    qualify_min: int,
    out: Any,
) -> None:  # pragma: no cover - compiled
    """out[0] = sum of EV(2x), out[1] = sum of EV(best river action), over turn+river and dealer."""
    board = np.empty(5, dtype=np.int64)
    counts = np.empty(6, dtype=np.int64)
    work = np.empty(7, dtype=np.int64)
    board[0] = flop[0]
    board[1] = flop[1]
    board[2] = flop[2]
    used = (np.int64(1) << hole[0]) | (np.int64(1) << hole[1])
    for j in range(3):
        used |= np.int64(1) << flop[j]
    out[0] = 0
    out[1] = 0
    for t in range(52):
        if (used >> t) & 1:
            continue
        board[3] = t
        for r in range(t + 1, 52):
            if (used >> r) & 1:
                continue
            board[4] = r
            pv = river_counts(hole, board, low7, nf7, tb, qualify_min, counts, work)
            cat = category[pv]
            ev1 = river_ev1(counts, cat, blind_units, scale)
            dealer = counts[0] + counts[1] + counts[2] + counts[3] + counts[4] + counts[5]
            win = counts[0] + counts[1]
            lose = counts[2] + counts[3]
            out[0] += ev1 + scale * (win - lose)
            fold = -2 * scale * dealer
            out[1] += ev1 if ev1 >= fold else fold


@nb.njit(cache=True, nogil=True)
def _hidden_pair(h0: int, h1: int, board: Any, nboard: int) -> bool:  # pragma: no cover
    if h0 >> 2 == h1 >> 2:
        return True
    for j in range(nboard):
        r = board[j] >> 2
        if r == h0 >> 2 or r == h1 >> 2:
            return True
    return False


@nb.njit(cache=True, nogil=True)
def simple_flop_bet(
    h0: int, h1: int, flop: Any, low5: Any, nf5: Any, tb: Any, category: Any, work: Any
) -> bool:  # pragma: no cover - compiled
    """Wizard of Odds basic strategy, flop: 2x with two pair or better (the hole cards playing),
    a hidden pair except pocket deuces, or four to a flush with a hidden Ten or better of it."""
    work[0] = h0
    work[1] = h1
    work[2] = flop[0]
    work[3] = flop[1]
    work[4] = flop[2]
    cat = category[value_of(work, 5, low5, nf5, tb)]
    hidden = _hidden_pair(h0, h1, flop, 3)
    if cat >= 4 or (hidden and cat >= 2):
        return True
    if hidden and not (h0 >> 2 == 0 and h1 >> 2 == 0):
        return True
    for su in range(4):
        n = 0
        for j in range(5):
            if work[j] & 3 == su:
                n += 1
        if n >= 4 and ((h0 & 3 == su and h0 >> 2 >= 8) or (h1 & 3 == su and h1 >> 2 >= 8)):
            return True
    return False


@nb.njit(cache=True, nogil=True)
def simple_river_play(
    h0: int,
    h1: int,
    board: Any,
    pv: int,
    low5: Any,
    nf5: Any,
    low6: Any,
    nf6: Any,
    tb: Any,
    category: Any,
    work: Any,
) -> bool:  # pragma: no cover - compiled
    """Wizard of Odds basic strategy, river: 1x with a hidden pair or better, or with fewer than
    21 dealer outs (unseen cards that, with the board, beat the player)."""
    if _hidden_pair(h0, h1, board, 5) and category[pv] >= 1:
        return True
    for j in range(5):
        work[j] = board[j]
    board_value = value_of(work, 5, low5, nf5, tb)
    if category[pv] >= 4 and pv > board_value:
        return True
    used = (np.int64(1) << h0) | (np.int64(1) << h1)
    for j in range(5):
        used |= np.int64(1) << board[j]
    outs = 0
    for c in range(52):
        if (used >> c) & 1:
            continue
        work[5] = c
        if value_of(work, 6, low6, nf6, tb) > pv:
            outs += 1
    return outs < 21


@nb.njit(cache=True, nogil=True)
def play_rounds(
    uniforms: Any,
    deck: Any,
    strategy: int,
    preflop_code: Any,
    pair_index: Any,
    flop_class: Any,
    flop_perm: Any,
    pair_perm: Any,
    flop_bet: Any,
    lows: Any,
    nonflush: Any,
    tb: Any,
    category: Any,
    blind_units: Any,
    trips_units: Any,
    scale: int,
    qualify_min: int,
    sums: Any,
    record: Any,
    cards_out: Any,
) -> None:  # pragma: no cover - compiled
    """Deal and settle one round per row of ``uniforms`` (n, 9) with a partial Fisher-Yates
    shuffle of ``deck`` (kept between rounds: any order of the deck deals uniformly).

    Rounds are settled in units (the Ante is ``scale`` units; Trips is one unit of its own, in
    ``trips_units`` of 1/scale). ``sums`` (int64, 8) receives: rounds, sum of net, sum of net^2,
    sum of total bet, sum of bet^2, sum of net*bet, sum of Trips net, sum of Trips net^2.
    If ``record`` has n rows: per round Ante, Blind, Play nets, the Play multiple and the Trips
    net; and ``cards_out`` the nine cards (player 2, dealer 2, board 5).
    """
    n = uniforms.shape[0]
    keep = record.shape[0] == n
    low5, low6, low7 = lows[0], lows[1], lows[2]
    nf5, nf6, nf7 = nonflush[0], nonflush[1], nonflush[2]
    counts = np.zeros(6, dtype=np.int64)
    work = np.zeros(7, dtype=np.int64)
    hole = np.zeros(2, dtype=np.int64)
    board = np.zeros(5, dtype=np.int64)
    seven = np.zeros(7, dtype=np.int64)
    for i in range(n):
        for j in range(9):
            r = j + int(uniforms[i, j] * (52 - j))
            c = deck[r]
            deck[r] = deck[j]
            deck[j] = c
        h0 = deck[0]
        h1 = deck[1]
        hole[0] = h0
        hole[1] = h1
        for j in range(5):
            board[j] = deck[4 + j]
            seven[j] = deck[4 + j]
        seven[5] = h0
        seven[6] = h1
        pv = value_of(seven, 7, low7, nf7, tb)
        seven[5] = deck[2]
        seven[6] = deck[3]
        dv = value_of(seven, 7, low7, nf7, tb)
        pidx = pair_index[h0, h1]
        play = preflop_code[pidx]
        if play == 0:
            if strategy == OPTIMAL:
                a, b, c = board[0], board[1], board[2]
                if a > b:
                    a, b = b, a
                if b > c:
                    b, c = c, b
                if a > b:
                    a, b = b, a
                slot = a * 2704 + b * 52 + c
                bet2 = flop_bet[flop_class[slot], pair_perm[flop_perm[slot], pidx]] != 0
            else:
                bet2 = simple_flop_bet(h0, h1, board, low5, nf5, tb, category, work)
            if bet2:
                play = 2
            elif strategy == OPTIMAL:
                river_counts(hole, board, low7, nf7, tb, qualify_min, counts, work)
                ev1 = river_ev1(counts, category[pv], blind_units, scale)
                play = 1 if ev1 >= -2 * scale * 990 else -1
            else:
                play = (
                    1
                    if simple_river_play(
                        h0, h1, board, pv, low5, nf5, low6, nf6, tb, category, work
                    )
                    else -1
                )
        qualified = dv >= qualify_min
        cat = category[pv]
        if play < 0:
            ante = -scale
            blind = -scale
            pl = 0
        elif pv > dv:
            ante = scale if qualified else 0
            blind = blind_units[cat]
            pl = play * scale
        elif pv < dv:
            ante = -scale if qualified else 0
            blind = -scale
            pl = -play * scale
        else:
            ante = 0
            blind = 0
            pl = 0
        net = ante + blind + pl
        bet = (2 + (play if play > 0 else 0)) * scale
        trips = trips_units[cat]
        sums[0] += 1
        sums[1] += net
        sums[2] += net * net
        sums[3] += bet
        sums[4] += bet * bet
        sums[5] += net * bet
        sums[6] += trips
        sums[7] += trips * trips
        if keep:
            record[i, 0] = ante
            record[i, 1] = blind
            record[i, 2] = pl
            record[i, 3] = play
            record[i, 4] = trips
            for j in range(9):
                cards_out[i, j] = deck[j]
