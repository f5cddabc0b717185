"""What each Caribbean Stud decision cost (issue 32): checked against the engine's own
settlement of every dealer hand the player could face, and against the progressive's prize a
fold gives up."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from croupier.analysis.caribbean.costs import decision_costs
from croupier.cards import DECK, Card
from croupier.deck import Shoe, seeded_source, shuffled
from croupier.evaluator import HandCategory, category_of, evaluate, evaluate_batch
from croupier.games.caribbean import CaribbeanConfig, CaribbeanRound
from croupier.games.caribbean.rules import settle_box


def raise_ev_by_settlement(hand: tuple[Card, ...], up: Card, config: CaribbeanConfig) -> Fraction:
    """The Raise's EV per Ante: the engine settles the box against every dealer hand with
    ``up`` (four of the 46 cards the player does not see), each distinct dealer value once,
    weighted by how many hands have it."""
    rest = [c.id for c in DECK if c not in hand and c != up]
    fours = np.array(list(itertools.combinations(rest, 4)), dtype=np.int64)
    dealer = evaluate_batch(np.column_stack([fours, np.full(len(fours), up.id)]))
    player = evaluate(hand).value
    ante = 1_000
    total = 0
    for value, times in Counter(int(v) for v in dealer).items():
        result = settle_box(
            seat=0, player=player, dealer=value, ante=ante, raised=True, config=config
        )
        total += result.net * times
    return Fraction(total, ante * len(fours))


def played(seed: int, config: CaribbeanConfig, boxes: int, *, jackpot: int = 0) -> CaribbeanRound:
    """A round of ``boxes`` boxes, each raising or folding at random."""
    rnd = CaribbeanRound(config, Shoe(shuffled(seeded_source(seed))), jackpot=jackpot)
    rng = random.Random(seed)
    for seat in range(boxes):
        rnd.place_bets(
            seat, ante=100 * rng.randint(1, 20), progressive=bool(config.progressive_bet)
        )
    rnd.close_betting()
    for seat in range(boxes):
        if rng.random() < 0.5:
            rnd.bet_raise(seat)
        else:
            rnd.fold(seat)
    return rnd


@pytest.mark.parametrize("seed", [3, 17])
def test_each_decision_costs_the_better_options_value_minus_the_one_taken(seed: int) -> None:
    config = CaribbeanConfig()
    rnd = played(seed, config, 3)
    costs = decision_costs(rnd, {0, 1, 2, 9})
    assert costs is not None and [c.seat for c in costs] == [0, 1, 2]  # seat 9 has no box
    for c in costs:
        hand, up = rnd.hand(c.seat), rnd.upcard
        assert up is not None
        raised = raise_ev_by_settlement(hand, up, config)
        values = {"raise": raised, "fold": Fraction(-1)}
        assert c.taken == ("fold" if rnd.box(c.seat).folded else "raise")
        assert c.best == max(values, key=lambda k: (values[k], k == "fold"))
        assert c.taken_ev == values[c.taken] and c.best_ev == values[c.best]
        assert c.cost == max(values.values()) - values[c.taken] >= 0
        assert c.cost_money == round(c.cost * rnd.box(c.seat).ante)
        assert c.to_json()["cost_exact"] == str(c.cost)
        # each option as data too, for the client to word in the player's language
        assert c.to_json()["taken_option"] == {"action": c.taken, "cards": [], "insurance": 0}
        assert c.to_json()["best_option"] == {"action": c.best, "cards": [], "insurance": 0}


def test_only_the_seats_asked_for_are_valued_and_a_cap_is_not() -> None:
    rnd = played(5, CaribbeanConfig(), 3)
    costs = decision_costs(rnd, {1})
    assert costs is not None and [c.seat for c in costs] == [1]
    capped = played(5, CaribbeanConfig(max_payout=500_000), 3)
    assert decision_costs(capped, {0, 1, 2}) is None


def test_a_round_not_dealt_has_no_decisions() -> None:
    rnd = CaribbeanRound(CaribbeanConfig(), Shoe(shuffled(seeded_source(1))))
    rnd.place_bets(0, ante=500)
    assert decision_costs(rnd, {0}) == []


def test_a_fold_forfeits_the_progressive_prize_it_would_have_been_paid() -> None:
    """A box with the progressive bet that folds a flush or better also gives up the prize:
    the fold's cost is the Raise's EV plus one Ante plus that prize."""
    config = CaribbeanConfig(progressive_bet=100)
    for seed in range(2_000):
        rnd = CaribbeanRound(config, Shoe(shuffled(seeded_source(seed))), jackpot=1_000_000)
        for seat in range(6):
            rnd.place_bets(seat, ante=1_000, progressive=True)
        rnd.close_betting()
        paying = [
            s
            for s in range(6)
            if config.progressive_paytable.prize_for(category_of(evaluate(rnd.hand(s)).value))
        ]
        if paying:
            break
    else:
        pytest.fail("no paying progressive hand in 2,000 rounds")
    seat = paying[0]
    for s in range(6):
        rnd.fold(s) if s == seat else rnd.bet_raise(s)
    category = category_of(evaluate(rnd.hand(seat)).value)
    assert category >= HandCategory.FLUSH
    prize = config.progressive_paytable.prize_for(category)
    assert prize is not None
    # a fixed prize is paid as it is; a percentage one is that share of the meter
    expected = prize.amount or 1_000_000 * prize.percent // 100
    (cost,) = decision_costs(rnd, {seat}) or []
    raised = raise_ev_by_settlement(rnd.hand(seat), rnd.upcard, config)  # type: ignore[arg-type]
    assert cost.taken == "fold" and cost.best == "raise"
    assert cost.cost == raised + 1 + Fraction(expected, 1_000)
    assert cost.cost_money == round(cost.cost * 1_000)
    # the boxes that raised: their hands' prizes are theirs, they gave nothing up
    others = decision_costs(rnd, set(range(6)) - {seat}) or []
    assert all(c.taken == "raise" for c in others)
