"""Bounds on an exchange's value without visiting its draws one by one.

Per suit, the flush-suited corrections of a state (:func:`._state.flush_correction`) are
sums of counts of five-rank subsets of that suit's available ranks, each term growing or
shrinking with the mask; a draw only removes ranks from the masks. So every draw of a rank
pattern ``x`` lies between the masks left by the first hand (``amax``) and those with all
of ``x``'s ranks removed (``amin``), which bounds its value term by term; buying's per-suit
corrections are bounded by ``gain_max`` and ``lift_max`` times the number of dealer hands
they concern. :func:`exchange_bounds` does this per class, :func:`p_option_bounds` for every
class of a first-hand rank multiset at once (all masks possible).
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np

from croupier.analysis.russian._ranks import FLUSH, HC, STRAIGHT, TRIPS, _popcount
from croupier.analysis.russian._ranktable import BOUGHT, FL, GMAX, LMAX, STRONG, TOT, M, V
from croupier.analysis.russian._state import availability, flush_correction

__all__: list[str] = []


@nb.njit(cache=True, nogil=True)
def _weak_coefficients(v: Any, win: Any, vt: Any) -> Any:  # pragma: no cover - compiled
    """``(fast, alpha, beta)``: a final hand whose flush correction is
    ``alpha * ace_king + beta * not_qualified`` per suit (pairs to trips, and a high card
    without Ace-King), or ``fast`` False."""
    category = vt[0][v]
    f = vt[1][v]
    if category == HC and not (f[0] == 12 and f[1] == 11):
        return True, 0, -4
    if HC < category < STRAIGHT:
        return True, -(3 + win), -4
    return False, 0, 0


@nb.njit(cache=True, nogil=True)
def fc_parts(
    mask: Any, category: Any, f: Any, rank_mask: Any, win: Any, mt: Any
) -> Any:  # pragma: no cover - compiled
    """:func:`._state.flush_correction` split into a part that grows with the suit's mask
    and a part that shrinks, so that bounds over a range of masks are term by term."""
    mt_ak, mt_nq, mt_str, _ = mt
    whole = flush_correction(mask, category, f, rank_mask, win, mt_ak, mt_nq, mt_str)
    if category <= STRAIGHT:
        return 0, whole
    nq = mt_nq[mask]
    if category == FLUSH:
        straights = mt_str[mask]
        count = 0
        for j in range(10):
            count += (straights >> j) & 1
        dec = -(3 + win) * mt_ak[mask] - 4 * nq - (3 + win) * count
        return whole - dec, dec
    inc = (win - 1) * nq
    return inc, whole - inc


@nb.njit(cache=True, nogil=True)
def state_bounds(
    row: Any,
    at: Any,
    nq_rank: Any,
    hands: Any,
    amin: Any,
    amax: Any,
    k0: Any,
    rules: Any,
    scale: Any,
    vt: Any,
    mt: Any,
) -> Any:  # pragma: no cover - compiled
    """Bounds on the value (numerator) of every state of a draw group whose suit masks lie
    between ``amin`` and ``amax``; ``k0`` bounds the kept-suited dealer hands."""
    vt_cat, vt_ranks, vt_mask = vt
    mt_ak, mt_nq, _, _ = mt
    v = row[at + V]
    m = row[at + M]
    win = 2 * m + rules[0]
    category = vt_cat[v]
    f = vt_ranks[v]
    lo = 0
    hi = 0
    nq_max = 0
    nq_min = 0
    fast, alpha, beta = _weak_coefficients(v, win, vt)
    if fast:
        for s in range(4):
            lo += alpha * mt_ak[amax[s]] + beta * mt_nq[amax[s]]
            hi += alpha * mt_ak[amin[s]] + beta * mt_nq[amin[s]]
            nq_max += mt_nq[amax[s]]
            nq_min += mt_nq[amin[s]]
    else:
        for s in range(4):
            inc_lo, dec_hi = fc_parts(amin[s], category, f, vt_mask[v], win, mt)
            inc_hi, dec_lo = fc_parts(amax[s], category, f, vt_mask[v], win, mt)
            lo += inc_lo + dec_lo
            hi += inc_hi + dec_hi
            nq_max += mt_nq[amax[s]]
            nq_min += mt_nq[amin[s]]
    lo = row[at + TOT] + lo * scale
    hi = row[at + TOT] + hi * scale
    if category >= TRIPS:
        edge = 2 * (nq_rank - nq_max) - hands
        if edge > 0:
            lo += 2 * m * edge * scale
        edge = 2 * (nq_rank - nq_min) - hands
        if edge > 0:
            hi += 2 * m * edge * scale
    if row[at + STRONG]:
        lo -= row[at + GMAX] * (nq_max + k0)
        hi += row[at + LMAX] * k0
        if not row[at + BOUGHT]:
            hi += row[at + GMAX] * nq_rank
    return lo, hi


@nb.njit(cache=True, nogil=True)
def class_suits(hand: Any, deck: Any, a0: Any, suits0: Any, avail: Any) -> Any:
    # pragma: no cover - compiled
    """The class's unseen cards: counts per rank, ranks per suit, suits per rank."""
    seen = np.int64(0)
    for j in range(5):
        seen |= np.int64(1) << hand[j]
    left = availability(seen, deck, a0, suits0)
    for r in range(13):
        avail[r] = 0
        for s in range(4):
            if (suits0[s] >> r) & 1:
                avail[r] |= 1 << s
    return left


@nb.njit(cache=True, nogil=True)
def kept_info(hand: Any, discard: Any, ranks: Any, mult: Any, radix: Any) -> Any:
    # pragma: no cover - compiled
    """``(code, kept_suit, k)``: the kept sub-multiset's code, the suit of every kept card
    (-2 none kept, -1 several suits) and the number of cards drawn."""
    code = 0
    kept_suit = -2
    k = 0
    for j in range(5):
        if (discard >> j) & 1:
            k += 1
            continue
        r = hand[j] >> 2
        for i in range(5):
            if mult[i] and ranks[i] == r:
                code += radix[i]
        s = hand[j] & 3
        kept_suit = s if (kept_suit == -2 or kept_suit == s) else -1
    return code, kept_suit, k


@nb.njit(cache=True, nogil=True)
def _choose(n: Any, k: Any) -> Any:  # pragma: no cover - compiled
    if k < 0 or k > n:
        return 0
    b = 1
    for j in range(k):
        b = b * (n - j) // (j + 1)
    return b


@nb.njit(cache=True, nogil=True)
def kept_suited_bound(a: Any, suits: Any, kt: Any) -> Any:  # pragma: no cover - compiled
    """The number of non-qualifying dealer hands whose four lower cards share a suit."""
    total = 0
    for s in range(4):
        sm = suits[s]
        for t in range(13):
            tops = a[t] - ((sm >> t) & 1)
            if tops > 0:
                total += tops * kt[sm, t]
    return total


@nb.njit(cache=True, nogil=True)
def exchange_bounds(
    code: Any,
    kept_suit: Any,
    k: Any,
    suits0: Any,
    avail: Any,
    xs: Any,
    xoff: Any,
    xnq: Any,
    entries: Any,
    eoff: Any,
    hands: Any,
    k0: Any,
    rules: Any,
    scale: Any,
    vt: Any,
    mt: Any,
) -> Any:  # pragma: no cover - compiled
    """``(lo, hi, draws)``: bounds (floats: totals over ``hands * scale``, summed over the
    draws) on the total of one class's exchange with kept sub-multiset ``code``."""
    fold = hands * scale
    amin = np.zeros(4, dtype=np.int64)
    amax = np.zeros(4, dtype=np.int64)
    lo = 0.0
    hi = 0.0
    draws = 0
    for ix in range(xoff[k], xoff[k + 1]):
        row = entries[eoff[code] + ix - xoff[k]]
        xm = 0
        count = 1
        for r in range(13):
            if xs[ix, r]:
                xm |= 1 << r
                count *= _choose(_popcount(avail[r]), xs[ix, r])
        if count == 0:
            continue
        draws += count
        for s in range(4):
            amax[s] = suits0[s]
            amin[s] = suits0[s] & ~xm
        flushes = 0
        if row[FL + V]:
            for s in range(4):
                if (kept_suit == -2 or kept_suit == s) and suits0[s] & xm == xm:
                    flushes += 1
        if flushes:
            fl_lo, fl_hi = state_bounds(
                row, FL, xnq[ix], hands, amin, amax, k0, rules, scale, vt, mt
            )
            lo += flushes * float(max(fl_lo, -fold) - fold)
            hi += flushes * float(max(fl_hi, -fold) - fold)
        v_lo, v_hi = state_bounds(row, 0, xnq[ix], hands, amin, amax, k0, rules, scale, vt, mt)
        n = count - flushes
        lo += n * float(max(v_lo, -fold) - fold)
        hi += n * float(max(v_hi, -fold) - fold)
    return lo, hi, draws


@nb.njit(cache=True, nogil=True)
def p_option_bounds(
    n_kappa: Any,
    a0: Any,
    xs: Any,
    xoff: Any,
    xnq: Any,
    entries: Any,
    eoff: Any,
    sizes: Any,
    rules: Any,
    scales: Any,
    vt: Any,
    mt: Any,
    kt: Any,
    out: Any,
) -> None:  # pragma: no cover - compiled
    """``out[c]``: an upper bound, valid for every class of the first-hand rank multiset,
    on the value (Antes) of the exchange keeping sub-multiset ``c`` (``sizes[c]`` cards)."""
    amin = np.zeros(4, dtype=np.int64)
    amax = np.full(4, 8191, dtype=np.int64)
    atot = 0
    for r in range(13):
        atot += a0[r]
    k0 = 0  # kept-suited dealer hands, four suits, every rank available
    for t in range(13):
        k0 += 4 * a0[t] * kt[8191, t]
    for c in range(n_kappa):
        k = 5 - sizes[c]
        if k == 0:
            out[c] = np.inf
            continue
        rest = atot - k
        hands = rest * (rest - 1) * (rest - 2) * (rest - 3) * (rest - 4) // 120
        scale = scales[k]
        fold = hands * scale
        hi = 0.0
        draws = 0
        for ix in range(xoff[k], xoff[k + 1]):
            row = entries[eoff[c] + ix - xoff[k]]
            count = 1
            for r in range(13):
                if xs[ix, r]:
                    count *= _choose(a0[r], xs[ix, r])
            if count == 0:
                continue
            draws += count
            _, v_hi = state_bounds(row, 0, xnq[ix], hands, amin, amax, k0, rules, scale, vt, mt)
            c_nf = max(v_hi, -fold) - fold
            hi += count * float(c_nf)
            if row[FL + V]:
                _, f_hi = state_bounds(
                    row, FL, xnq[ix], hands, amin, amax, k0, rules, scale, vt, mt
                )
                c_fl = max(f_hi, -fold) - fold
                if c_fl > c_nf:
                    hi += 4.0 * (c_fl - c_nf)
        out[c] = hi / (float(draws) * hands * scale) if draws else -np.inf
