"""The exact value of one first-round option (stand, sixth card, an exchange) for one hand.

An exchange's new cards are enumerated by rank pattern: for each multiset ``x`` of ranks the
dealer's rank counts are the same whatever the suits, so the rank-level part of a state's
value (:mod:`._counts`, buying by ranks) is computed once per pattern, and each choice of
suits only adds the per-suit corrections (:mod:`._state`). Sums are exact integers kept in
two words (:func:`add2`): an option's value is ``-1 + total / (draws * hands * scale)``
Antes, ``total`` summing ``max(state, fold) - 1`` over the draws (the fee and the decision
to bet or fold after the draw included).
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np

from croupier.analysis.russian._counts import category_totals, versus
from croupier.analysis.russian._kernels import multiple_of, value_of
from croupier.analysis.russian._ranks import TRIPS
from croupier.analysis.russian._state import (
    availability,
    buy_ranks,
    buy_suits,
    flush_correction,
    state_total,
)

__all__: list[str] = []

WORD = np.int64(1) << 40


@nb.njit(cache=True, nogil=True, inline="always")
def add2(acc: Any, value: Any) -> None:  # pragma: no cover - compiled
    """``acc[0] * 2**40 + acc[1] += value``, exactly (``acc[1]`` kept in ``[0, 2**40)``)."""
    low = acc[1] + value
    carry = low >> 40
    acc[0] += carry
    acc[1] = low - (carry << 40)


@nb.njit(cache=True, nogil=True)
def multisets(caps: Any, k: Any, out: Any) -> Any:  # pragma: no cover - compiled
    """Fill ``out`` with every multiset of ``k`` ranks (as 13 counts) with count ``<= caps``;
    return how many."""
    counts = np.zeros(13, dtype=np.int64)
    n = 0
    # odometer over non-decreasing rank sequences r_0 <= r_1 <= ... <= r_{k-1}
    seq = np.zeros(k, dtype=np.int64)
    while True:
        for r in range(13):
            counts[r] = 0
        ok = True
        for j in range(k):
            counts[seq[j]] += 1
            if counts[seq[j]] > caps[seq[j]]:
                ok = False
        if ok:
            for r in range(13):
                out[n, r] = counts[r]
            n += 1
        j = k - 1
        while j >= 0 and seq[j] == 12:
            j -= 1
        if j < 0:
            break
        seq[j] += 1
        for i in range(j + 1, k):
            seq[i] = seq[j]
    return n


@nb.njit(cache=True, nogil=True)
def nonflush_value(counts: Any, tab: Any) -> Any:  # pragma: no cover - compiled
    """The value of five cards with these rank counts and no flush."""
    ids = np.empty(5, dtype=np.int64)
    j = 0
    distinct = True
    for r in range(13):
        if counts[r] > 1:
            distinct = False
    for r in range(13):
        for c in range(counts[r]):
            suit = (j % 4) if distinct else c
            ids[j] = 4 * r + suit
            j += 1
    return value_of(ids, 5, tab)


@nb.njit(cache=True, nogil=True)
def _suit_choices() -> Any:  # pragma: no cover - compiled
    """``subs[avail, size, i]``: the i-th subset of ``size`` suits of the 4-bit mask
    ``avail``; ``nsubs[avail, size]`` how many."""
    subs = np.zeros((16, 5, 6), dtype=np.int64)
    nsubs = np.zeros((16, 5), dtype=np.int64)
    for avail in range(16):
        for m in range(16):
            if m & avail == m:
                size = 0
                for s in range(4):
                    size += (m >> s) & 1
                subs[avail, size, nsubs[avail, size]] = m
                nsubs[avail, size] += 1
    return subs, nsubs


@nb.njit(cache=True, nogil=True)
def _rank_part(
    a: Any,
    totals: Any,
    v: Any,
    m: Any,
    rules: Any,
    scale: Any,
    vt: Any,
    ds: Any,
    outcomes: Any,
    cards: Any,
    counts: Any,
) -> Any:  # pragma: no cover - compiled
    """``(total, strong)``: the rank-level numerator of a state of value ``v`` (times
    ``scale``), buying by ranks included when it can pay (``strong``)."""
    vt_cat, vt_ranks, _ = vt
    win = 2 * m + rules[0]
    below, _, above = versus(a, vt_cat[v], vt_ranks[v], totals)
    total = (win * below - 3 * above + totals[8]) * scale
    strong = win >= 3
    if strong:
        total += buy_ranks(a, v, win, rules[1], rules[2] != 0, scale, ds, outcomes, cards, counts)[
            0
        ]
    return total, strong


@nb.njit(cache=True, nogil=True)
def _suit_part(
    a: Any,
    suits: Any,
    v: Any,
    m: Any,
    not_qualified: Any,
    hands: Any,
    strong: Any,
    rules: Any,
    scale: Any,
    vt: Any,
    mt: Any,
    ds: Any,
    outcomes: Any,
    cards: Any,
    counts: Any,
) -> Any:  # pragma: no cover - compiled
    """The per-suit corrections and insurance of one state (see :mod:`._state`)."""
    vt_cat, vt_ranks, vt_mask = vt
    mt_ak, mt_nq, mt_str, _ = mt
    win = 2 * m + rules[0]
    category = vt_cat[v]
    f = vt_ranks[v]
    net = 0
    nq = not_qualified
    for s in range(4):
        net += flush_correction(suits[s], category, f, vt_mask[v], win, mt_ak, mt_nq, mt_str)
        nq -= mt_nq[suits[s]]
    total = net * scale
    if category >= TRIPS:
        edge = 2 * nq - hands
        if edge > 0:
            total += 2 * m * edge * scale
    if strong:
        total += buy_suits(
            a, suits, v, win, rules[1], rules[2] != 0, scale, ds, outcomes, cards, counts
        )[0]
    return total


@nb.njit(cache=True, nogil=True)
def exchange_sums(
    hand: Any,
    discard: Any,
    deck: Any,
    tab: Any,
    m5: Any,
    rules: Any,
    scale: Any,
    vt: Any,
    mt: Any,
    ds: Any,
    acc: Any,
) -> Any:  # pragma: no cover - compiled
    """Add to ``acc`` (two words) the sum over every draw of ``max(state, -1) - 1`` for the
    exchange of the cards in bit mask ``discard`` of ``hand``; return ``(draws, hands)``."""
    seen = np.int64(0)
    for j in range(5):
        seen |= np.int64(1) << hand[j]
    a0 = np.zeros(13, dtype=np.int64)
    suits0 = np.zeros(4, dtype=np.int64)
    left = availability(seen, deck, a0, suits0)
    kept_counts = np.zeros(13, dtype=np.int64)
    kept_suit = -2  # -2: nothing kept yet; -1: kept cards of two suits
    k = 0
    for j in range(5):
        if (discard >> j) & 1:
            k += 1
        else:
            kept_counts[hand[j] >> 2] += 1
            s = hand[j] & 3
            kept_suit = s if (kept_suit == -2 or kept_suit == s) else -1
    avail_suits = np.zeros(13, dtype=np.int64)  # 4-bit masks of suits left per rank
    for r in range(13):
        for s in range(4):
            if (suits0[s] >> r) & 1:
                avail_suits[r] |= 1 << s
    remaining = left - k
    hands = remaining * (remaining - 1) * (remaining - 2) * (remaining - 3) * (remaining - 4)
    hands //= 120
    fold = hands * scale
    subs, nsubs = _suit_choices()
    patterns = np.zeros((6175, 13), dtype=np.int64)
    npat = multisets(a0, k, patterns)
    a = np.zeros(13, dtype=np.int64)
    totals = np.zeros(11, dtype=np.int64)
    final = np.zeros(13, dtype=np.int64)
    sets = ds[0].shape[0]
    outcomes = np.zeros((2, sets), dtype=np.int64)
    cards = np.zeros((2, sets), dtype=np.int64)
    counts = np.zeros((2, sets), dtype=np.int64)
    suits = np.zeros(4, dtype=np.int64)
    ranks = np.zeros(5, dtype=np.int64)
    choice = np.zeros(5, dtype=np.int64)
    draws = 0
    for p in range(npat):
        distinct = True
        for r in range(13):
            a[r] = a0[r] - patterns[p, r]
            final[r] = kept_counts[r] + patterns[p, r]
            if final[r] > 1:
                distinct = False
        category_totals(a, totals)
        v = nonflush_value(final, tab)
        rank_total, strong = _rank_part(
            a, totals, v, m5[v], rules, scale, vt, ds, outcomes[0], cards[0], counts[0]
        )
        fmask = 0
        for r in range(13):
            if final[r]:
                fmask |= 1 << r
        v_fl = tab[6][fmask] if distinct else 0
        fl_done = False
        fl_total = 0
        fl_strong = False
        # the ranks drawn and the suits each may take
        nr = 0
        for r in range(13):
            if patterns[p, r]:
                ranks[nr] = r
                choice[nr] = 0
                nr += 1
        group = 0
        while True:
            for s in range(4):
                suits[s] = suits0[s]
            one_suit = -2
            for j in range(nr):
                r = ranks[j]
                sm = subs[avail_suits[r], patterns[p, r], choice[j]]
                for s in range(4):
                    if (sm >> s) & 1:
                        suits[s] &= ~(1 << r)
                        one_suit = s if (one_suit == -2 or one_suit == s) else -1
            flush = distinct and one_suit >= 0 and (kept_suit == -2 or kept_suit == one_suit)
            if flush:
                if not fl_done:
                    fl_total, fl_strong = _rank_part(
                        a,
                        totals,
                        v_fl,
                        m5[v_fl],
                        rules,
                        scale,
                        vt,
                        ds,
                        outcomes[1],
                        cards[1],
                        counts[1],
                    )
                    fl_done = True
                value = fl_total + _suit_part(
                    a,
                    suits,
                    v_fl,
                    m5[v_fl],
                    totals[8],
                    hands,
                    fl_strong,
                    rules,
                    scale,
                    vt,
                    mt,
                    ds,
                    outcomes[1],
                    cards[1],
                    counts[1],
                )
            else:
                value = rank_total + _suit_part(
                    a,
                    suits,
                    v,
                    m5[v],
                    totals[8],
                    hands,
                    strong,
                    rules,
                    scale,
                    vt,
                    mt,
                    ds,
                    outcomes[0],
                    cards[0],
                    counts[0],
                )
            group += max(value, -fold) - fold
            draws += 1
            # next suit choice (odometer)
            j = nr - 1
            while j >= 0:
                choice[j] += 1
                if choice[j] < nsubs[avail_suits[ranks[j]], patterns[p, ranks[j]]]:
                    break
                choice[j] = 0
                j -= 1
            if j < 0:
                break
        add2(acc, group)
    return draws, hands


@nb.njit(cache=True, nogil=True)
def sixth_sums(
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
) -> Any:  # pragma: no cover - compiled
    """As :func:`exchange_sums` for the sixth card."""
    seen = np.int64(0)
    final = np.zeros(6, dtype=np.int64)
    for j in range(5):
        seen |= np.int64(1) << hand[j]
        final[j] = hand[j]
    draws = 0
    hands = 1
    for c in range(52):
        if not (deck >> c) & 1 or (seen >> c) & 1:
            continue
        final[5] = c
        v = value_of(final, 6, tab)
        m = multiple_of(final, 6, pays, rules[3] != 0)
        t, hands = state_total(v, m, seen | (np.int64(1) << c), deck, rules, scale, vt, mt, ds)
        fold = hands * scale
        add2(acc, max(t, -fold) - fold)
        draws += 1
    return draws, hands
