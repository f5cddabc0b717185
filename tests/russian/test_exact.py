"""The exact analysis against a brute force (every dealer hand and bought card, one by one)
and the brute force's settlement against the engine's.

Reduced decks (a few whole ranks, sometimes three suits) keep the brute force fast; the
exact analysis runs on them unchanged (the cards outside the deck are simply never dealt).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from croupier.analysis.russian import _brute as b
from croupier.analysis.russian import _kernels as k
from croupier.analysis.russian import _option as op
from croupier.analysis.russian import _state as st
from croupier.analysis.russian.exact import ClassSolution, exact_rules, solve
from croupier.analysis.russian.exact import _tables as exact_tables
from croupier.analysis.russian.results import summarize
from croupier.cards import DECK
from croupier.games.russian import BetKind, RussianConfig
from croupier.games.russian.rules import Draw, settle_box

RULES = [
    (0, 0, 1, 0),  # the spec: the Ante returned after a failed buy, rebuy
    (0, 1, 1, 0),  # failed_buy_ante = "paid"
    (1, 0, 0, 1),  # ante_pays_on_win, no rebuy, straight_plus_pair
]


def _deck(ranks: range | list[int], suits: tuple[int, ...] = (0, 1, 2, 3)) -> int:
    deck = 0
    for r in ranks:
        for s in suits:
            deck |= 1 << (4 * r + s)
    return deck


def _cards(deck: int) -> list[int]:
    return [c for c in range(52) if deck >> c & 1]


def _tables_for(rules: tuple[int, ...]) -> tuple[object, ...]:
    config = RussianConfig(
        ante_pays_on_win=bool(rules[0]),
        rebuy_same_rank=bool(rules[2]),
        duplicate_rank_straights="straight_plus_pair" if rules[3] else "two_straights",
    )
    return exact_tables(exact_rules(config))


@pytest.mark.parametrize("rules", RULES)
def test_state_values_equal_the_brute_force(rules: tuple[int, ...]) -> None:
    """The value of betting from random states (final hands of five or six cards, discards,
    reduced decks) by rank counts and per-suit corrections equals the brute force."""
    tab, pays, _, vt, mt, ds, _ = _tables_for(rules)
    array = np.array(rules, dtype=np.int64)
    rng = np.random.default_rng(sum(rules) + 7)
    categories = set()
    for _ in range(60):
        deck = _deck(sorted(rng.choice(13, 7, replace=False).tolist()))
        cards = _cards(deck)
        size = int(rng.choice([5, 6]))
        pick = [int(c) for c in rng.choice(cards, size + int(rng.integers(0, 5)), replace=False)]
        if rng.random() < 0.4:  # a flush, often a strong hand
            suit = [c for c in cards if c & 3 == pick[0] & 3]
            pick = [*suit[:5], *(c for c in pick if c not in suit[:5])][: len(pick)]
        final = np.array(sorted(pick[:size]), dtype=np.int64)
        dead = sum(1 << c for c in pick)
        scale = b.buy_scale(len(cards) - len(pick), rebuy=bool(rules[2]))
        brute = b.bet_total(final, size, dead, deck, tab, pays, array, scale)
        v = k.value_of(final, size, tab)
        m = k.multiple_of(final, size, pays, bool(rules[3]))
        assert st.state_total(v, m, dead, deck, array, scale, vt, mt, ds) == brute, final
        categories.add(int(np.searchsorted([1277, 4137, 4995, 5853, 5863, 7140], v)))
    assert len(categories) >= 5


def _deal(rng: np.random.Generator) -> tuple[list[int], list[int], Draw, list[int], list[int]]:
    """Random first hand, final hand, draw, dealer hand and dealer's spare cards."""
    order = [int(c) for c in rng.permutation(52)]
    initial = order[:5]
    rest = order[5:]
    kind = int(rng.integers(3))
    if kind == 0:
        final, draw = initial, Draw.NONE
    elif kind == 1:
        final, draw = [*initial, rest.pop()], Draw.SIXTH
    else:
        keep = [c for c in initial if rng.random() < 0.5]
        final = [*keep, *(rest.pop() for _ in range(5 - len(keep)))]
        draw = Draw.EXCHANGE if len(keep) < 5 else Draw.NONE
    return initial, final, draw, rest[:5], rest[5:]


@pytest.mark.parametrize("ante_pays", [False, True])
def test_the_brute_force_settles_as_the_engine(ante_pays: bool) -> None:
    """The brute force's settlement of a deal (:func:`._brute.deal_net`) is the engine's
    ``settle_box`` on random deals: stand or bought dealer's game, insurance at its most."""
    rng = np.random.default_rng(11 + ante_pays)
    seen = set()
    for name, failed in [("paid", 1), ("forfeit", 0)]:
        config = RussianConfig(max_payout=None, ante_pays_on_win=ante_pays, failed_buy_ante=name)
        assert exact_rules(config).failed_buy == failed  # the analysis reads the engine's rule
        tab, pays, *_ = exact_tables(exact_rules(config))
        array = np.array([int(ante_pays), failed, 1, 0], dtype=np.int64)
        for _ in range(3000):
            initial, final, draw, dealer, spare = _deal(rng)
            hand = [DECK[c] for c in dealer]
            qualified = settle_box(
                config=config, ante=100, initial=[DECK[c] for c in initial],
                final=[DECK[c] for c in final], draw=draw, folded=False, dealer=hand,
            ).dealer_qualified  # fmt: skip
            buy = not qualified and bool(rng.integers(2))
            draws = [c for c in spare if c >> 2 != max(dealer) >> 2]
            ids = np.array(final, dtype=np.int64)
            v = k.value_of(ids, len(final), tab)
            m = k.multiple_of(ids, len(final), pays, False)
            insurance = 2 * m if v >= b.TRIPS_MIN else 0
            settled = settle_box(
                config=config, ante=100, initial=[DECK[c] for c in initial],
                final=[DECK[c] for c in final], draw=draw, folded=False, dealer=hand,
                insurance=100 * insurance, buy=buy, dealer_draws=[DECK[c] for c in spare],
            )  # fmt: skip
            net = b.deal_net(
                ids, len(final), np.array(dealer, dtype=np.int64), buy, draws[0] if buy else 0,
                insurance, tab, pays, array,
            )  # fmt: skip
            fee = -1 if draw is not Draw.NONE else 0
            assert 100 * (net + fee) == settled.net, (initial, final, dealer, buy)
            seen.add((qualified, buy, insurance > 0, settled.net_of(BetKind.ANTE) > 0))
    assert len(seen) >= 5


@pytest.mark.parametrize("rules", RULES)
def test_option_values_equal_the_brute_force(rules: tuple[int, ...]) -> None:
    """Each first-round option of random hands (seven ranks, three suits), exactly."""
    tab, pays, m5, vt, mt, ds, _ = _tables_for(rules)
    array = np.array(rules, dtype=np.int64)
    deck = _deck(range(6, 13), (0, 1, 3))
    cards = _cards(deck)
    rng = np.random.default_rng(3 + sum(rules))
    for _ in range(6):
        hand = np.array(sorted(rng.choice(cards, 5, replace=False)), dtype=np.int64)
        for option in (2, *rng.choice(range(3, 34), 3, replace=False)):
            drawn = 1 if option == 2 else (option - 2).bit_count()
            scale = b.buy_scale(len(cards) - 5 - drawn, rebuy=bool(rules[2]))
            expected = b.option_total(hand, option, deck, tab, pays, array, scale)
            acc = np.zeros(2, dtype=np.int64)
            if option == 2:
                got = op.sixth_sums(hand, deck, tab, pays, array, scale, vt, mt, ds, acc)
            else:
                got = op.exchange_sums(
                    hand, option - 2, deck, tab, m5, array, scale, vt, mt, ds, acc
                )
            assert (int(acc[0]) * (1 << 40) + int(acc[1]), *got) == expected, (hand, option)


@pytest.fixture(scope="module")
def reduced() -> ClassSolution:
    """The whole analysis of a deck of seven ranks (eight to Ace) in three suits."""
    return solve(RussianConfig(), deck=_deck(range(6, 13), (0, 1, 3)), chunks=2)


@pytest.mark.parametrize(
    "sample",
    [
        # four sampled classes, two in `make test` and the other two in `make test-all` (a
        # class's 33 options brute-forced take about 5 s)
        pytest.param(slice(0, 2), id="classes-1-2"),
        pytest.param(slice(2, 4), id="classes-3-4", marks=pytest.mark.slow),
    ],
)
def test_a_reduced_deck_solved_equals_the_brute_force(
    reduced: ClassSolution, sample: slice
) -> None:
    """The whole analysis on a deck of seven ranks in three suits: for sampled classes, every
    option summed exactly equals the brute force, every other option's bound holds it, and
    the class's best option is the brute force's best."""
    deck = _deck(range(6, 13), (0, 1, 3))
    solution = reduced
    result = summarize(solution)
    assert result.exact and result.wager > 1
    tab, pays, *_ = exact_tables(solution.rules)
    rng = np.random.default_rng(5)
    for c in rng.choice(len(solution.classes.cards), 4, replace=False)[sample]:
        hand = solution.classes.cards[c]
        values = {}
        for option in range(1, 34):
            drawn = 0 if option == 1 else 1 if option == 2 else (option - 2).bit_count()
            scale = b.buy_scale(deck.bit_count() - 5 - drawn, rebuy=True)
            total, draws, hands = b.option_total(
                hand, option, deck, tab, pays, solution.rules.array, scale
            )
            values[option] = Fraction(total, draws * hands * scale)
            if solution.how[c, option] == 2:
                assert solution.total(int(c), option) == values[option]
            else:
                low, high = solution.bounds[c, option]
                assert low - 1e-12 <= float(values[option]) <= high + 1e-12
        best = max(Fraction(-1), *values.values())
        assert solution.total(int(c), int(result.choice[c])) == best


@pytest.mark.parametrize("options", [2, 3, 34])
def test_the_bounds_meet_where_folding_is_best(reduced: ClassSolution, options: int) -> None:
    """Tables allowing only the first ``options`` columns (fold and stand; and the sixth
    card; everything): many classes fold, and the upper bound of the optimum is the
    strategy's exact value, folds counted at -1 (the upper bound counted a folding class
    as 0, so the full-deck run's bounds stood 13 % of the Ante apart)."""
    allowed = reduced.rules.allowed & (np.arange(34) < options)
    result = summarize(reduced, allowed)
    assert options == 34 or (result.choice == 0).sum() > 100
    assert result.exact and result.ev_upper == result.ev
    per_class = [
        Fraction(-1) if o == 0 else reduced.total(c, int(o)) for c, o in enumerate(result.choice)
    ]
    weights = reduced.classes.weights
    expected = sum(int(w) * v for w, v in zip(weights, per_class, strict=True))
    assert result.ev == expected / reduced.classes.hands


def _brute_best(solution: ClassSolution, deck: int, c: int) -> Fraction:
    """Class ``c``'s value by the brute force: the best of folding (-1) and every option,
    each settled deal by deal (about 2.5 s a class of the seven-rank deck)."""
    tab, pays, *_ = exact_tables(solution.rules)
    hand = solution.classes.cards[c]
    best = Fraction(-1)
    for option in range(1, 34):
        drawn = 0 if option == 1 else 1 if option == 2 else (option - 2).bit_count()
        scale = b.buy_scale(deck.bit_count() - 5 - drawn, rebuy=True)
        t, d, h = b.option_total(hand, option, deck, tab, pays, solution.rules.array, scale)
        best = max(best, Fraction(t, d * h * scale))
    return best


@pytest.mark.slow
def test_a_reduced_deck_game_value_is_its_classes_each_the_brute_forces(
    reduced: ClassSolution,
) -> None:
    """The seven-rank, three-suit deck: the game's exact value is the weighted sum of its
    3,598 classes' values (each the value of the option the analysis chose), the bounds meet,
    and for 60 classes drawn by a fixed seed (besides the four of the test above) that value
    is the brute force's best of every option. Every class by the brute force is
    :func:`test_every_class_of_a_reduced_deck_equals_the_brute_force` (hours)."""
    deck = _deck(range(6, 13), (0, 1, 3))
    result = summarize(reduced)
    per_class = [
        Fraction(-1) if o == 0 else reduced.total(c, int(o)) for c, o in enumerate(result.choice)
    ]
    weights = reduced.classes.weights
    total = sum(int(w) * v for w, v in zip(weights, per_class, strict=True))
    assert result.ev == result.ev_upper == total / reduced.classes.hands
    rng = np.random.default_rng(26)
    for c in rng.choice(len(reduced.classes.cards), 60, replace=False):
        assert per_class[c] == _brute_best(reduced, deck, int(c)), c


HOURS_CHUNKS = 8
"""The parts of the brute force over every class (``pytest -m hours -n N`` spreads them)."""


@pytest.mark.hours
@pytest.mark.parametrize("chunk", range(HOURS_CHUNKS))
def test_every_class_of_a_reduced_deck_equals_the_brute_force(
    reduced: ClassSolution, chunk: int
) -> None:
    """Every class of a seven-rank, three-suit deck, in :data:`HOURS_CHUNKS` interleaved
    parts: the value of the option the analysis chose (folding: -1) equals the brute force's
    best of every option, class by class. With
    :func:`test_a_reduced_deck_game_value_is_its_classes_each_the_brute_forces` (the game's
    value is the weighted sum of those values) the game's exact value is the brute force's.
    About 2.5 hours on one core (3,598 classes at 2.5-4 s): not in ``make test-all``; run it
    with ``pytest -m hours -n 2`` (or one part: ``-k 'brute_force[3]'``)."""
    deck = _deck(range(6, 13), (0, 1, 3))
    choice = summarize(reduced).choice
    for c in range(chunk, len(reduced.classes.cards), HOURS_CHUNKS):
        option = int(choice[c])
        chosen = Fraction(-1) if option == 0 else reduced.total(c, option)
        assert chosen == _brute_best(reduced, deck, c), c


def test_hand_classes_of_the_full_deck() -> None:
    from croupier.analysis.russian._hands import hand_classes

    classes = hand_classes()
    assert (len(classes.cards), classes.hands, len(classes.rank_counts)) == (
        134_459,
        2_598_960,
        6_175,
    )
    # every class's representative has the class's ranks
    for i in range(0, 6175, 97):
        for row in classes.cards[classes.start[i] : classes.start[i + 1]]:
            assert np.array_equal(np.bincount(row >> 2, minlength=13), classes.rank_counts[i])
