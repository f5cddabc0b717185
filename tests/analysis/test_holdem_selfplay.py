"""Batch self-play is the engine's game: recorded hands replayed through ``CashHand`` offer the
same options at every decision and end with the same results."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

import numba
import numpy as np
import numpy.typing as npt
import pytest

from croupier.analysis.holdem import (
    CHECK_CALL,
    FOLD,
    O_MIN_RAISE,
    SelfPlayResult,
    calling_station,
    random_legal,
    selfplay,
)
from croupier.cards import DECK
from croupier.deck import Shoe
from croupier.errors import ConfigError, IllegalActionError
from croupier.evaluator import evaluate_ids
from croupier.games.holdem import (
    BettingStructure,
    CashHand,
    HoldemConfig,
    OddChip,
    Rake,
    ReopenRule,
    SplitPolicy,
)


def replay(config: HoldemConfig, result: SelfPlayResult, stacks: npt.NDArray[np.int64]) -> None:
    """Replay every recorded hand through CashHand and compare options and results."""
    record = result.record
    assert record is not None
    for h in range(len(result.net)):
        start = [int(s) for s in stacks[h % len(stacks)]]
        shoe = Shoe(DECK[int(i)] for i in record.decks[h])
        hand = CashHand(config, stacks=start, shoe=shoe, auto_showdown=True)
        rows = record.decisions[record.offsets[h] : record.offsets[h + 1]]
        for seat, to_call, low, high, action in rows.tolist():
            options = hand.options()
            assert options is not None, h
            expected = (
                options.seat,
                options.to_call,
                -1 if options.min_raise_to is None else options.min_raise_to,
                -1 if options.max_raise_to is None else options.max_raise_to,
            )
            assert (seat, to_call, low, high) == expected, (h, hand.events)
            if action == FOLD:
                hand.fold(seat)
            elif action == CHECK_CALL:
                hand.check_or_call(seat)
            else:
                hand.raise_to(seat, action)
        assert hand.options() is None and hand.is_over, h
        assert [a - b for a, b in zip(hand.stacks, start, strict=True)] == result.net[h].tolist()
        assert hand.house_net == result.rake[h]


def test_six_max_no_limit_replays_through_the_engine() -> None:
    result = selfplay(2000, 6, random_legal, seed=7, stacks=200, record=True)
    assert result.decisions > 2000 * 5
    replay(HoldemConfig.cash(players=6, small_blind=1, big_blind=2), result, np.full((1, 6), 200))


def random_table(rng: random.Random, hands: int) -> tuple[HoldemConfig, npt.NDArray[np.int64]]:
    players = rng.randint(2, 10)
    big = rng.choice([2, 10, 100])
    ante_kind = rng.choice(["none", "none", "each", "bb"])
    config = HoldemConfig.cash(
        players=players,
        small_blind=big // 2,
        big_blind=big,
        ante=rng.choice([1, big // 2, big]) if ante_kind != "none" else 0,
        big_blind_ante=ante_kind == "bb",
        straddle=2 * big if players >= 3 and rng.random() < 0.2 else 0,
        structure=rng.choice(list(BettingStructure)),
        reopen=rng.choice(list(ReopenRule)),
        rake=rng.choice(
            [Rake(), Rake(percent=Fraction(5, 100), cap=3 * big), Rake(percent=Fraction(1, 10))]
        ),
        odd_chip=rng.choice(list(OddChip)),
    )
    if config.structure is BettingStructure.FIXED_LIMIT and rng.random() < 0.3:
        config = dataclasses.replace(config, max_raises=rng.randint(1, 6))
    stacks = np.array(
        [
            [
                rng.choice([rng.randint(1, 3 * big), rng.randint(big, 200 * big)])
                for _ in range(players)
            ]
            for _ in range(hands)
        ],
        dtype=np.int64,
    )
    return config, stacks


def check_tables(seed: int, tables: int, hands: int) -> None:
    rng = random.Random(seed)
    for number in range(tables):
        config, stacks = random_table(rng, hands)
        result = selfplay(
            hands, config.players, random_legal, seed + number, config=config, stacks=stacks,
            record=True,
        )  # fmt: skip
        replay(config, result, stacks)


@pytest.mark.parametrize("block", range(3))
def test_random_tables_replay_through_the_engine(block: int) -> None:
    check_tables(100 + block, tables=12, hands=40)


@pytest.mark.slow
def test_many_random_tables_replay_through_the_engine() -> None:
    check_tables(1000, tables=300, hands=100)


def test_results_are_reproducible_and_conserve_chips() -> None:
    first = selfplay(5000, 6, random_legal, seed=3)
    again = selfplay(5000, 6, random_legal, seed=3)
    other = selfplay(5000, 6, random_legal, seed=4)
    assert np.array_equal(first.net, again.net)
    assert not np.array_equal(first.net, other.net)
    assert (first.net.sum(axis=1) == 0).all()
    assert first.record is None
    raked = selfplay(
        5000,
        6,
        random_legal,
        seed=3,
        config=HoldemConfig.cash(
            players=6, small_blind=1, big_blind=2, rake=Rake(percent=Fraction(5, 100), cap=6)
        ),
    )
    assert (raked.net.sum(axis=1) == -raked.rake).all()
    assert raked.rake.max() == 6 and raked.rake.sum() > 0


def test_calling_stations_always_reach_showdown() -> None:
    result = selfplay(1000, 4, calling_station, seed=1, record=True)
    assert result.record is not None
    # pre-flop: three calls and the big blind's check, then four checks on each street
    assert (np.diff(result.record.offsets) == 16).all()
    for deck, net in zip(result.record.decks.tolist(), result.net.tolist(), strict=True):
        board = [deck[9], deck[10], deck[11], deck[13], deck[15]]  # burns at 8, 12 and 14
        values = [evaluate_ids([deck[s], deck[s + 4], *board]) for s in range(4)]
        winners = [s for s in range(4) if values[s] == max(values)]
        share, odd = divmod(8, len(winners))
        assert net == [
            share + (odd if s == winners[0] else 0) - 2 if s in winners else -2 for s in range(4)
        ]


@numba.njit
def _raise_below_minimum(obs: npt.NDArray[np.int64], cards: npt.NDArray[np.int64]) -> int:
    if obs[O_MIN_RAISE] > 0:
        return int(obs[O_MIN_RAISE] - 1)
    return CHECK_CALL


def test_an_illegal_answer_is_refused() -> None:
    with pytest.raises(IllegalActionError, match="the policy answered 3 in hand 0"):
        selfplay(10, 6, _raise_below_minimum, seed=1)


def test_rules_it_does_not_play_are_refused() -> None:
    exact = HoldemConfig.cash(players=6, small_blind=1, big_blind=2, split=SplitPolicy.EXACT)
    with pytest.raises(ConfigError, match="live split only"):
        selfplay(10, 6, random_legal, seed=1, config=exact)
    trimmed = dataclasses.replace(
        HoldemConfig.cash(players=6, small_blind=1, big_blind=2, ante=1), ante_trimming=True
    )
    with pytest.raises(ConfigError, match="ante trimming"):
        selfplay(10, 6, random_legal, seed=1, config=trimmed)
    with pytest.raises(ConfigError, match="seats 6 players, not 5"):
        selfplay(10, 5, random_legal, seed=1, config=exact)
    with pytest.raises(ConfigError, match=r"numba\.njit"):
        selfplay(10, 6, lambda obs, cards: 0, seed=1)
    with pytest.raises(ConfigError, match="shape"):
        selfplay(10, 6, random_legal, seed=1, stacks=[200] * 5)
    with pytest.raises(ConfigError, match="positive"):
        selfplay(10, 6, random_legal, seed=1, stacks=[200, 0, 200, 200, 200, 200])
    with pytest.raises(ConfigError, match=r"outside 2\.\.10"):
        selfplay(10, 11, random_legal, seed=1)
    with pytest.raises(ConfigError, match="whole number"):
        selfplay(-1, 6, random_legal, seed=1)
