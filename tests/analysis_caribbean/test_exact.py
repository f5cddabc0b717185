"""The exact analysis of Caribbean Stud: a brute force on a reduced deck agrees with it count
for count; the shipped figures are Wizard of Odds' published ones; the full count (slow)
reproduces them, the shipped table, and the totals Wizard of Odds publishes for other
strategies.

Wizard of Odds, "Caribbean Stud Poker" (the U.S. pay table: 100, 50, 20, 7, 5, 4, 3, 2, 1, 1):
19,933,230,517,200 combinations; perfect strategy total loss 1,041,372,912,372 (house edge
5.224 %, element of risk 2.555 %); its return table (wins by hand, dealer not qualifying,
pushes, folds, dealer wins); raise on any pair or better 1,090,272,101,460; on any Ace-King
or better 1,132,600,203,540; always 3,310,360,338,060; the "matching rank" rule
1,063,176,931,284; "Ace-King-Jack-8-3 or better" 1,059,715,400,580; the three rules of thumb
1,041,417,758,724.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb
from typing import Any

import numba as nb
import numpy as np
import numpy.typing as npt
import pytest

from croupier.analysis.caribbean import analyze_exact
from croupier.analysis.caribbean import exact as exact_module
from croupier.analysis.caribbean.strategy import load_decisions, load_summary
from croupier.errors import ConfigError
from croupier.evaluator import HandCategory, categories, evaluate, evaluate_batch
from croupier.games.paytables import PayTable

PUBLISHED = {
    "combinations": 19_933_230_517_200,
    "total_loss": 1_041_372_912_372,
    "win_royal_flush": 16_759_740,
    "win_straight_flush": 156_929_720,
    "win_four_of_a_kind": 2_832_435_800,
    "win_full_house": 16_624_475_280,
    "win_flush": 21_856_990_280,
    "win_straight": 43_805_516_100,
    "win_three_of_a_kind": 234_242_908_320,
    "win_two_pair": 488_012_139_360,
    "win_pair_or_less": 2_343_248_003_808,
    "dealer_not_qualified": 4_532_514_033_720,
    "tie": 321_623_100,
    "fold": 9_523_005_974_460,
    "dealer_wins": 2_726_592_727_512,
}
QUALIFY = evaluate("AsKh4c3d2c").value


@nb.njit(cache=True)
def _brute(n: int, ups: Any, by_mask: Any, qualify: int, out: Any) -> None:  # pragma: no cover
    """For each up card position, every player hand of the other positions (colex order) and
    every four more dealer cards, one by one: not qualified, beaten, tied, lost."""
    others = np.empty(n - 1, dtype=np.int64)
    rest = np.empty(n - 6, dtype=np.int64)
    for u in range(ups.shape[0]):
        up = ups[u]
        k = 0
        for p in range(n):
            if p != up:
                others[k] = p
                k += 1
        i = 0
        for e in range(4, n - 1):
            for d in range(3, e):
                for c in range(2, d):
                    for b in range(1, c):
                        for a in range(b):
                            hand = (1 << others[a]) | (1 << others[b]) | (1 << others[c])
                            hand |= (1 << others[d]) | (1 << others[e])
                            pv = by_mask[hand]
                            m = 0
                            for p in range(n):
                                if p != up and not (hand >> p) & 1:
                                    rest[m] = p
                                    m += 1
                            for w in range(m):
                                for x in range(w + 1, m):
                                    for y in range(x + 1, m):
                                        for z in range(y + 1, m):
                                            dealer = (1 << up) | (1 << rest[w]) | (1 << rest[x])
                                            dealer |= (1 << rest[y]) | (1 << rest[z])
                                            dv = by_mask[dealer]
                                            if dv < qualify:
                                                out[u, i, 0] += 1
                                            elif dv < pv:
                                                out[u, i, 1] += 1
                                            elif dv == pv:
                                                out[u, i, 2] += 1
                                            else:
                                                out[u, i, 3] += 1
                            i += 1


# six whole ranks (2, 5, 8, J, K, A): high cards that qualify and that do not, every category
# but the straights and four of a kind... of a full deck's few
SMALL = [4 * r + s for r in (0, 3, 6, 9, 11, 12) for s in range(4)]
ODDS = (1, 1, 2, 3, 4, 5, 7, 20, 50, 100)


def brute_force(deck: list[int]) -> npt.NDArray[np.int64]:
    """The dealer counts of every player hand against the club of each rank, one by one."""
    n = len(deck)
    combos = np.array(list(itertools.combinations(range(n), 5)), dtype=np.int64)
    values = evaluate_batch(np.asarray(deck)[combos])
    by_mask = np.zeros(1 << n, dtype=np.int16)
    by_mask[(1 << combos).sum(axis=1)] = values
    ups = np.array([p for p in range(n) if deck[p] % 4 == 0], dtype=np.int64)
    out = np.zeros((len(ups), comb(n - 1, 5), 4), dtype=np.int64)
    _brute(n, ups, by_mask, QUALIFY, out)
    return out


def optimal_ev(counts: npt.NDArray[np.int64], deck: list[int], up: int) -> tuple[Fraction, int]:
    """The summed EV (Antes) and the raises of the optimal strategy over one up card's hands."""
    n = len(deck)
    others = [p for p in range(n) if p != up]
    hands = sorted(itertools.combinations(others, 5), key=lambda h: h[::-1])  # colex
    values = evaluate_batch(np.asarray(deck)[np.array(hands)])
    total, raised = Fraction(0), 0
    for (nq, win, _, lose), value in zip(counts.tolist(), values, strict=True):
        pay = ODDS[int(categories([value])[0])]
        ev = nq + win * (1 + 2 * pay) - 3 * lose
        dealer = nq + win + _ + lose
        if ev > -dealer:
            total, raised = total + ev, raised + 1
        else:
            total -= dealer
    return total, raised


@pytest.fixture(scope="module")
def brute() -> npt.NDArray[np.int64]:
    return brute_force(SMALL)


def test_a_reduced_deck_is_counted_as_one_by_one(brute: npt.NDArray[np.int64]) -> None:
    work = exact_module._work(tuple(SMALL))
    units = exact_module.pay_units(exact_module.DEFAULT_RAISE)
    n = len(SMALL)
    total, raised = Fraction(0), 0
    for rank in range(n // 4):
        counts = np.zeros((comb(n - 1, 5), 4), dtype=np.int64)
        exact_module.count_upcard(
            work, 4 * rank, units=units, multiple=2, strategy=0, counts=counts
        )
        assert np.array_equal(counts, brute[rank]), rank
        ev, up_raised = optimal_ev(brute[rank], SMALL, 4 * rank)
        total, raised = total + 4 * ev, raised + 4 * up_raised  # the four suits of the up card
    result = analyze_exact(deck=SMALL)
    situations = comb(n, 5) * (n - 5)
    assert result.combinations == situations * comb(n - 6, 4)
    assert result.ev_per_ante == total / result.combinations
    assert result.raise_probability == Fraction(raised, situations)
    assert result.not_qualified > 0 and result.ties > 0


def test_the_shipped_figures_are_the_published_ones() -> None:
    summary = load_summary()
    outcomes = summary["outcomes"]
    assert summary["combinations"] == PUBLISHED["combinations"]
    assert summary["exact"]["total_loss"] == str(PUBLISHED["total_loss"])
    for key in PUBLISHED:
        if key.startswith("win_") and key != "win_pair_or_less":
            assert outcomes[key] == PUBLISHED[key], key
    assert outcomes["win_pair"] + outcomes["win_high_card"] == PUBLISHED["win_pair_or_less"]
    for key in ("dealer_not_qualified", "tie", "fold", "dealer_wins"):
        assert outcomes[key] == PUBLISHED[key], key
    assert sum(outcomes.values()) == PUBLISHED["combinations"]
    edge = Fraction(summary["exact"]["house_edge"])
    assert edge == Fraction(PUBLISHED["total_loss"], PUBLISHED["combinations"])
    assert round(float(edge), 5) == 0.05224
    assert round(float(Fraction(summary["exact"]["element_of_risk"])), 5) == 0.02555
    assert load_decisions().shape == (13, comb(51, 5))


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ConfigError):
        analyze_exact(strategy="sometimes")  # type: ignore[arg-type]
    with pytest.raises(ConfigError):
        analyze_exact(deck=range(10))
    with pytest.raises(ConfigError):
        analyze_exact(multiple=0)
    with pytest.raises(ConfigError):
        analyze_exact(paytable=PayTable.from_mapping("raise", {"pair": "1:1"}))


def test_fractional_odds_are_counted_in_units() -> None:
    odds = dict(exact_module.DEFAULT_RAISE.to_mapping(), pair="3:2")
    table = PayTable.from_mapping("raise", odds)
    assert exact_module.pay_units(table)[0] == 2
    base = analyze_exact(deck=SMALL)
    richer = analyze_exact(deck=SMALL, paytable=table)
    # half an Ante more on each of the two Raise units of every pair won under the old
    # decisions, and the new decisions can only do better
    gain = Fraction(base.wins[HandCategory.PAIR], base.combinations)
    assert richer.ev_per_ante - base.ev_per_ante >= gain > 0


@pytest.mark.slow
def test_the_full_count_reproduces_the_published_figures_and_the_shipped_table() -> None:
    result = analyze_exact()
    assert result.combinations == PUBLISHED["combinations"]
    assert result.total_loss == PUBLISHED["total_loss"]
    assert result.folds == PUBLISHED["fold"] and result.losses == PUBLISHED["dealer_wins"]
    assert result.to_json()["exact"] == load_summary()["exact"]
    assert np.array_equal(result.decisions, load_decisions())


@pytest.mark.slow
@pytest.mark.parametrize(
    ("strategy", "loss"),
    [
        ("pair_or_better", 1_090_272_101_460),
        ("ace_king_or_better", 1_132_600_203_540),
        ("always", 3_310_360_338_060),
    ],
)
def test_fixed_strategies_lose_what_is_published(strategy: str, loss: int) -> None:
    assert analyze_exact(strategy=strategy).total_loss == loss  # type: ignore[arg-type]


@pytest.mark.slow
def test_published_rules_of_thumb_lose_exactly_what_is_published() -> None:
    """Each situation's Raise-minus-fold margin, summed over the hands a rule raises."""
    work = exact_module._work(exact_module.FULL_DECK)
    units = exact_module.pay_units(exact_module.DEFAULT_RAISE)
    hands = np.empty((comb(51, 5), 5), dtype=np.int64)
    exact_module.kernels.colex_rows(51, hands)
    ace_king_jack = evaluate("AsKhJc8d3c").value
    dealer = comb(46, 4)
    totals = dict.fromkeys(("thumb", "matching", "akj83", "optimal"), 0)
    for r in range(13):
        margin = np.zeros(comb(51, 5), dtype=np.int64)
        exact_module.count_upcard(work, 4 * r, units=units, multiple=2, strategy=0, margin=margin)
        ids = hands + (hands >= 4 * r)
        values = evaluate_batch(ids)
        pair = categories(values) >= 1
        ace_king = ~pair & (values >= QUALIFY)
        ranks = ids >> 2
        match = (ranks == r).any(axis=1)
        fourth = np.sort(ranks, axis=1)[:, 1]  # the fourth highest of five
        queen, jack = (ranks == 10).any(axis=1), (ranks == 9).any(axis=1)
        # Wizard of Odds' three rules of thumb for Ace-King
        thumb = (
            ((r <= 10) & match)  # the up card 2 to Queen matches one of yours
            | ((r >= 11) & (queen | jack))  # the up card Ace or King, and a Queen or Jack
            | (~match & queen & (r < fourth))  # no match, a Queen, up card below the 4th
        )
        raising = {
            "thumb": pair | (ace_king & thumb),
            "matching": pair | (ace_king & match),
            "akj83": pair | (~pair & (values >= ace_king_jack)),
            "optimal": margin > 0,
        }
        for name, raises in raising.items():
            totals[name] += 4 * (-dealer * len(margin) + int(margin[raises].sum()))
    assert {name: -total for name, total in totals.items()} == {
        "thumb": 1_041_417_758_724,
        "matching": 1_063_176_931_284,
        "akj83": 1_059_715_400_580,
        "optimal": PUBLISHED["total_loss"],
    }


def test_the_up_cards_average_to_the_whole() -> None:
    result = analyze_exact(deck=SMALL)
    ranks = len(SMALL) // 4
    assert sum(result.by_upcard) / ranks == result.ev_per_ante
    assert sum(result.raises_by_upcard) / ranks == result.raise_probability
