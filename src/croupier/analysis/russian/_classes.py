"""The class loop of the exact analysis: every five-card class, every first-round option.

Classes are taken by first-hand rank multiset ``p`` (6,175 of them, ~22 suit classes each):
the rank-level table of ``p`` (:mod:`._ranktable`) serves all its classes, and so does an
upper bound on each exchange valid for any suits (:func:`._bounds.p_option_bounds`). Per
class: folding, standing and the sixth card exactly; each exchange bounded, first for all
classes of ``p`` and then for the class (:func:`._bounds.exchange_bounds`); then, best upper
bound first, the exchanges that can still beat the best value found are summed exactly
(:func:`._draws.exchange_exact`).

Option columns: 0 fold, 1 stand, 2 the sixth card, ``2 + d`` the exchange of discard mask
``d`` (bit ``j``: the class's ``j``-th card, cards sorted by id).
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np

from croupier.analysis.russian._bounds import (
    class_suits,
    exchange_bounds,
    kept_info,
    kept_suited_bound,
    p_option_bounds,
)
from croupier.analysis.russian._draws import (
    BETS,
    BUYS,
    EXT,
    GAIN_SUM,
    INS_COUNT,
    INS_NET,
    INSURED,
    STATS,
    exchange_exact,
    x_stats,
)
from croupier.analysis.russian._kernels import multiple_of, value_of
from croupier.analysis.russian._option import add2
from croupier.analysis.russian._ranktable import (
    DRAW_PATTERNS,
    ENTRIES,
    FIELDS,
    kappa_layout,
    prepare_p,
)
from croupier.analysis.russian._state import state_parts

__all__: list[str] = []

OPTIONS = 34
WORD = 1099511627776.0
"""2**40, the weight of an accumulator's high word."""
# how each option's figures were obtained
PRUNED, BOUNDED, EXACT = 0, 1, 2


@nb.njit(cache=True, nogil=True)
def _stood(ext: Any, total: Any, fold: Any, parts: Any) -> None:  # pragma: no cover
    """Count a state that bets (``total >= fold``) into ``ext``."""
    if total < fold:
        return
    ext[BETS] += 1
    ext[INSURED] += parts[1]
    ext[INS_COUNT] += parts[1] > 0
    ext[BUYS] += parts[3]
    add2(ext[INS_NET : INS_NET + 2], parts[0])
    add2(ext[GAIN_SUM : GAIN_SUM + 2], parts[2])


@nb.njit(cache=True, nogil=True)
def sixth_parts(
    hand: Any,
    deck: Any,
    tab: Any,
    pays: Any,
    rules: Any,
    scale: Any,
    vt: Any,
    mt: Any,
    ds: Any,
    acc: Any,
    ext: Any,
) -> Any:  # pragma: no cover - compiled
    """``(draws, hands)``; ``acc`` (two words) receives the sixth card's total over the
    cards it can be (``max(state, fold) - 1`` each), ``ext`` the bets' extras."""
    seen = np.int64(0)
    final = np.zeros(6, dtype=np.int64)
    for j in range(5):
        seen |= np.int64(1) << hand[j]
        final[j] = hand[j]
    parts = np.zeros(4, dtype=np.int64)
    draws = 0
    hands = 1
    for c in range(52):
        if not (deck >> c) & 1 or (seen >> c) & 1:
            continue
        final[5] = c
        v = value_of(final, 6, tab)
        m = multiple_of(final, 6, pays, rules[3] != 0)
        t, hands, parts[0], parts[1], parts[2], parts[3] = state_parts(
            v, m, seen | (np.int64(1) << c), deck, rules, scale, vt, mt, ds
        )
        fold = hands * scale
        add2(acc, max(t, -fold) - fold)
        _stood(ext, t, -fold, parts)
        draws += 1
    return draws, hands


@nb.njit(cache=True, nogil=True)
def solve_class(
    hand: Any,
    deck: Any,
    ranks: Any,
    mult: Any,
    radix: Any,
    xs: Any,
    xoff: Any,
    xnq: Any,
    entries: Any,
    eoff: Any,
    p_hi: Any,
    tab: Any,
    pays: Any,
    rules: Any,
    scales: Any,
    vt: Any,
    mt: Any,
    ds: Any,
    kt: Any,
    words: Any,
    bounds: Any,
    how: Any,
    margin: Any,
    policy: Any,
    stats: Any,
    ext: Any,
    allowed: Any,
    force: Any,
) -> None:  # pragma: no cover - compiled
    """Every option of one class (the exchanges ``allowed``; ``force``, an option column,
    is summed exactly whatever its bound): ``bounds[o] = (lo, hi)`` in Antes (``lo`` is ``-inf`` for
    an option pruned by its first-hand bound); where ``how[o]`` is ``EXACT``, ``words[o]``
    holds the exact totals ``(lo_high, lo_low, hi_high, hi_low)`` (two words each, equal
    unless buying's per-suit corrections were bounded) and ``ext[o]`` its extras (see
    :data:`._draws.EXT`)."""
    a0 = np.zeros(13, dtype=np.int64)
    suits0 = np.zeros(4, dtype=np.int64)
    avail = np.zeros(13, dtype=np.int64)
    left = class_suits(hand, deck, a0, suits0, avail)
    seen = np.int64(0)
    for j in range(5):
        seen |= np.int64(1) << hand[j]
    for o in range(OPTIONS):
        how[o] = PRUNED
        for w in range(4):
            words[o, w] = 0
        for w in range(EXT):
            ext[o, w] = 0
    bounds[0, 0] = bounds[0, 1] = -1.0  # fold
    how[0] = EXACT
    v = value_of(hand, 5, tab)
    m = multiple_of(hand, 5, pays, rules[3] != 0)
    parts = np.zeros(4, dtype=np.int64)
    total, hands, parts[0], parts[1], parts[2], parts[3] = state_parts(
        v, m, seen, deck, rules, scales[0], vt, mt, ds
    )
    _stood(ext[1], total, -hands * scales[0], parts)
    total = max(total, -hands * scales[0])
    words[1, 1] = words[1, 3] = total
    how[1] = EXACT
    bounds[1, 0] = bounds[1, 1] = total / (hands * scales[0])
    acc = np.zeros(2, dtype=np.int64)
    draws, hands = sixth_parts(hand, deck, tab, pays, rules, scales[6], vt, mt, ds, acc, ext[2])
    words[2, 0] = words[2, 2] = acc[0]
    words[2, 1] = words[2, 3] = acc[1]
    how[2] = EXACT
    bounds[2, 0] = bounds[2, 1] = (acc[0] * WORD + acc[1]) / (draws * hands * scales[6])
    best = max(bounds[0, 0], bounds[1, 0], bounds[2, 0])
    k0 = kept_suited_bound(a0, suits0, kt)
    his = np.zeros(31)
    for d in range(1, 32):
        code, kept_suit, k = kept_info(hand, d, ranks, mult, radix)
        bounds[2 + d, 0] = -np.inf
        bounds[2 + d, 1] = p_hi[code] + margin if allowed[2 + d] else -np.inf
        if bounds[2 + d, 1] >= best:
            rest = left - k
            hands = rest * (rest - 1) * (rest - 2) * (rest - 3) * (rest - 4) // 120
            lo, hi, draws = exchange_bounds(
                code,
                kept_suit,
                k,
                suits0,
                avail,
                xs,
                xoff,
                xnq,
                entries,
                eoff,
                hands,
                k0,
                rules,
                scales[k],
                vt,
                mt,
            )
            den = float(draws) * hands * scales[k]
            bounds[2 + d, 0] = lo / den - margin
            bounds[2 + d, 1] = min(bounds[2 + d, 1], hi / den + margin)
            how[2 + d] = BOUNDED
            best = max(best, bounds[2 + d, 0])
        his[d - 1] = -bounds[2 + d, 1]
    order = np.argsort(his)
    acc_lo = np.zeros(2, dtype=np.int64)
    acc_hi = np.zeros(2, dtype=np.int64)
    have = np.zeros(6, dtype=np.bool_)
    for i in range(32):
        if i < 31:
            d = order[i] + 1
            if bounds[2 + d, 1] < best:
                continue
        elif force >= 3 and how[force] != EXACT:
            d = force - 2
        else:
            break
        if how[2 + d] == EXACT:
            continue
        code, kept_suit, k = kept_info(hand, d, ranks, mult, radix)
        if not have[k]:
            x_stats(k, xs, xoff, suits0, avail, mt, stats)
            have[k] = True
        rest = left - k
        hands = rest * (rest - 1) * (rest - 2) * (rest - 3) * (rest - 4) // 120
        acc_lo[0] = acc_lo[1] = acc_hi[0] = acc_hi[1] = 0
        draws = exchange_exact(
            code,
            kept_suit,
            k,
            a0,
            suits0,
            avail,
            xs,
            xoff,
            xnq,
            entries,
            eoff,
            stats,
            hands,
            rules,
            scales[k],
            vt,
            mt,
            ds,
            kt,
            acc_lo,
            acc_hi,
            policy,
            ext[2 + d],
        )
        words[2 + d, 0] = acc_lo[0]
        words[2 + d, 1] = acc_lo[1]
        words[2 + d, 2] = acc_hi[0]
        words[2 + d, 3] = acc_hi[1]
        how[2 + d] = EXACT
        den = float(draws) * hands * scales[k]
        bounds[2 + d, 0] = (acc_lo[0] * WORD + acc_lo[1]) / den
        bounds[2 + d, 1] = (acc_hi[0] * WORD + acc_hi[1]) / den
        best = max(best, bounds[2 + d, 0])


@nb.njit(cache=True, parallel=True)
def solve_chunk(
    p_counts: Any,
    class_start: Any,
    class_cards: Any,
    deck: Any,
    deck_counts: Any,
    tab: Any,
    pays: Any,
    m5: Any,
    rules: Any,
    scales: Any,
    vt: Any,
    mt: Any,
    ds: Any,
    kt: Any,
    words: Any,
    bounds: Any,
    how: Any,
    margin: Any,
    policy: Any,
    ext: Any,
    allowed: Any,
    force: Any,
) -> None:  # pragma: no cover - compiled
    """:func:`solve_class` for every class of the first-hand rank multisets ``p_counts``
    (classes ``class_start[i]:class_start[i+1]`` have ranks ``p_counts[i]``)."""
    for ip in nb.prange(p_counts.shape[0]):
        xs = np.zeros((DRAW_PATTERNS, 13), dtype=np.int64)
        xoff = np.zeros(7, dtype=np.int64)
        xnq = np.zeros(DRAW_PATTERNS, dtype=np.int64)
        entries = np.zeros((ENTRIES, FIELDS), dtype=np.int64)
        eoff = np.zeros(33, dtype=np.int64)
        stats = np.zeros((DRAW_PATTERNS, STATS), dtype=np.int64)
        n_kappa = prepare_p(
            p_counts[ip],
            deck_counts,
            tab,
            m5,
            rules,
            scales,
            vt,
            ds,
            xs,
            xoff,
            xnq,
            entries,
            eoff,
        )
        ranks = np.zeros(5, dtype=np.int64)
        mult = np.zeros(5, dtype=np.int64)
        radix = np.zeros(5, dtype=np.int64)
        kappa_layout(p_counts[ip], ranks, mult, radix)
        sizes = np.zeros(32, dtype=np.int64)
        for c in range(n_kappa):
            for j in range(5):
                if mult[j]:
                    sizes[c] += (c // radix[j]) % (mult[j] + 1)
        a0 = np.zeros(13, dtype=np.int64)
        for r in range(13):
            a0[r] = deck_counts[r] - p_counts[ip, r]
        p_hi = np.zeros(32)
        p_option_bounds(
            n_kappa, a0, xs, xoff, xnq, entries, eoff, sizes, rules, scales, vt, mt, kt, p_hi
        )
        for ci in range(class_start[ip], class_start[ip + 1]):
            solve_class(
                class_cards[ci],
                deck,
                ranks,
                mult,
                radix,
                xs,
                xoff,
                xnq,
                entries,
                eoff,
                p_hi,
                tab,
                pays,
                rules,
                scales,
                vt,
                mt,
                ds,
                kt,
                words[ci],
                bounds[ci],
                how[ci],
                margin,
                policy,
                stats,
                ext[ci],
                allowed,
                force[ci],
            )
