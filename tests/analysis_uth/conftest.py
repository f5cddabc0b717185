"""An independent brute force of Ultimate Texas Hold'em for small decks (pure Python).

Plain nested loops over player hand, flop, turn+river and dealer hand, values from the scalar
evaluator, backward induction written out; no sorting, card removal or suit isomorphism.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cache
from itertools import combinations
from math import lcm

import pytest

from croupier.analysis.uth.paytables import PayTable, ratio
from croupier.evaluator import HandCategory, category_of, evaluate_ids

BruteForce = Callable[
    ...,
    tuple[Fraction, dict[tuple[int, int], tuple[Fraction, Fraction, Fraction]], list[int]],
]


@pytest.fixture(scope="session")
def brute() -> BruteForce:
    """The brute force below, as a fixture (test modules here cannot import each other)."""
    return brute_force


def brute_force(
    deck: list[int],
    blind: PayTable,
    preflop: tuple[int, ...] = (4, 3),
    flop: tuple[int, ...] = (2,),
    river: tuple[int, ...] = (1,),
) -> tuple[Fraction, dict[tuple[int, int], tuple[Fraction, Fraction, Fraction]], list[int]]:
    """EV per Ante of optimal play with the given Play multiples, per player hand (EV 4x,
    3x, check), final-hand categories."""
    deck = sorted(deck)
    scale = lcm(*(den for _, den in blind.values()))
    river_m = river
    pay = {c: int(ratio(blind, c) * scale) for c in HandCategory}

    @cache
    def value(cards: tuple[int, ...]) -> int:
        return evaluate_ids(list(cards))

    per_hand = {}
    cats = [0] * len(HandCategory)
    total = Fraction(0)
    for hole in combinations(deck, 2):
        rest1 = [c for c in deck if c not in hole]
        pre = {4, 3, *preflop}
        sums_pre = dict.fromkeys(pre, 0)
        check = 0
        deals = 0
        for flop_cards in combinations(rest1, 3):
            rest2 = [c for c in rest1 if c not in flop_cards]
            sums2 = dict.fromkeys(flop, 0)
            river = 0
            for tr in combinations(rest2, 2):
                board = flop_cards + tr
                rest3 = [c for c in rest2 if c not in tr]
                pv = value(tuple(sorted(hole + board)))
                bonus = pay[category_of(pv)]
                cats[category_of(pv)] += len(rest3) * (len(rest3) - 1) // 2
                ev = dict.fromkeys({1, 2, 3, 4, *preflop, *flop, *river_m}, 0)
                dealers = 0
                for dealer in combinations(rest3, 2):
                    dv = value(tuple(sorted(dealer + board)))
                    qualifies = category_of(dv) != HandCategory.HIGH_CARD
                    dealers += 1
                    for m in ev:
                        if pv > dv:  # spec/uth.md "Showdown" settlement table
                            ev[m] += (scale if qualifies else 0) + m * scale + bonus
                        elif pv < dv:
                            ev[m] -= (scale if qualifies else 0) + m * scale + scale
                for m in flop:
                    sums2[m] += ev[m]
                river += max(*(ev[m] for m in river_m), -2 * scale * dealers)
                for m in pre:
                    sums_pre[m] += ev[m]
                deals += dealers
            check += max(river, *(sums2[m] for m in flop))
        evs = (
            Fraction(sums_pre[4], deals * scale),
            Fraction(sums_pre[3], deals * scale),
            Fraction(check, deals * scale),
        )
        per_hand[hole] = evs
        total += max(evs[2], *(Fraction(sums_pre[m], deals * scale) for m in preflop))
    return total / len(per_hand), per_hand, cats
