"""The shipped exact figures and strategy of Russian Poker (``analysis/russian/data``, the
spec's default rules) against themselves and against independent computations.

The shipped run was made by the rank-pattern sums and bounds of :mod:`._draws` and
:mod:`._bounds`; here sampled classes are valued again one draw at a time by
:mod:`._option` (checked against the brute force on reduced decks in
``tests/russian/test_exact.py``) and, for standing, by the brute force itself over every
dealer hand and bought card of the full deck.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from croupier.analysis.russian import _brute as b
from croupier.analysis.russian import _option as op
from croupier.analysis.russian._hands import FULL_DECK
from croupier.analysis.russian.exact import _tables as exact_tables
from croupier.analysis.russian.exact import exact_rules
from croupier.analysis.russian.figure import RUSSIAN_ANALYSIS, RUSSIAN_EV_PER_ANTE
from croupier.analysis.russian.strategy import (
    ExactStrategy,
    load_exact_figures,
    load_exact_strategy,
)
from croupier.games.russian import RussianConfig

HANDS = 2_598_960


def _hand(strategy: ExactStrategy, row: int) -> np.ndarray:
    code = int(strategy.codes[row])
    return np.array([code >> shift & 63 for shift in (24, 18, 12, 6, 0)], dtype=np.int64)


def _value(hand: np.ndarray, option: int) -> Fraction:
    """One first-round option of one hand (full deck, default rules), valued one draw at a
    time by :mod:`._option` (fold: -1)."""
    if option == 0:
        return Fraction(-1)
    rules = exact_rules(RussianConfig())
    tab, pays, m5, vt, mt, ds, _ = exact_tables(rules)
    drawn = 0 if option == 1 else 1 if option == 2 else (option - 2).bit_count()
    scale = b.buy_scale(47 - drawn, rebuy=rules.rebuy)
    acc = np.zeros(2, dtype=np.int64)
    if option == 1:
        total, draws, hands = b.option_total(hand, 1, FULL_DECK, tab, pays, rules.array, scale)
        return Fraction(total, draws * hands * scale)
    if option == 2:
        draws, hands = op.sixth_sums(
            hand, FULL_DECK, tab, pays, rules.array, scale, vt, mt, ds, acc
        )
    else:
        draws, hands = op.exchange_sums(
            hand, option - 2, FULL_DECK, tab, m5, rules.array, scale, vt, mt, ds, acc
        )
    return Fraction(int(acc[0]) * (1 << 40) + int(acc[1]), draws * hands * scale)


def test_the_shipped_figures_are_exact_and_consistent() -> None:
    """The bounds met; the house edge per total bet is the edge over the money wagered; the
    first decisions' shares and contributions add up to all hands and to the EV."""
    figures = load_exact_figures()
    f = figures.figures
    assert figures.exact and figures.ev_upper == f["EV per Ante (player)"]
    assert figures.house_edge == -f["EV per Ante (player)"] > 0
    assert (
        f["house edge per total bet"] == figures.house_edge / f["money wagered per round (Antes)"]
    )
    assert sum(share for share, _ in figures.decisions.values()) == 1
    assert sum(value for _, value in figures.decisions.values()) == f["EV per Ante (player)"]
    assert figures.rules["failed_buy_ante"] == RussianConfig().failed_buy_ante.value


def test_the_operators_figure_is_the_shipped_exact_one() -> None:
    """The RTP monitor and the operator's theoretical return use the exact figure shipped,
    for the rules it was computed under (a table that changes one of them has no figure)."""
    figures = load_exact_figures()
    assert figures.figures["EV per Ante (player)"] == RUSSIAN_EV_PER_ANTE
    assert RUSSIAN_ANALYSIS.exact and RUSSIAN_ANALYSIS.ev_per_ante == float(RUSSIAN_EV_PER_ANTE)
    assert RUSSIAN_ANALYSIS.ev_low == RUSSIAN_ANALYSIS.ev_high == RUSSIAN_ANALYSIS.ev_per_ante
    default = RussianConfig().to_dict()
    for rule in ("failed_buy_ante", "bet_paytable", "exchange_min", "exchange_max"):
        assert figures.rules[rule] == default[rule], rule


def test_the_shipped_strategy_adds_up_to_the_figures() -> None:
    """Every class once, the hands' weights, each decision's share of hands exactly and the
    weighted values to the EV (values are stored in single precision)."""
    strategy = load_exact_strategy()
    figures = load_exact_figures()
    assert len(strategy.codes) == 134_459 and int(strategy.weights.sum()) == HANDS
    assert (np.diff(strategy.codes) > 0).all()
    kinds = ["fold", "stand", "sixth card", *(f"exchange {k}" for k in range(1, 6))]
    kind = np.array([c if c < 3 else 2 + (c - 2).bit_count() for c in strategy.choice.tolist()])
    shares = {
        kinds[i]: Fraction(int(strategy.weights[kind == i].sum()), HANDS)
        for i in range(len(kinds))
        if (kind == i).any()
    }
    assert shares == {name: share for name, (share, _) in figures.decisions.items()}
    ev = float((strategy.weights * strategy.value).sum()) / HANDS
    assert ev == pytest.approx(float(figures.figures["EV per Ante (player)"]), abs=1e-6)
    assert (strategy.lead >= 0).all()


@pytest.mark.parametrize(("column", "seed"), [(0, 1), (1, 2), (2, 3), (None, 4)])
def test_sampled_classes_choice_is_worth_the_shipped_value(column: int | None, seed: int) -> None:
    """A class drawn by weight among those folding, standing, buying the sixth card or
    exchanging: its chosen option valued independently is the shipped value (standing by
    the brute force over every dealer hand), and another option drawn at random is worth no
    more."""
    strategy = load_exact_strategy()
    rows = np.flatnonzero(strategy.choice >= 3 if column is None else strategy.choice == column)
    rng = np.random.default_rng(seed)
    weights = strategy.weights[rows].astype(float)
    row = int(rng.choice(rows, p=weights / weights.sum()))
    hand = _hand(strategy, row)
    chosen = int(strategy.choice[row])
    value = _value(hand, chosen)
    assert float(value) == pytest.approx(float(strategy.value[row]), rel=1e-6, abs=1e-6)
    others = [o for o in range(2, 34) if o != chosen]
    assert _value(hand, int(rng.choice(others))) <= value
    if chosen == 0:
        assert _value(hand, 1) == -1  # the brute force: standing is worth folding at best


@pytest.mark.slow
def test_sampled_classes_every_option_matches_the_shipped_choice() -> None:
    """Twenty classes drawn by weight: every option valued independently; the shipped choice
    is a best one, with the shipped value and lead."""
    strategy = load_exact_strategy()
    rng = np.random.default_rng(32)
    weights = strategy.weights.astype(float)
    for row in rng.choice(len(strategy.codes), 20, p=weights / weights.sum()):
        hand = _hand(strategy, int(row))
        values = [_value(hand, o) for o in range(34)]
        best = max(values)
        chosen = int(strategy.choice[row])
        assert values[chosen] == best
        assert float(best) == pytest.approx(float(strategy.value[row]), rel=1e-6, abs=1e-6)
        runner_up = max(v for o, v in enumerate(values) if o != chosen)
        assert float(best - runner_up) >= float(strategy.lead[row]) - 1e-6


@pytest.mark.slow
def test_the_simulator_playing_the_shipped_strategy_agrees() -> None:
    """Real rounds dealt from shuffled decks, the shipped first decisions played: the fees
    paid (which depend on the first decision alone) match the exact figure, and the exact
    house edge lies in the simulation's 99.9 % interval (the simulator's own Bet decision
    after the draw ignores card removal, so it can only do a little worse)."""
    from math import sqrt

    from croupier.analysis.russian.strategy import simulate_exact_strategy

    figures = load_exact_figures()
    sim = simulate_exact_strategy(rounds=320_000, seed=32)
    fees = -float(figures.figures["exchange and sixth-card fees per round (Antes)"])
    se_fees = sqrt(fees * (1 - fees) / sim.rounds)
    assert abs(-sim.contributions["fee"] - fees) < 4 * se_fees
    edge = float(figures.house_edge)
    assert abs(sim.edge_per_ante - edge) < 3.29 * sim.se_per_ante
    assert sim.contributions["insurance"] == 0
