"""numba kernels that play the real game (real cards, card removal included) under a strategy."""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np

from croupier.analysis.russian._kernels import canonical, multiple_of, stand_ev, value_of

__all__: list[str] = []

TRIPS_MIN = 1277 + 2860 + 858 + 1
"""The lowest value of three of a kind."""

# accumulator columns
ANTE, BET, FEE, INS, BUY, TOTAL, TOTAL2, WAGER, WAGER2, CROSS, ROUNDS = range(11)
COLUMNS = 11
# statistics columns per final category (0..9): stood, dealer NQ while stood, bought, insured
ST_STOOD, ST_NQ, ST_BOUGHT, ST_INSURED = range(4)


_BOUNDS = np.array([1277, 4137, 4995, 5853, 5863, 7140, 7296, 7452, 7461, 7462], dtype=np.int64)


@nb.njit(cache=True, nogil=True)
def category(v: int) -> Any:  # pragma: no cover - compiled
    """The HandCategory code of a value."""
    return np.searchsorted(_BOUNDS, v)


@nb.njit(cache=True)
def decision_table(codes: Any, class_codes: Any, class_decisions: Any) -> Any:  # pragma: no cover
    """The strategy for every hand in colex order: 0 fold, 1 stand, 2 sixth card, 2 + d
    exchange of discard mask ``d`` over the hand's sorted cards."""
    out = np.empty(codes.shape[0], dtype=np.int8)
    hand = np.empty(5, dtype=np.int64)
    positions = np.empty(5, dtype=np.int64)
    idx = 0
    for c4 in range(4, 52):
        hand[4] = c4
        for c3 in range(3, c4):
            hand[3] = c3
            for c2 in range(2, c3):
                hand[2] = c2
                for c1 in range(1, c2):
                    hand[1] = c1
                    for c0 in range(c1):
                        hand[0] = c0
                        canonical(hand, positions)
                        k = np.searchsorted(class_codes, codes[idx])
                        code = class_decisions[k]
                        if code >= 3:
                            d = code - 2
                            mapped = 0
                            for j in range(5):
                                if d >> j & 1:
                                    mapped |= 1 << positions[j]
                            code = 2 + mapped
                        out[idx] = code
                        idx += 1
    return out


@nb.njit(cache=True, nogil=True)
def _next(state: Any) -> Any:  # pragma: no cover - compiled
    """splitmix64."""
    state[0] += np.uint64(0x9E3779B97F4A7C15)
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@nb.njit(cache=True, nogil=True)
def _below(state: Any, n: int) -> Any:  # pragma: no cover - compiled
    return np.int64(((_next(state) >> np.uint64(33)) * np.uint64(n)) >> np.uint64(31))


@nb.njit(cache=True, nogil=True)
def _deal(deck: Any, pos: int, state: Any) -> Any:  # pragma: no cover - compiled
    """Fisher-Yates step: fix a uniformly chosen remaining card at ``pos``; return it."""
    j = pos + _below(state, 52 - pos)
    c = deck[j]
    deck[j] = deck[pos]
    deck[pos] = c
    return c


@nb.njit(cache=True, nogil=True)
def p_not_qualified(seen: Any, nq_sets: Any) -> Any:  # pragma: no cover - compiled
    """Exact chance that five cards drawn from the cards not in ``seen`` (a 52-bit mask) do
    not qualify: no pair, straight or flush, and not both an Ace and a King."""
    avail = np.zeros((13, 4), dtype=np.int64)
    n_rank = np.zeros(13, dtype=np.int64)
    unseen = 0
    for c in range(52):
        if not (seen >> c) & 1:
            avail[c >> 2, c & 3] = 1
            n_rank[c >> 2] += 1
            unseen += 1
    count = 0
    for s in range(nq_sets.shape[0]):
        prod = 1
        for j in range(5):
            prod *= n_rank[nq_sets[s, j]]
        flush = 0
        for suit in range(4):
            f = 1
            for j in range(5):
                f *= avail[nq_sets[s, j], suit]
            flush += f
        count += prod - flush
    total = unseen * (unseen - 1) * (unseen - 2) * (unseen - 3) * (unseen - 4) // 120
    return count / total


@nb.njit(cache=True, nogil=True)
def _versus(v: int, m: int, dealer_value: int, qual: Any, aw: int) -> Any:  # pragma: no cover
    """(ante net, bet net) of a standing box against a dealer hand (``aw``: the Ante's win
    against a qualifying dealer, option ``ante_pays_on_win``)."""
    if not qual[dealer_value]:
        return 1, 0
    if v > dealer_value:
        return aw, 2 * m
    if v < dealer_value:
        return -1, -2
    return 0, 0


@nb.njit(cache=True, nogil=True)
def _bought(v: int, m: int, dealer_value: int, qual: Any, aw: int, failed: int) -> Any:
    # pragma: no cover - compiled
    """:func:`_versus` against a bought game: one that still does not qualify pays the Ante
    ``failed`` (option ``failed_buy_ante``) and returns the Bet."""
    if not qual[dealer_value]:
        return failed, 0
    return _versus(v, m, dealer_value, qual, aw)


# play_round's result fields
R_ANTE, R_BET, R_FEE, R_INS, R_BUY, R_CODE, R_STOOD, R_INSURED, R_BOUGHT, R_CAT0, R_CAT, R_NQ = (
    range(12)
)
R_FIELDS = 12


@nb.njit(cache=True, nogil=True)
def play_round(
    deck: Any,
    out: Any,
    decisions: Any,
    binom: Any,
    tab: Any,
    m5: Any,
    qual: Any,
    pw: Any,
    pl: Any,
    pnq: float,
    gain: Any,
    pays: Any,
    pair_plus: bool,
    rebuy: bool,
    max_multiple: int,
    nq_sets: Any,
    aw: int,
    failed: int,
) -> None:  # pragma: no cover - compiled
    """Play one box against the dealer from an ordered ``deck`` (box 5, dealer 5, then the
    draws and the bought cards, as the engine deals); nets in Antes go to ``out``
    (``failed``: what the Ante pays when a bought game does not qualify)."""
    hand = np.empty(6, dtype=np.int64)
    dealer = np.empty(5, dtype=np.int64)
    sorted5 = np.empty(5, dtype=np.int64)
    for j in range(5):
        sorted5[j] = deck[j]
        dealer[j] = deck[5 + j]
    sorted5.sort()
    idx = 0
    for j in range(5):
        idx += binom[sorted5[j], j + 1]
    code = decisions[idx]
    out[:] = 0
    out[R_CODE] = code
    out[R_CAT0] = category(value_of(sorted5, 5, tab))
    out[R_CAT] = -1
    seen = np.int64(0)
    for j in range(5):
        seen |= np.int64(1) << sorted5[j]
        hand[j] = sorted5[j]
    if code == 0:
        out[R_ANTE] = -1
        return
    n = 5
    pos = 10
    fee = 0
    if code == 2:
        c = deck[pos]
        pos += 1
        hand[5] = c
        seen |= np.int64(1) << c
        n = 6
        fee = -1
    elif code >= 3:
        d = code - 2
        for j in range(5):
            if d >> j & 1:
                c = deck[pos]
                pos += 1
                hand[j] = c
                seen |= np.int64(1) << c
        fee = -1
    out[R_FEE] = fee
    v = value_of(hand, n, tab)
    m = m5[v] if n == 5 else multiple_of(hand, 6, pays, pair_plus)
    gm = m if m <= max_multiple else max_multiple
    if fee != 0 and stand_ev(v, gm, pw, pl, pnq, gain, aw) < -1.0:
        out[R_ANTE] = -1
        return
    out[R_STOOD] = 1
    out[R_CAT] = category(v)
    insured = 0
    if v >= TRIPS_MIN and p_not_qualified(seen, nq_sets) > 0.5:
        insured = 2 * m  # spec: at most the Bet times the multiple
    out[R_INSURED] = insured
    dv = value_of(dealer, 5, tab)
    if qual[dv]:
        out[R_INS] = -insured
        out[R_ANTE], out[R_BET] = _versus(v, m, dv, qual, aw)
        return
    out[R_INS] = insured
    out[R_NQ] = 1
    if 2 * m + aw <= 2:
        # buying pays at most 2m + aw <= 2 per outcome: never better than the Ante's 1 + the fee
        out[R_ANTE], out[R_BET] = 1, 0
        return
    # the buy decision: exact over the unseen cards (this box alone at the table)
    top = 0
    top_j = 0
    for j in range(5):
        if dealer[j] > top:
            top = dealer[j]
            top_j = j
    dead = seen
    for j in range(5):
        dead |= np.int64(1) << dealer[j]
    total = 0.0
    count = 0
    for c in range(52):
        if (dead >> c) & 1 or (rebuy and c >> 2 == top >> 2):
            continue
        dealer[top_j] = c
        a_net, b_net = _bought(v, m, value_of(dealer, 5, tab), qual, aw, failed)
        total += a_net + b_net
        count += 1
    if count > 0 and -1.0 + total / count > 1.0:
        out[R_BOUGHT] = 1
        out[R_BUY] = -1
        c = deck[pos]
        pos += 1
        while rebuy and c >> 2 == top >> 2:
            c = deck[pos]
            pos += 1
        dealer[top_j] = c
        out[R_ANTE], out[R_BET] = _bought(v, m, value_of(dealer, 5, tab), qual, aw, failed)
    else:
        out[R_ANTE], out[R_BET] = 1, 0


@nb.njit(cache=True, parallel=True)
def simulate(
    lanes: int,
    rounds_per_lane: int,
    seed: int,
    decisions: Any,
    binom: Any,
    tab: Any,
    m5: Any,
    qual: Any,
    pw: Any,
    pl: Any,
    pnq: float,
    gain: Any,
    pays: Any,
    pair_plus: bool,
    rebuy: bool,
    max_multiple: int,
    nq_sets: Any,
    aw: int,
    failed: int,
) -> Any:  # pragma: no cover - compiled
    """Play ``lanes * rounds_per_lane`` rounds of one open box; per-lane sums in Antes."""
    sums = np.zeros((lanes, COLUMNS))
    stats = np.zeros((lanes, 10, 4), dtype=np.int64)
    actions = np.zeros((lanes, 10, 4), dtype=np.int64)  # first five x fold/stand/exch/sixth
    for lane in nb.prange(lanes):
        state = np.empty(1, dtype=np.uint64)
        # independent streams: a scrambled start per lane from the chunk's 64-bit seed
        state[0] = np.uint64(seed) + np.uint64(lane + 1) * np.uint64(0xD1B54A32D192ED03)
        state[0] = _next(state)
        state[0] = _next(state)
        deck = np.arange(52, dtype=np.int64)
        out = np.empty(R_FIELDS, dtype=np.int64)
        s = sums[lane]
        for _ in range(rounds_per_lane):
            for i in range(20):  # enough for any round: 10 dealt, 5 drawn, a bought card or more
                _deal(deck, i, state)
            play_round(
                deck,
                out,
                decisions,
                binom,
                tab,
                m5,
                qual,
                pw,
                pl,
                pnq,
                gain,
                pays,
                pair_plus,
                rebuy,
                max_multiple,
                nq_sets,
                aw,
                failed,
            )
            code = out[R_CODE]
            kind = 0 if code == 0 else (1 if code == 1 else (3 if code == 2 else 2))
            actions[lane, out[R_CAT0], kind] += 1
            if out[R_STOOD]:
                cat = out[R_CAT]
                stats[lane, cat, ST_STOOD] += 1
                stats[lane, cat, ST_NQ] += out[R_NQ]
                stats[lane, cat, ST_BOUGHT] += out[R_BOUGHT]
                if out[R_INSURED]:
                    stats[lane, cat, ST_INSURED] += 1
            ante = out[R_ANTE]
            bet = out[R_BET]
            fee = out[R_FEE]
            ins = out[R_INS]
            buy = out[R_BUY]
            total_net = ante + bet + fee + ins + buy
            wager = 1 + 2 * out[R_STOOD] - fee + out[R_INSURED] - buy
            s[ANTE] += ante
            s[BET] += bet
            s[FEE] += fee
            s[INS] += ins
            s[BUY] += buy
            s[TOTAL] += total_net
            s[TOTAL2] += total_net * total_net
            s[WAGER] += wager
            s[WAGER2] += wager * wager
            s[CROSS] += total_net * wager
            s[ROUNDS] += 1
    return sums, stats, actions
