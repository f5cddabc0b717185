"""The UTH round state machine: phases, views, seats, illegal actions, voids, records."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from croupier.cards import DECK, parse_cards
from croupier.deck import Shoe, seeded_source, shuffled
from croupier.errors import ConfigError, IllegalActionError, RecordError
from croupier.games.uth import Phase, UthConfig, UthRound
from croupier.games.uth.events import HoleCardsDealt, RoundSettled, RoundVoided
from croupier.history import uth as uth_history


def new_round(seed: int = 1, config: UthConfig | None = None) -> UthRound:
    return UthRound(config or UthConfig(), Shoe(shuffled(seeded_source(seed))))


def snapshot(rnd: UthRound) -> Any:
    return (
        rnd.phase,
        rnd.events,
        rnd.board,
        rnd.pending_seats,
        rnd.results,
        [rnd.box(s) for s in rnd.seats],
        rnd.shoe.position,
    )


def test_casino_dealing_order_and_phases() -> None:
    # seats 0 and 1; cards go one at a time, seat 0, seat 1, dealer, then again; burn; flop; turn+river
    order = parse_cards("2c 3c 4c 2d 3d 4d 5h 6h 7h 8h 9s Ts Jd")
    rest = [c for c in DECK if c not in order]
    rnd = UthRound(UthConfig(), Shoe(order + tuple(rest)))
    rnd.place_bets(1, ante=100)
    rnd.place_bets(0, ante=100)
    rnd.close_betting()
    assert rnd.hole_cards(0) == parse_cards("2c 2d")
    assert rnd.hole_cards(1) == parse_cards("3c 3d")
    assert rnd.dealer_cards == parse_cards("4c 4d")
    assert rnd.phase is Phase.PREFLOP and rnd.pending_seats == (0, 1)
    rnd.check(0)
    assert rnd.phase is Phase.PREFLOP and rnd.pending_seats == (1,)
    rnd.check(1)
    assert rnd.phase is Phase.FLOP and rnd.board == parse_cards("6h 7h 8h")  # 5h burnt
    rnd.bet_play(0, 2)
    rnd.check(1)
    assert rnd.phase is Phase.RIVER and rnd.board == parse_cards("6h 7h 8h 9s Ts")
    assert rnd.pending_seats == (1,)
    rnd.fold(1)
    assert rnd.phase is Phase.SETTLED
    # seat 0: 2c2d with 6-7-8-9-T straight beats dealer's straight? both have T-high straight: tie
    assert rnd.results[0].comparison.value == "tie"
    assert rnd.results[1].comparison.value == "fold"


def test_a_seat_never_sees_other_hole_cards_or_the_dealer_before_showdown() -> None:
    rnd = new_round(3)
    for seat in range(6):
        rnd.place_bets(seat, ante=100)
    rnd.close_betting()
    while rnd.phase is not Phase.SETTLED:
        for seat in range(6):
            view = rnd.view(seat)
            assert view.dealer is None
            assert view.hole == rnd.hole_cards(seat)
            others = {c for s in range(6) if s != seat for c in rnd.hole_cards(s)}
            assert not others & set(view.hole + view.board)
        seat = rnd.pending_seats[0]
        (rnd.fold if rnd.phase is Phase.RIVER else rnd.check)(seat)
    assert rnd.view(0).dealer == rnd.dealer_cards


def _play_randomly(rnd: UthRound, rng: np.random.Generator) -> None:
    while rnd.pending_seats:
        assert rnd.pending_count == len(rnd.pending_seats)
        seat = rnd.pending_seats[int(rng.integers(len(rnd.pending_seats)))]
        action = rnd.legal_words(seat)[int(rng.integers(len(rnd.legal_words(seat))))]
        if action == "check":
            rnd.check(seat)
        elif action == "fold":
            rnd.fold(seat)
        else:
            rnd.bet_play(seat, int(action[0]))


@pytest.mark.parametrize(
    ("seats", "config"), [(1, UthConfig.casino()), (6, UthConfig.casino()), (500, UthConfig.live())]
)
def test_random_rounds_conserve_money(seats: int, config: UthConfig) -> None:
    rng = np.random.default_rng(seats)
    for r in range(20 if seats < 500 else 3):
        rnd = new_round(1000 * seats + r, config)
        for seat in range(seats):
            rnd.place_bets(
                seat, ante=100 * int(rng.integers(1, 50)), trips=100 * int(rng.integers(0, 3))
            )
        rnd.close_betting()
        _play_randomly(rnd, rng)
        assert rnd.phase is Phase.SETTLED and rnd.pending_count == 0
        settled = rnd.events[-1]
        assert isinstance(settled, RoundSettled)
        assert settled.players_net + settled.house_net == 0
        assert settled.players_net == sum(res.net for res in rnd.results.values())
        assert len(rnd.results) == seats
        for seat, res in rnd.results.items():
            box = rnd.box(seat)
            assert res.staked == box.ante + box.blind + box.trips + box.play
            assert res.returned == res.staked + res.net >= 0


def test_live_table_shares_one_hand_among_hundreds() -> None:
    rnd = new_round(5, UthConfig.live())
    for seat in range(500):
        rnd.place_bets(seat, ante=100)
    rnd.close_betting()
    dealt = [e for e in rnd.events if isinstance(e, HoleCardsDealt)]
    assert len(dealt) == 1  # one player hand, face up, for everyone
    assert rnd.view(0).hole == rnd.view(499).hole == dealt[0].cards


def test_casino_table_has_six_boxes() -> None:
    rnd = new_round()
    for seat in range(6):
        rnd.place_bets(seat, ante=100)
    with pytest.raises(IllegalActionError, match="seat 6 does not exist"):
        rnd.place_bets(6, ante=100)
    with pytest.raises(ConfigError, match="at most 22 boxes"):
        UthConfig(max_seats=23)
    with pytest.raises(ConfigError, match="unlimited seats"):
        UthConfig(max_seats=None)


def _at(phase: Phase) -> UthRound:
    rnd = new_round(11)
    rnd.place_bets(0, ante=1000, trips=500)
    rnd.place_bets(1, ante=1000)
    if phase is Phase.BETTING:
        return rnd
    rnd.close_betting()
    if phase is Phase.PREFLOP:
        return rnd
    rnd.check(0)
    rnd.check(1)
    if phase is Phase.FLOP:
        return rnd
    rnd.check(0)
    rnd.check(1)
    assert rnd.phase is Phase.RIVER
    return rnd


ILLEGAL: list[tuple[str, Phase, Callable[[UthRound], object], str]] = [
    ("acting twice", Phase.PREFLOP, lambda r: (r.check(0), r.check(0)), "already acted"),
    (
        "a second Play",
        Phase.FLOP,
        lambda r: (r.bet_play(0, 2), r.check(1), r.bet_play(0, 1)),
        "already bet Play",
    ),
    (
        "3x on the flop",
        Phase.FLOP,
        lambda r: r.bet_play(0, 3),
        "Play 3x is not allowed on the flop: 2x",
    ),
    ("4x on the flop", Phase.FLOP, lambda r: r.bet_play(0, 4), "not allowed on the flop"),
    (
        "2x on the river",
        Phase.RIVER,
        lambda r: r.bet_play(0, 2),
        "Play 2x is not allowed on the river: 1x",
    ),
    ("2x pre-flop", Phase.PREFLOP, lambda r: r.bet_play(0, 2), "not allowed pre-flop: 4x or 3x"),
    ("check on the river", Phase.RIVER, lambda r: r.check(0), "no check on the river"),
    ("fold pre-flop", Phase.PREFLOP, lambda r: r.fold(0), "only on the river"),
    ("fold on the flop", Phase.FLOP, lambda r: r.fold(0), "only on the river"),
    (
        "ante below the minimum",
        Phase.BETTING,
        lambda r: r.place_bets(2, ante=99),
        "ante 99 is outside the table limits",
    ),
    (
        "ante above the maximum",
        Phase.BETTING,
        lambda r: r.place_bets(2, ante=100_001),
        "outside the table limits",
    ),
    (
        "trips below the minimum",
        Phase.BETTING,
        lambda r: r.place_bets(2, ante=100, trips=50),
        "trips 50",
    ),
    (
        "trips above the maximum",
        Phase.BETTING,
        lambda r: r.place_bets(2, ante=100, trips=10**9),
        "trips",
    ),
    ("a negative ante", Phase.BETTING, lambda r: r.place_bets(2, ante=-100), "ante -100"),
    (
        "a fractional ante",
        Phase.BETTING,
        lambda r: r.place_bets(2, ante=100.5),
        "not a whole number",
    ),  # type: ignore[arg-type]
    (
        "trips after the deal",
        Phase.PREFLOP,
        lambda r: r.place_bets(0, ante=1000, trips=500),
        "bets are closed",
    ),
    ("new box after the deal", Phase.FLOP, lambda r: r.place_bets(3, ante=1000), "bets are closed"),
    ("withdraw after the deal", Phase.PREFLOP, lambda r: r.withdraw_bets(0), "bets are closed"),
    ("an unknown seat", Phase.PREFLOP, lambda r: r.check(4), "seat 4 has no box"),
    (
        "a seat that is not a number",
        Phase.BETTING,
        lambda r: r.place_bets("x", ante=100),
        "not a seat number",
    ),  # type: ignore[arg-type]
    (
        "a decision while betting",
        Phase.BETTING,
        lambda r: r.check(0),
        "no decisions are taken in the betting phase",
    ),
    ("closing betting twice", Phase.PREFLOP, lambda r: r.close_betting(), "already closed"),
]


@pytest.mark.parametrize(
    ("name", "phase", "action", "message"), ILLEGAL, ids=[i[0] for i in ILLEGAL]
)
def test_illegal_actions_are_refused_and_change_nothing(
    name: str, phase: Phase, action: Callable[[UthRound], object], message: str
) -> None:
    rnd = _at(phase)
    # actions that first take a legal step: do the legal part, then snapshot
    steps = {
        "acting twice": lambda r: r.check(0),
        "a second Play": lambda r: (r.bet_play(0, 2), r.check(1)),
    }
    if name in steps:
        steps[name](rnd)
        action = {
            "acting twice": lambda r: r.check(0),
            "a second Play": lambda r: r.bet_play(0, 1),
        }[name]
    before = snapshot(rnd)
    with pytest.raises(IllegalActionError, match=message):
        action(rnd)
    assert snapshot(rnd) == before


def test_actions_after_settlement_and_void_are_refused() -> None:
    rnd = _at(Phase.RIVER)
    rnd.bet_play(0, 1)
    rnd.fold(1)
    before = snapshot(rnd)
    for act in (
        lambda: rnd.check(0),
        lambda: rnd.place_bets(0, ante=100),
        lambda: rnd.void("late"),
    ):
        with pytest.raises(IllegalActionError):
            act()
    assert snapshot(rnd) == before


def test_empty_table_cannot_deal() -> None:
    rnd = new_round()
    with pytest.raises(IllegalActionError, match="no bets"):
        rnd.close_betting()
    assert rnd.phase is Phase.BETTING and rnd.events == ()


@pytest.mark.parametrize("phase", [Phase.BETTING, Phase.PREFLOP, Phase.FLOP, Phase.RIVER])
def test_void_returns_every_bet(phase: Phase) -> None:
    rnd = _at(phase)
    if phase is Phase.FLOP:
        rnd.bet_play(0, 2)
    event = rnd.void("shuffler malfunction")
    assert isinstance(event, RoundVoided)
    expected = {0: 2000 + 500 + (2000 if phase is Phase.FLOP else 0), 1: 2000}
    assert dict(event.refunds) == expected
    assert rnd.phase is Phase.VOIDED and rnd.results == {}
    with pytest.raises(IllegalActionError):
        rnd.check(1)


def test_timeouts_check_then_fold() -> None:
    rnd = _at(Phase.PREFLOP)
    rnd.apply_timeout(0)
    rnd.apply_timeout(1)
    assert rnd.phase is Phase.FLOP
    rnd.apply_timeout(0)
    rnd.apply_timeout(1)
    rnd.apply_timeout(0)
    rnd.apply_timeout(1)
    assert rnd.phase is Phase.SETTLED
    assert {r.comparison.value for r in rnd.results.values()} == {"fold"}


def test_records_replay_and_confirm_the_settlement() -> None:
    rng = np.random.default_rng(4)
    for seed in range(10):
        rnd = new_round(seed)
        for seat in range(4):
            rnd.place_bets(seat, ante=105 * (seat + 1), trips=100 * (seat % 2))
        rnd.close_betting()
        _play_randomly(rnd, rng)
        record = uth_history.record(rnd)
        assert uth_history.verify(copy.deepcopy(record)) == []
        replayed = uth_history.replay(copy.deepcopy(record))
        assert replayed.results == rnd.results
        assert uth_history.record(replayed) == record


def test_a_tampered_record_is_caught() -> None:
    rnd = _at(Phase.RIVER)
    rnd.bet_play(0, 1)
    rnd.bet_play(1, 1)
    record = uth_history.record(rnd)
    next(r for r in record["results"] if r["seat"] == 0)["net"] += 1
    assert any("seat 0 settles to net" in d for d in uth_history.verify(record))
    broken = uth_history.record(rnd)
    broken["actions"][0]["action"] = "5x"
    with pytest.raises(RecordError, match="does not replay"):
        uth_history.replay(broken)
    with pytest.raises(RecordError, match="not a UTH round record"):
        uth_history.replay({"game": "chess"})


def test_void_records_replay() -> None:
    rnd = _at(Phase.FLOP)
    rnd.void("misdeal")
    assert uth_history.verify(uth_history.record(rnd)) == []
    replayed = uth_history.replay(uth_history.record(rnd))
    assert replayed.phase is Phase.VOIDED
