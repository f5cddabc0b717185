"""The advisor against brute force, the shipped tables and the exact run."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest

from croupier.analysis.uth import DEFAULT_BLIND, analyze_exact
from croupier.analysis.uth._symmetry import deck_symmetry
from croupier.analysis.uth.advisor import advise
from croupier.analysis.uth.paytables import ratio
from croupier.analysis.uth.strategy import load_flop_bet, load_preflop
from croupier.cards import cards_from_ids, parse_cards
from croupier.errors import ConfigError, InvalidCardsError
from croupier.evaluator import HandCategory, category_of, evaluate_batch, evaluate_ids


def _river_brute(hole: list[int], board: list[int]) -> Fraction:
    """EV of Play 1x by the settlement table, over every dealer hand (pure Python)."""
    pv = evaluate_ids(hole + board)
    bonus = ratio(DEFAULT_BLIND, category_of(pv))
    rest = [c for c in range(52) if c not in hole + board]
    total = Fraction(0)
    for dealer in combinations(rest, 2):
        dv = evaluate_ids(list(dealer) + board)
        q = category_of(dv) != HandCategory.HIGH_CARD
        if pv > dv:
            total += (1 if q else 0) + 1 + bonus
        elif pv < dv:
            total -= (1 if q else 0) + 2
    return total / 990


def _flop_brute(hole: list[int], flop: list[int]) -> tuple[Fraction, Fraction]:
    """EV of 2x and of checking (then the best river action), with evaluate_batch."""
    rest = np.array([c for c in range(52) if c not in hole + flop])
    ev2 = check = Fraction(0)
    pairs = np.array(list(combinations(range(45), 2)))
    for t, r in combinations(range(47), 2):
        board = [*flop, int(rest[t]), int(rest[r])]
        dealers = np.delete(rest, [t, r])[pairs]
        pv = evaluate_ids(hole + board)
        dv = evaluate_batch(np.hstack([dealers, np.tile(board, (990, 1))]))
        q = dv >= 1278
        win, lose = dv < pv, dv > pv
        bonus = ratio(DEFAULT_BLIND, category_of(pv))
        base = int((win & q).sum()) - int((lose & q).sum()) - int(lose.sum())
        base_frac = base + bonus * int(win.sum())
        diff = int(win.sum()) - int(lose.sum())
        ev2 += base_frac + 2 * diff
        check += max(base_frac + diff, Fraction(-2 * 990))
    return ev2 / (1081 * 990), check / (1081 * 990)


def test_river_matches_brute_force() -> None:
    rng = random.Random(8)
    for _ in range(6):
        ids = rng.sample(range(52), 7)
        advice = advise(cards_from_ids(ids[:2]), cards_from_ids(ids[2:]))
        assert advice.street == "river"
        assert {o.action: o.ev for o in advice.options} == {
            "1x": _river_brute(ids[:2], ids[2:]),
            "fold": -2,
        }


def test_flop_matches_brute_force() -> None:
    for hole, flop in (("9h8h", "Th2h3c"), ("Jc9d", "Jh5s2c")):
        advice = advise(hole, flop)
        ids = [c.id for c in parse_cards(hole)], [c.id for c in parse_cards(flop)]
        ev2, check = _flop_brute(*ids)
        assert advice.street == "flop"
        assert {o.action: o.ev for o in advice.options} == {"2x": ev2, "check": check}


def test_flop_decisions_equal_the_exact_table() -> None:
    sym = deck_symmetry(tuple(range(52)))
    table = load_flop_bet()
    rng = random.Random(4)
    for _ in range(25):
        ids = rng.sample(range(52), 5)
        hole, flop = ids[:2], sorted(ids[2:])
        slot = flop[0] * 2704 + flop[1] * 52 + flop[2]
        q = sym.pair_perm[sym.flop_perm[slot], sym.pair_index[hole[0], hole[1]]]
        expected = "2x" if table[sym.flop_class[slot], q] else "check"
        advice = advise(cards_from_ids(hole), cards_from_ids(flop))
        evs = {o.action: o.ev for o in advice.options}
        if evs["2x"] != evs["check"]:
            assert advice.best == expected


def test_preflop_equals_the_exact_table() -> None:
    for entry in load_preflop():
        rank = {"A": "A", "K": "K"}.get(entry.hand[0], entry.hand[0])
        second = entry.hand[1]
        suits = ("s", "s") if entry.hand.endswith("s") else ("s", "h")
        advice = advise(f"{rank}{suits[0]}{second}{suits[1]}")
        assert [(o.action, o.ev) for o in advice.options] == [
            ("4x", entry.ev_4x),
            ("3x", entry.ev_3x),
            ("check", entry.ev_check),
        ]
        assert advice.best == entry.decision


def test_preflop_from_a_reduced_exact_run() -> None:
    exact = analyze_exact(deck=[c for c in range(52) if c // 4 >= 10])
    advice = advise("AsKd", exact=exact)
    entry = next(e for e in exact.preflop if e.hand == "AKo")
    assert advice.options[0].ev == entry.ev_4x


def test_bad_questions() -> None:
    with pytest.raises(InvalidCardsError):
        advise("AsKs", "2c3c")
    with pytest.raises(InvalidCardsError):
        advise("AsAs")
    with pytest.raises(InvalidCardsError):
        advise("As", "2c3c4c")
    with pytest.raises(ConfigError):
        advise("AsKs", blind={HandCategory.FLUSH: (2, 1)})
