"""UTH to the letter of seed 003 (issue 28): bets in whole multiples of the table's bet unit
(so ``blind_rounding = "chip"`` never cuts an exact win), and the Antes returned first, right
to left, when the dealer does not qualify."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from croupier.cards import DECK, Card, parse_cards
from croupier.chips import Chips
from croupier.deck import Shoe
from croupier.errors import ConfigError, IllegalActionError, RecordError
from croupier.evaluator import evaluate
from croupier.games.protocol import Amount, Legal
from croupier.games.uth import (
    AntesReturned,
    Bet,
    PlaceBets,
    UthConfig,
    UthRound,
    settle_hand,
    settle_line,
    settle_seat,
)
from croupier.games.uth.events import DealerRevealed, SeatSettled
from croupier.history import uth as uth_history

CROUPIER = [sys.executable, "-m", "croupier.cli.__main__"]


def _refusal(call: object, *args: object, **kwargs: object) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as info:
        call(*args, **kwargs)  # type: ignore[operator]
    return info.value


# -- the bet unit (seed 003: "večkratniki osnovne stave") -----------------------------------


def test_antes_and_trips_off_the_bet_unit_are_refused_naming_the_unit() -> None:
    rnd = UthRound(UthConfig(bet_unit=Chips(50)), Shoe(DECK))
    error = _refusal(rnd.place_bets, 0, ante=125)
    assert error.reason == "bet_not_a_multiple"
    assert error.params == {"spot": "ante", "amount": 125, "unit": 50}
    assert "bet unit 50" in str(error)
    assert _refusal(rnd.place_bets, 0, ante=150, trips=120).params["spot"] == "trips"
    assert rnd.events == ()  # refused whole: nothing placed
    rnd.place_bets(0, ante=150)
    assert _refusal(rnd.place_trips, 0, trips=175).params == {
        "spot": "trips",
        "amount": 175,
        "unit": 50,
    }
    rnd.place_trips(0, trips=200)
    assert rnd.box(0).trips == 200


def test_the_legal_bets_step_by_the_unit() -> None:
    rnd = UthRound(
        UthConfig(ante_min=Chips(120), ante_max=Chips(1_030), bet_unit=Chips(50)), Shoe(DECK)
    )
    (bets,) = rnd.legal_actions(0)
    assert isinstance(bets, Legal)
    ante = bets.free[0]
    assert isinstance(ante, Amount) and (ante.low, ante.high, ante.step) == (150, 1_000, 50)
    assert rnd.can(PlaceBets(seat=0, ante=Chips(150)))
    assert not rnd.can(PlaceBets(seat=0, ante=Chips(175)))


def test_a_unit_no_bet_fits_is_refused() -> None:
    with pytest.raises(ConfigError, match="no ante between ante_min 120 and ante_max 140"):
        UthConfig(ante_min=Chips(120), ante_max=Chips(140), bet_unit=Chips(50))
    with pytest.raises(ConfigError, match="bet_unit must be a positive"):
        UthConfig(bet_unit=Chips(0))


def test_blind_rounding_to_the_chip_needs_antes_in_whole_chips() -> None:
    # the unit defaults to one chip under chip rounding, and must be whole chips if given
    assert UthConfig(blind_rounding="chip", chip=100).bet_unit == 100  # type: ignore[arg-type]
    assert UthConfig().bet_unit == 1
    with pytest.raises(ConfigError, match="bet_unit 150 is not a whole number of chips"):
        UthConfig(blind_rounding="chip", chip=100, bet_unit=150)  # type: ignore[arg-type]
    config = UthConfig(blind_rounding="chip", chip=100, bet_unit=200)  # type: ignore[arg-type]
    assert UthConfig.from_dict(config.to_dict()) == config
    rnd = UthRound(UthConfig(blind_rounding="chip", chip=100), Shoe(DECK))  # type: ignore[arg-type]
    assert _refusal(rnd.place_bets, 0, ante=150).params == {
        "spot": "ante",
        "amount": 150,
        "unit": 100,
    }


def _blind(player: str, dealer: str, ante: int, config: UthConfig) -> tuple[int, str | None]:
    result = settle_seat(
        seat=0,
        player=evaluate(player).value,
        dealer=evaluate(dealer).value,
        ante=ante,
        trips=0,
        play=ante,
        folded=False,
        config=config,
    ).bet(Bet.BLIND)
    assert result is not None
    return result.net, result.rounding


CHIP = UthConfig(blind_rounding="chip", chip=100)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("player", "dealer", "paid"),
    [
        ("Ts Qd 9c 8d 5s 2c Jh", "3h 4d 9c 8d 5s 2c Jh", 300),  # straight 1:1
        ("Js Jd 9c 9d 5s 2c Jh", "3h 4d 9c 9d 5s 2c Jh", 900),  # full house 3:1
        ("9s 9h 9c 9d 5s 2c Jh", "3h 4d 9c 9d 5s 2c Jh", 3000),  # four of a kind 10:1
    ],
)
def test_whole_chip_antes_are_paid_exactly(player: str, dealer: str, paid: int) -> None:
    # issue 28: at a 1 EUR chip a 1.50 EUR Ante's straight paid 1.00 EUR; Antes are whole
    # chips now, and a whole-number pay line pays them exactly
    assert _blind(player, dealer, 300, CHIP) == (paid, None)


def test_only_the_part_chip_of_three_to_two_is_rounded() -> None:
    flush = "Ah 4h 3h 2h 9h 9c Js"
    dealer = "2c 5c 3h 2h 9h 9c Js"
    assert _blind(flush, dealer, 300, CHIP) == (400, "50/1")  # 450 exact: the half chip
    assert _blind(flush, dealer, 400, CHIP) == (600, None)  # an even number of chips: exact


def test_settle_seat_refuses_an_ante_the_chip_would_cut() -> None:
    error = _refusal(_blind, "Ah 4h 3h 2h 9h 9c Js", "2c 5c 3h 2h 9h 9c Js", 150, CHIP)
    assert (error.reason, error.params["unit"]) == ("bet_not_a_multiple", 100)


def test_the_settle_tool_refuses_a_line_it_would_pay_short() -> None:
    line = {"player": "TsQd", "dealer": "3h4d", "board": "9c8d5s2cJh", "ante": 150}
    with pytest.raises(IllegalActionError, match="not a multiple of the table's bet unit 100"):
        settle_line({**line, "action": "1x"}, CHIP)
    assert settle_line({**line, "ante": 300, "action": "1x"}, CHIP) == {
        "ante": 0,  # the dealer does not qualify: the Ante pushes
        "blind": 300,
        "play": 300,
        "trips": 0,
        "total": 600,
    }
    with pytest.raises(IllegalActionError, match="trips 250 is not a multiple"):
        settle_hand(
            player="TsQd",
            dealer="3h4d",
            board="9c8d5s2cJh",
            ante=300,
            trips=250,
            action="1x",
            config=CHIP,
        )


def test_croupier_uth_settle_answers_an_error_for_an_ante_off_the_chip() -> None:
    lines = [
        {"player": "TsQd", "dealer": "3h4d", "board": "9c8d5s2cJh", "ante": 150, "action": "1x"},
        {"player": "TsQd", "dealer": "3h4d", "board": "9c8d5s2cJh", "ante": 300, "action": "1x"},
    ]
    done = subprocess.run(
        [*CROUPIER, "uth", "settle", "--rule", "blind_rounding=chip", "--rule", "chip=100"],
        input="".join(json.dumps(line) + "\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    first, second = (json.loads(out) for out in done.stdout.splitlines())
    assert "bet unit 100" in first["error"]
    assert second["total"] == 600


# -- the Antes returned first (seed 003) ---------------------------------------------------


def _deck(order: str) -> Shoe:
    cards = parse_cards(order)
    rest: list[Card] = [c for c in DECK if c not in cards]
    return Shoe((*cards, *rest))


# seats 0, 2, 5 (dealt left to right, the dealer last, twice), a burn, the flop, turn, river:
# the dealer's 2c 7d make ace high on Ah Kd 9s 5c 3h -- no pair, the dealer does not qualify
NOT_QUALIFIED = "Qs 4s 8h 2c Jh 4d 8d 7d 6c Ah Kd 9s 5c 3h"


def test_the_antes_come_back_first_right_to_left_for_the_boxes_still_in() -> None:
    rnd = UthRound(UthConfig(), _deck(NOT_QUALIFIED))
    rnd.place_bets(0, ante=100, trips=100)
    rnd.place_bets(2, ante=300)
    rnd.place_bets(5, ante=200)
    rnd.close_betting()
    for seat in (0, 2, 5):
        rnd.check(seat)
    for seat in (0, 2, 5):
        rnd.check(seat)
    rnd.bet_play(0, 1)
    rnd.fold(2)  # folded on the river: out of play, its Ante is lost
    rnd.bet_play(5, 1)
    kinds = [type(e) for e in rnd.events]
    first = kinds.index(AntesReturned)
    assert kinds.index(DealerRevealed) < first < kinds.index(SeatSettled)
    (returned,) = (e for e in rnd.events if isinstance(e, AntesReturned))
    assert returned.antes == ((5, 200), (0, 100))
    settled = [e.result.seat for e in rnd.events if isinstance(e, SeatSettled)]
    assert settled == [5, 2, 0]
    for seat in (0, 5):
        ante = rnd.results[seat].bet(Bet.ANTE)
        assert ante is not None and ante.net == 0
    folded = rnd.results[2].bet(Bet.ANTE)
    assert folded is not None and folded.net == -300
    record = uth_history.record(rnd)
    assert record["antes_returned"] == [[5, 200], [0, 100]]
    assert uth_history.verify(record) == []
    tampered = {**record, "antes_returned": [[0, 100], [5, 200]]}
    assert uth_history.verify(tampered) != []


def test_no_antes_are_returned_when_the_dealer_qualifies() -> None:
    # one box: Qs Jh; the dealer's 9h 7d pair the board's 9s and qualify
    rnd = UthRound(UthConfig(), _deck("Qs 9h Jh 7d 6c Ah Kd 9s 5c 3h"))
    rnd.place_bets(0, ante=100)
    rnd.close_betting()
    rnd.bet_play(0, 4)
    assert not any(isinstance(e, AntesReturned) for e in rnd.events)
    assert "antes_returned" not in uth_history.record(rnd)


def test_a_live_round_returns_every_ante_and_cuts_to_a_players_boxes() -> None:
    # one shared hand: the dealer does not qualify whatever the boxes
    rnd = UthRound(UthConfig.live(), _deck("Qs Jh 2c 7d 6c Ah Kd 9s 5c 3h"))
    for seat in (3, 11, 40):
        rnd.place_bets(seat, ante=100 * (seat + 1))
    rnd.close_betting()
    for seat in (3, 11, 40):
        rnd.bet_play(seat, 4)
    (returned,) = (e for e in rnd.events if isinstance(e, AntesReturned))
    assert returned.antes == ((40, 4100), (11, 1200), (3, 400))
    cut = uth_history.record_for_seats(uth_history.record(rnd), {11})
    assert cut["antes_returned"] == [[11, 1200]]
    assert uth_history.verify(cut) == []


# -- limits changed in the betting window (seed 003: "tudi med igro") ------------------------


def test_limits_changed_in_the_betting_window_apply_to_the_bets_after() -> None:
    rnd = UthRound(UthConfig(), _deck(NOT_QUALIFIED))
    rnd.place_bets(0, ante=100)
    new = {"ante_min": 500, "trips_min": 500, "bet_unit": 100}
    event = rnd.change_limits(new)
    assert event is not None and (event.ante_min, event.bet_unit) == (500, 100)
    assert rnd.opening_config.ante_min == 100 and rnd.config.ante_min == 500
    assert rnd.change_limits(new) is None  # nothing changes
    error = _refusal(rnd.place_bets, 2, ante=100)
    assert (error.reason, error.params["min"]) == ("bet_out_of_limits", 500)
    assert _refusal(rnd.place_bets, 2, ante=550).reason == "bet_not_a_multiple"
    rnd.place_bets(2, ante=600)
    assert _refusal(rnd.place_trips, 0, trips=100).params["min"] == 500
    rnd.place_trips(0, trips=500)
    with pytest.raises(ConfigError, match="not limits"):
        rnd.change_limits({"max_payout": 10})
    rnd.close_betting()
    assert _refusal(rnd.change_limits, {"ante_min": 100}).reason == "bets_closed"
    for seat in (0, 2):
        rnd.bet_play(seat, 4)
    assert rnd.box(0).ante == 100  # the bet placed before the change stands
    record = uth_history.record(rnd)
    assert record["config"]["ante_min"] == 100 and record["limits_changed"][0]["ante_min"] == 500
    assert {b["seat"]: b.get("limits", 0) for b in record["bets"]} == {0: 0, 2: 1}
    assert record["bets"][0]["trips_limits"] == 1
    assert uth_history.verify(record) == []
    assert uth_history.replay(record).config.ante_min == 500
    # a record claiming the 100 Ante came after the change does not replay
    forged = {**record, "bets": [{**record["bets"][0], "limits": 1}, record["bets"][1]]}
    with pytest.raises(RecordError, match="outside the table limits"):
        uth_history.verify(forged)
