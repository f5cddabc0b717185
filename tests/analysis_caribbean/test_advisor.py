"""The advisor: its exact counts agree with a one-by-one count and with the analysis, its
best decision with the shipped table, on sampled hands and up cards."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from croupier.analysis.caribbean import advise, decision
from croupier.analysis.caribbean import exact as exact_module
from croupier.analysis.caribbean.strategy import hand_index
from croupier.cards import DECK, Card, parse_cards
from croupier.errors import InvalidCardsError
from croupier.evaluator import evaluate, evaluate_batch
from croupier.games.paytables import PayTable

QUALIFY = evaluate("AsKh4c3d2c").value


def one_by_one(hand: tuple[Card, ...], up: Card) -> tuple[int, int, int, int]:
    """The dealer's hands with ``up``, every four of the cards left, evaluated in a batch."""
    rest = [c.id for c in DECK if c not in hand and c != up]
    fours = np.array(list(itertools.combinations(rest, 4)), dtype=np.int64)
    dealer = evaluate_batch(np.column_stack([fours, np.full(len(fours), up.id)]))
    pv = evaluate(hand).value
    nq = int((dealer < QUALIFY).sum())
    qualified = dealer[dealer >= QUALIFY]
    if pv < QUALIFY:
        return nq, 0, 0, len(qualified)
    win, tie = int((qualified < pv).sum()), int((qualified == pv).sum())
    return nq, win, tie, len(qualified) - win - tie


def sample(seed: int, count: int) -> list[tuple[tuple[Card, ...], Card]]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        cards = rng.sample(DECK, 6)
        out.append((tuple(cards[:5]), cards[5]))
    # Ace-King hands, where the decision turns on the up card
    for _ in range(count):
        ace, king = (
            rng.choice([c for c in DECK if c.rank.symbol == "A"]),
            rng.choice([c for c in DECK if c.rank.symbol == "K"]),
        )
        rest = rng.sample([c for c in DECK if c.rank.symbol not in "AK"], 4)
        out.append(((ace, king, *rest[:3]), rest[3]))
    return out


def test_the_counts_are_those_of_a_count_one_by_one() -> None:
    for hand, up in sample(1, 12):
        advice = advise(hand, up)
        assert (advice.not_qualified, advice.wins, advice.ties, advice.losses) == one_by_one(
            hand, up
        )
        assert advice.dealer_hands == comb(46, 4)


def test_the_best_decision_is_the_shipped_tables() -> None:
    for hand, up in sample(2, 300):
        advice = advise(hand, up)
        assert advice.best == advice.table == ("raise" if decision(hand, up) else "fold")
        assert advice.options[1].ev == -1


def test_the_advisor_agrees_with_the_analysis_of_one_up_card() -> None:
    work = exact_module._work(exact_module.FULL_DECK)
    units = exact_module.pay_units(exact_module.DEFAULT_RAISE)
    up = parse_cards("Qc")[0]
    margin = np.zeros(comb(51, 5), dtype=np.int64)
    exact_module.count_upcard(work, up.id, units=units, multiple=2, strategy=0, margin=margin)
    rng = random.Random(3)
    for _ in range(200):
        hand = tuple(rng.sample([c for c in DECK if c != up], 5))
        rank, index = hand_index([c.id for c in hand], up.id)
        assert rank == up.rank
        raised = advise(hand, up).options[0].ev
        assert raised + 1 == Fraction(int(margin[index]), comb(46, 4))


def test_other_pay_tables_are_counted_and_not_read_from_the_table() -> None:
    odds = dict(exact_module.DEFAULT_RAISE.to_mapping(), high_card="2:1", pair="2:1")
    hand, up = parse_cards("AsKdQh9c7d"), parse_cards("2c")[0]
    standard, generous = (
        advise(hand, up),
        advise(hand, up, paytable=PayTable.from_mapping("raise", odds)),
    )
    assert generous.table is None and standard.table is not None
    # the Raise is two Antes: each high-card win pays 2 x 1 Antes more
    extra = Fraction(2 * 1 * standard.wins, standard.dealer_hands)
    assert generous.options[0].ev - standard.options[0].ev == extra
    single = advise(hand, up, multiple=1)
    assert single.table is None and single.options[0].ev != standard.options[0].ev


@pytest.mark.parametrize(
    ("hand", "up"), [("AsKd", "2c"), ("AsKdQh9c7d", "As"), ("AsKdQh9c7d", "2c3c")]
)
def test_bad_cards_are_refused(hand: str, up: str) -> None:
    with pytest.raises(InvalidCardsError):
        advise(hand, up)
