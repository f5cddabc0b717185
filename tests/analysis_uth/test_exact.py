"""The exact analysis against an independent brute force (small decks) and published figures."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from croupier.analysis.uth import DEFAULT_BLIND, DEFAULT_TRIPS, analyze_exact
from croupier.analysis.uth._symmetry import class_name, deck_symmetry, hand_class
from croupier.analysis.uth.exact import trips_return
from croupier.analysis.uth.strategy import load_flop_bet, load_preflop, load_summary
from croupier.errors import ConfigError
from croupier.evaluator import HandCategory
from croupier.games.uth.config import PlayMultiples

DEFAULT_TRIPS_RATIOS = DEFAULT_TRIPS

THREE_RANKS = [c for c in range(52) if c // 4 >= 10]  # Q, K, A of every suit
HALF_TABLE = {
    HandCategory.FOUR_OF_A_KIND: (5, 4),
    HandCategory.FULL_HOUSE: (3, 2),
}
# The largest pay the 64-bit counting allows with whole ratios: 6 + 99,994 = 100,000 units.
NEAR_BOUND = {**DEFAULT_BLIND, HandCategory.ROYAL_FLUSH: (99_994, 1), HandCategory.FLUSH: (3, 1)}


@pytest.mark.parametrize(
    "blind", [DEFAULT_BLIND, HALF_TABLE, NEAR_BOUND], ids=["spec", "quarter-units", "near-bound"]
)
def test_small_deck_matches_brute_force(
    blind: dict[HandCategory, tuple[int, int]], brute: Any
) -> None:
    result = analyze_exact(deck=THREE_RANKS, blind=blind)
    ev, per_hand, cats = brute(THREE_RANKS, blind)
    assert result.ev_per_ante == ev
    by_class = {e.hand: e for e in result.preflop}
    for (a, b), (ev4, ev3, check) in per_hand.items():
        entry = by_class[class_name(hand_class(a, b))]
        assert (entry.ev_4x, entry.ev_3x, entry.ev_check) == (ev4, ev3, check)
    assert result.deals == sum(cats)
    assert result.trips == trips_return(cats)
    assert sum(o.probability for o in result.outcomes) == 1
    assert result.ante + result.blind + result.play == result.ev_per_ante


def test_suit_classes_of_the_full_deck() -> None:
    from croupier.analysis.uth._symmetry import board_classes

    sym = deck_symmetry(tuple(range(52)))
    boards, weights = board_classes(tuple(range(52)))
    assert len(boards) == 134_459  # notes/performance.md
    assert int(weights.sum()) == 2_598_960
    assert len(sym.flop_weight) == 1755 and int(sym.flop_weight.sum()) == 22_100
    assert np.bincount(sym.pair_class, minlength=169).tolist().count(6) == 13


def test_bad_inputs() -> None:
    with pytest.raises(ConfigError):
        analyze_exact(deck=[0, 1, 2, 3, 4, 5, 6, 7, 8])  # not whole ranks... 8 is a new rank
    with pytest.raises(ConfigError):
        analyze_exact(blind={HandCategory.FLUSH: (3, 0)})


def test_a_blind_table_beyond_64_bits_is_refused() -> None:
    """A Blind line of 10^15:1 overflowed the analysis' 64-bit sums (its two passes then
    disagreed); such tables are refused before any work, naming the bound."""
    from croupier.analysis.uth.moments import blind_key
    from croupier.analysis.uth.paytables import EXACT_UNITS_MAX

    huge = {**DEFAULT_BLIND, HandCategory.ROYAL_FLUSH: (10**15, 1)}
    with pytest.raises(ConfigError, match="64-bit"):
        analyze_exact(deck=THREE_RANKS, blind=huge)
    with pytest.raises(ConfigError, match=str(EXACT_UNITS_MAX)):
        blind_key(huge)
    # denominators whose least common multiple is large are refused the same way
    odd = {HandCategory.FLUSH: (3, 7), HandCategory.STRAIGHT: (2, 11), HandCategory.FULL_HOUSE: (5, 13),
           HandCategory.FOUR_OF_A_KIND: (7, 17), HandCategory.STRAIGHT_FLUSH: (11, 19)}  # fmt: skip
    with pytest.raises(ConfigError, match="lcm"):
        blind_key(odd)
    over = {**NEAR_BOUND, HandCategory.ROYAL_FLUSH: (99_995, 1)}
    with pytest.raises(ConfigError):
        blind_key(over)
    blind_key(NEAR_BOUND)


def test_trips_from_seven_card_counts() -> None:
    # the 133,784,560 seven-card hands by category (royal flush apart)
    counts = [23294460, 58627800, 31433400, 6461620, 6180020, 4047644, 3473184, 224848, 37260, 4324]
    assert trips_return(counts) == Fraction(6455243, 6689228)
    assert round(float(trips_return(counts)), 5) == 0.96502  # spec/uth.md: 96.50 %


def test_shipped_figures_are_the_published_ones() -> None:
    summary = load_summary()
    ev = Fraction(str(summary["ev_per_ante"]))
    bet = Fraction(str(summary["average_total_bet"]))
    assert round(float(-ev), 5) == 0.02185  # house edge 2.185 % per Ante
    assert round(float(1 + ev), 4) == 0.9782
    assert round(float(1 + ev / bet), 4) == 0.9947  # element of risk 0.53 %
    assert round(float(Fraction(str(summary["trips"]))), 4) == 0.9650


def _published_4x(hand: str) -> bool:
    """notes/performance.md: 3-3+, any suited A or K, Q6s+, J8s+, any offsuit A, K5o+, Q8o+, JTo."""
    order = "23456789TJQKA"
    if len(hand) == 2:
        return order.index(hand[0]) >= 1
    hi, lo, kind = order.index(hand[0]), order.index(hand[1]), hand[2]
    minimum = {"s": {12: 0, 11: 0, 10: 4, 9: 6}, "o": {12: 0, 11: 3, 10: 6, 9: 8}}[kind]
    return hi in minimum and lo >= minimum[hi]


def test_shipped_preflop_strategy_is_the_published_one() -> None:
    entries = load_preflop()
    assert len(entries) == 169
    for e in entries:
        assert (e.decision == "4x") == _published_4x(e.hand), e.hand
        assert e.decision != "3x"
    # the table's EVs add up to the shipped EV per Ante (hands weighted 6 / 4 / 12)
    total = sum(
        max(e.ev_4x, e.ev_3x, e.ev_check)
        * (6 if len(e.hand) == 2 else 4 if e.hand[2] == "s" else 12)
        for e in entries
    )
    assert total / 1326 == Fraction(str(load_summary()["ev_per_ante"]))


def test_shipped_flop_table_shape() -> None:
    table = load_flop_bet()
    assert table.shape == (1755, 1326)
    assert 0.2 < table.mean() < 0.6


@pytest.mark.slow
def test_full_run_reproduces_published_figures() -> None:
    result = analyze_exact()
    assert round(float(result.house_edge), 5) == 0.02185
    assert round(float(result.return_per_ante), 4) == 0.9782
    assert round(float(result.element_of_risk), 4) == 0.0053
    assert round(float(result.return_per_total_bet), 4) == 0.9947
    assert round(float(result.trips), 4) == 0.9650
    assert result.deals == 1326 * 19600 * 1081 * 990
    for e in result.preflop:
        assert (e.decision == "4x") == _published_4x(e.hand), e.hand
    # the shipped strategy is this run's
    assert result.preflop == load_preflop()
    assert str(result.ev_per_ante) == load_summary()["ev_per_ante"]
    assert (result.flop_bet.astype(np.uint8) == load_flop_bet()).all()


def test_public_names() -> None:
    import croupier.analysis.uth as uth

    assert uth.__all__ == sorted(uth.__all__, key=lambda n: (not n.isupper(), n))
    for name in uth.__all__:
        assert hasattr(uth, name)


@pytest.mark.parametrize(
    "multiples",
    [
        PlayMultiples(preflop=(3,)),
        PlayMultiples(preflop=(2,), flop=(2, 1), river=(1,)),
        PlayMultiples(preflop=(5,), flop=(3,), river=(2, 1)),
    ],
    ids=["3x-only", "2x-flop2x1x", "5x-3x-2x1x"],
)
def test_other_play_multiples_match_brute_force(multiples: PlayMultiples, brute: Any) -> None:
    """docs/rules.md play_multiples: the exact analysis against the brute force on a small deck."""
    result = analyze_exact(deck=THREE_RANKS, multiples=multiples)
    ev, per_hand, _ = brute(
        THREE_RANKS,
        DEFAULT_BLIND,
        preflop=multiples.preflop,
        flop=multiples.flop,
        river=multiples.river,
    )
    assert result.ev_per_ante == ev
    spec = analyze_exact(deck=THREE_RANKS)
    assert result.ev_per_ante != spec.ev_per_ante
    by_class = {e.hand: e for e in result.preflop}
    for (a, b), (ev4, ev3, check) in per_hand.items():
        entry = by_class[class_name(hand_class(a, b))]
        assert (entry.ev_4x, entry.ev_3x, entry.ev_check) == (ev4, ev3, check)
        assert entry.decision == "check" or int(entry.decision[:-1]) in multiples.preflop
    assert sum(o.probability for o in result.outcomes) == 1
    assert {o.path for o in result.outcomes} <= {
        "fold",
        *(f"{m}x" for m in (*multiples.preflop, *multiples.flop, *multiples.river)),
    }
    assert result.ante + result.blind + result.play == result.ev_per_ante


def test_trips_that_need_a_win_against_brute_force(brute: Any) -> None:
    """UthConfig trips_needs_win: Trips pays only on a win, pushes otherwise."""
    result = analyze_exact(deck=THREE_RANKS)
    net = Fraction(0)
    for o in result.outcomes:
        if o.hand < HandCategory.THREE_OF_A_KIND:
            net -= o.probability
        elif o.result == "won":
            net += o.probability * Fraction(*DEFAULT_TRIPS_RATIOS[o.hand])
    assert result.trips_needs_win == 1 + net
    assert result.trips_needs_win < result.trips
