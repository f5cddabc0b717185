"""numba kernels for the Russian Poker analysis: flat loops over the evaluator's tables.

``tab`` is always the tuple ``(card_keys, low5, low6, high, nonflush5, nonflush6, flush)`` of
1-D int64 arrays (see :func:`croupier.evaluator.lookup_tables`).
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np

from croupier.evaluator import eval_row

__all__: list[str] = []


# Combination codes and pay indices (croupier.games.russian.config.Combination)
_AK, _PAIR, _TWO_PAIR, _TRIPS, _STRAIGHT, _FLUSH, _FULL, _QUADS, _SF, _ROYAL = range(10)


@nb.njit(cache=True, nogil=True)
def value_of(cards: Any, n: int, tab: Any) -> Any:  # pragma: no cover - compiled
    """The evaluator value of the first ``n`` (5 or 6) card ids of ``cards``."""
    if n == 5:
        return eval_row(cards, 5, tab[0], tab[1], tab[3], tab[4], tab[6])
    return eval_row(cards, 6, tab[0], tab[2], tab[3], tab[5], tab[6])


@nb.njit(cache=True, nogil=True)
def multiple_of(cards: Any, n: int, pays: Any, pair_plus: bool) -> Any:  # pragma: no cover
    """The two-combination multiple (spec "Two combinations"), as rules.two_combination_pay."""
    cpay = np.empty(64, dtype=np.int64)
    cmask = np.empty(64, dtype=np.int64)
    ckind = np.empty(64, dtype=np.int64)
    cranks = np.empty(64, dtype=np.int64)
    ranks = np.empty(5, dtype=np.int64)
    suits = np.empty(5, dtype=np.int64)
    count = 0
    for subset in range(1, 1 << n):
        size = 0
        for j in range(n):
            if subset >> j & 1:
                if size < 5:
                    ranks[size] = cards[j] >> 2
                    suits[size] = cards[j] & 3
                size += 1
        if size < 2 or size > 5:
            continue
        # sort the ranks (insertion sort, ascending), suits alongside
        for a in range(1, size):
            r = ranks[a]
            s = suits[a]
            b = a - 1
            while b >= 0 and ranks[b] > r:
                ranks[b + 1] = ranks[b]
                suits[b + 1] = suits[b]
                b -= 1
            ranks[b + 1] = r
            suits[b + 1] = s
        kind = -1
        rmask = 0
        if size == 2:
            if ranks[0] == ranks[1]:
                kind = _PAIR
            elif ranks[0] == 11 and ranks[1] == 12:
                kind = _AK
        elif size == 3:
            if ranks[0] == ranks[2]:
                kind = _TRIPS
        elif size == 4:
            if ranks[0] == ranks[3]:
                kind = _QUADS
            elif ranks[0] == ranks[1] and ranks[2] == ranks[3] and ranks[1] != ranks[2]:
                kind = _TWO_PAIR
        else:
            if (ranks[0] == ranks[2] and ranks[3] == ranks[4] and ranks[2] != ranks[3]) or (
                ranks[0] == ranks[1] and ranks[2] == ranks[4] and ranks[1] != ranks[2]
            ):
                kind = _FULL
            else:
                for j in range(5):
                    rmask |= 1 << ranks[j]
                distinct = ranks[0] < ranks[1] < ranks[2] < ranks[3] < ranks[4]
                flush = suits[0] == suits[1] == suits[2] == suits[3] == suits[4]
                straight = distinct and (ranks[4] - ranks[0] == 4 or rmask == 0b1000000001111)
                if straight and flush:
                    kind = _ROYAL if ranks[0] == 8 else _SF
                elif flush:
                    kind = _FLUSH
                elif straight:
                    kind = _STRAIGHT
        if kind < 0:
            continue
        cpay[count] = pays[kind]
        cmask[count] = subset
        ckind[count] = kind
        cranks[count] = rmask
        count += 1
    if count == 0:
        return 0
    # sort by pay, descending (stable insertion sort)
    for a in range(1, count):
        p, m, k, r = cpay[a], cmask[a], ckind[a], cranks[a]
        b = a - 1
        while b >= 0 and cpay[b] < p:
            cpay[b + 1], cmask[b + 1], ckind[b + 1], cranks[b + 1] = (
                cpay[b],
                cmask[b],
                ckind[b],
                cranks[b],
            )
            b -= 1
        cpay[b + 1], cmask[b + 1], ckind[b + 1], cranks[b + 1] = p, m, k, r
    best = cpay[0]
    for i in range(count):
        if 2 * cpay[i] <= best:
            break
        for j in range(i + 1, count):
            if not cmask[j] & ~cmask[i]:
                continue
            if (
                pair_plus
                and ckind[j] == _STRAIGHT
                and (ckind[i] == _STRAIGHT or ckind[i] == _SF or ckind[i] == _ROYAL)
                and cranks[j] == cranks[i]
            ):
                continue
            if cpay[i] + cpay[j] > best:
                best = cpay[i] + cpay[j]
            break
    return best


@nb.njit(cache=True, nogil=True)
def multiples_batch(cards: Any, pays: Any, pair_plus: bool) -> Any:  # pragma: no cover
    """:func:`multiple_of` for every row of an (N, 5|6) array."""
    out = np.empty(cards.shape[0], dtype=np.int64)
    for i in range(cards.shape[0]):
        out[i] = multiple_of(cards[i], cards.shape[1], pays, pair_plus)
    return out


@nb.njit(cache=True)
def enumerate_hands(tab: Any, pays: Any, pair_plus: bool) -> Any:  # pragma: no cover
    """Every five-card hand in colex order: its value, its suit-canonical code, its multiple
    (one per value, as five-card multiples depend on the value only), and whether it
    qualifies for the dealer."""
    total = 2598960
    values = np.empty(total, dtype=np.int64)
    codes = np.empty(total, dtype=np.int64)
    mult = np.full(7463, -1, dtype=np.int64)
    qual = np.zeros(7463, dtype=np.bool_)
    perms = _PERMS
    hand = np.empty(5, dtype=np.int64)
    mapped = np.empty(5, dtype=np.int64)
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
                        v = value_of(hand, 5, tab)
                        values[idx] = v
                        if mult[v] < 0:
                            mult[v] = multiple_of(hand, 5, pays, pair_plus)
                            aces = 0
                            kings = 0
                            for j in range(5):
                                if hand[j] >> 2 == 12:
                                    aces += 1
                                if hand[j] >> 2 == 11:
                                    kings += 1
                            qual[v] = v > 1277 or (aces > 0 and kings > 0)
                        best = np.int64(1) << 62
                        for p in range(24):
                            for j in range(5):
                                mapped[j] = (hand[j] & ~3) | perms[p, hand[j] & 3]
                            mapped.sort()
                            code = np.int64(0)
                            for j in range(5):
                                code = (code << 6) | mapped[j]
                            if code < best:
                                best = code
                        codes[idx] = best
                        idx += 1
    return values, codes, mult, qual


def _permutations() -> Any:
    from itertools import permutations

    return np.array(list(permutations(range(4))), dtype=np.int64)


_PERMS = _permutations()


@nb.njit(cache=True, nogil=True)
def canonical(hand: Any, positions: Any) -> Any:  # pragma: no cover - compiled
    """The suit-canonical code of a five-card hand; ``positions[j]`` receives the index in
    ``hand`` of the card at sorted canonical position ``j``."""
    perms = _PERMS
    mapped = np.empty(5, dtype=np.int64)
    order = np.empty(5, dtype=np.int64)
    best = np.int64(1) << 62
    for p in range(24):
        for j in range(5):
            mapped[j] = (hand[j] & ~3) | perms[p, hand[j] & 3]
            order[j] = j
        for a in range(1, 5):
            m = mapped[a]
            o = order[a]
            b = a - 1
            while b >= 0 and mapped[b] > m:
                mapped[b + 1] = mapped[b]
                order[b + 1] = order[b]
                b -= 1
            mapped[b + 1] = m
            order[b + 1] = o
        code = np.int64(0)
        for j in range(5):
            code = (code << 6) | mapped[j]
        if code < best:
            best = code
            for j in range(5):
                positions[j] = order[j]
    return best


@nb.njit(cache=True, nogil=True)
def stand_ev(
    v: int, m: int, pw: Any, pl: Any, pnq: float, gain: Any, aw: int
) -> Any:  # pragma: no cover
    """The model EV (in Antes, fee excluded) of betting with value ``v`` and multiple ``m``;
    ``aw`` is what a win against a qualifying dealer pays on the Ante (0, or 1 under the
    option ``ante_pays_on_win``)."""
    return (2.0 * m + aw) * pw[v] - 3.0 * pl[v] + pnq * (1.0 + gain[v, m])


@nb.njit(cache=True, parallel=True)
def buy_gain_table(
    set_values: Any, set_weights: Any, set_qual: Any, max_multiple: int, aw: int, failed: int
) -> Any:  # pragma: no cover - compiled
    """``gain[v, m]``: the average over non-qualifying dealer rank sets of the gain from
    buying the dealer's game, max(0, buy EV - 1), for a player of value ``v``, multiple ``m``;
    ``failed`` is what the Ante pays when the bought game does not qualify (0 or 1)."""
    sets, outs = set_values.shape
    gain = np.zeros((7463, max_multiple + 1))
    for v in nb.prange(1, 7463):
        for s in range(sets):
            total = 0.0
            win = 0.0
            lose = 0.0
            nq = 0.0
            for o in range(outs):
                w = set_weights[s, o]
                if w == 0:
                    continue
                total += w
                if not set_qual[s, o]:
                    nq += w
                elif set_values[s, o] < v:
                    win += w
                elif set_values[s, o] > v:
                    lose += w
            a = -2.0 - 3.0 * lose / total + failed * nq / total + aw * win / total
            b = 2.0 * win / total
            for m in range(max_multiple + 1):
                g = a + m * b
                if g > 0:
                    gain[v, m] += g
        for m in range(max_multiple + 1):
            gain[v, m] /= sets
    return gain


@nb.njit(cache=True, nogil=True)
def _fold_or_bet(
    v: int, m: int, pw: Any, pl: Any, pnq: float, gain: Any, aw: int
) -> Any:  # pragma: no cover
    ev = stand_ev(v, m, pw, pl, pnq, gain, aw)
    return ev if ev > -1.0 else -1.0


@nb.njit(cache=True)
def keep_one_table(tab: Any, best5: Any) -> Any:  # pragma: no cover - compiled
    """Model EV of keeping one card of each rank and drawing four (discard removal ignored)."""
    out = np.empty(13)
    hand = np.empty(5, dtype=np.int64)
    for r in range(13):
        kept = 4 * r
        hand[0] = kept
        total = 0.0
        count = 0
        for a in range(52):
            if a == kept:
                continue
            hand[1] = a
            for b in range(a + 1, 52):
                if b == kept:
                    continue
                hand[2] = b
                for c in range(b + 1, 52):
                    if c == kept:
                        continue
                    hand[3] = c
                    for d in range(c + 1, 52):
                        if d == kept:
                            continue
                        hand[4] = d
                        total += best5[value_of(hand, 5, tab)]
                        count += 1
        out[r] = -1.0 + total / count
    return out


@nb.njit(cache=True, parallel=True)
def class_evs(
    classes: Any,
    tab: Any,
    best5: Any,
    ev5: Any,
    keep_one: Any,
    keep_none: float,
    pw: Any,
    pl: Any,
    pnq: float,
    gain: Any,
    pays: Any,
    pair_plus: bool,
    max_multiple: int,
    aw: int,
) -> Any:  # pragma: no cover - compiled
    """EV of every option for each class (rows of five sorted ids).

    Columns: 0 fold, 1 stand, 2 sixth card, 2 + d exchange of the cards in discard mask
    ``d`` (1..31, bit j = sorted position j). Exchanges of 1-3 cards and the sixth card are
    enumerated exactly over the 47 unseen cards; of 4 and 5 cards use ``keep_one`` and
    ``keep_none`` (removal of the discards ignored). The dealer is the model's (no card
    removal).
    """
    n = classes.shape[0]
    out = np.empty((n, 34))
    for i in nb.prange(n):
        hand = classes[i]
        rest = np.empty(47, dtype=np.int64)
        used = np.int64(0)
        for j in range(5):
            used |= np.int64(1) << hand[j]
        k = 0
        for c in range(52):
            if not (used >> c) & 1:
                rest[k] = c
                k += 1
        work = np.empty(6, dtype=np.int64)
        out[i, 0] = -1.0
        out[i, 1] = ev5[value_of(hand, 5, tab)]
        # sixth card
        total = 0.0
        for j in range(5):
            work[j] = hand[j]
        for a in range(47):
            work[5] = rest[a]
            v = value_of(work, 6, tab)
            m = multiple_of(work, 6, pays, pair_plus)
            if m > max_multiple:
                m = max_multiple
            total += _fold_or_bet(v, m, pw, pl, pnq, gain, aw)
        out[i, 2] = -1.0 + total / 47.0
        for d in range(1, 32):
            drawn = 0
            kept = 0
            for j in range(5):
                if d >> j & 1:
                    drawn += 1
                else:
                    work[kept] = hand[j]
                    kept += 1
            if drawn == 5:
                out[i, 2 + d] = keep_none
                continue
            if drawn == 4:
                out[i, 2 + d] = keep_one[work[0] >> 2]
                continue
            total = 0.0
            count = 0
            if drawn == 1:
                for a in range(47):
                    work[4] = rest[a]
                    total += best5[value_of(work, 5, tab)]
                    count += 1
            elif drawn == 2:
                for a in range(47):
                    work[3] = rest[a]
                    for b in range(a + 1, 47):
                        work[4] = rest[b]
                        total += best5[value_of(work, 5, tab)]
                        count += 1
            else:
                for a in range(47):
                    work[2] = rest[a]
                    for b in range(a + 1, 47):
                        work[3] = rest[b]
                        for c in range(b + 1, 47):
                            work[4] = rest[c]
                            total += best5[value_of(work, 5, tab)]
                            count += 1
            out[i, 2 + d] = -1.0 + total / count
    return out


@nb.njit(cache=True)
def value_tables(tab: Any, pays: Any, pair_plus: bool) -> Any:  # pragma: no cover - compiled
    """Per value: the five-card multiple and whether the dealer qualifies (no class codes)."""
    mult = np.full(7463, -1, dtype=np.int64)
    qual = np.zeros(7463, dtype=np.bool_)
    hand = np.empty(5, dtype=np.int64)
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
                        v = value_of(hand, 5, tab)
                        if mult[v] < 0:
                            mult[v] = multiple_of(hand, 5, pays, pair_plus)
                            ranks = 0
                            for j in range(5):
                                ranks |= 1 << (hand[j] >> 2)
                            qual[v] = v > 1277 or (ranks >> 11) & 3 == 3
    return mult, qual


@nb.njit(cache=True)
def exact_stand_ev(
    hand: Any, n: int, m: int, tab: Any, qual: Any, rebuy: bool, aw: int
) -> Any:  # pragma: no cover - compiled
    """Exact EV (Antes, fees excluded) of betting with ``hand`` (``n`` = 5 or 6 cards, no
    discards) against every dealer hand from the other cards, buying the dealer's game
    whenever that is better over the unseen replacement cards."""
    seen = np.int64(0)
    for j in range(n):
        seen |= np.int64(1) << hand[j]
    rest = np.empty(52 - n, dtype=np.int64)
    k = 0
    for c in range(52):
        if not (seen >> c) & 1:
            rest[k] = c
            k += 1
    v = value_of(hand, n, tab)
    dealer = np.empty(5, dtype=np.int64)
    total = 0.0
    count = 0
    r = 52 - n
    for a in range(r):
        dealer[0] = rest[a]
        for b in range(a + 1, r):
            dealer[1] = rest[b]
            for c in range(b + 1, r):
                dealer[2] = rest[c]
                for d in range(c + 1, r):
                    dealer[3] = rest[d]
                    for e in range(d + 1, r):
                        dealer[4] = rest[e]
                        count += 1
                        dv = value_of(dealer, 5, tab)
                        if qual[dv]:
                            if v > dv:
                                total += 2 * m + aw
                            elif v < dv:
                                total -= 3
                            continue
                        if 2 * m + aw <= 2:  # buying can never beat the Ante's 1
                            total += 1
                            continue
                        top_j = 0
                        for j in range(5):
                            if dealer[j] > dealer[top_j]:
                                top_j = j
                        top = dealer[top_j]
                        dead = seen
                        for j in range(5):
                            dead |= np.int64(1) << dealer[j]
                        buy = 0.0
                        options = 0
                        for x in range(52):
                            if (dead >> x) & 1 or (rebuy and x >> 2 == top >> 2):
                                continue
                            dealer[top_j] = x
                            nv = value_of(dealer, 5, tab)
                            if not qual[nv]:
                                buy += 1
                            elif v > nv:
                                buy += 2 * m + aw
                            elif v < nv:
                                buy -= 3
                            options += 1
                        dealer[top_j] = top
                        ev_buy = -1.0 + buy / options
                        total += ev_buy if ev_buy > 1.0 else 1.0
    return total / count
