"""UTH rules to the letter of the seeds and the options real casinos vary (issue 17):
Trips after the Ante, the dealing order card by card, boxes settled right to left, Play
multiples, the Trips variant that needs a win, and the rounding of 3:2 on an odd Blind."""

from __future__ import annotations

from typing import Any

import pytest

from croupier.cards import DECK, Card, parse_cards
from croupier.deck import Shoe, seeded_source, shuffled
from croupier.errors import ConfigError, IllegalActionError
from croupier.evaluator import evaluate
from croupier.games.uth import Bet, Outcome, Phase, UthConfig, UthRound, settle_seat
from croupier.games.uth.config import PlayMultiples
from croupier.games.uth.events import CardBurned, SeatSettled, TripsPlaced
from croupier.history import uth as uth_history

# -- Trips after the Ante (seed 001) -----------------------------------------------------------


def test_trips_after_the_ante_in_the_same_betting_window() -> None:
    rnd = UthRound(UthConfig.live(), Shoe(shuffled(seeded_source(1))))
    rnd.place_bets(7, ante=1000)
    event = rnd.place_trips(7, trips=500)
    assert event == TripsPlaced(seat=7, trips=500)
    assert rnd.box(7).trips == 500
    for trips, message in ((500, "has Trips 500 already"),):
        with pytest.raises(IllegalActionError, match=message):
            rnd.place_trips(7, trips=trips)
    with pytest.raises(IllegalActionError, match="seat 8 has no box"):
        rnd.place_trips(8, trips=500)
    rnd.place_bets(8, ante=1000)
    with pytest.raises(IllegalActionError, match="trips 50 is outside the table limits"):
        rnd.place_trips(8, trips=50)
    rnd.close_betting()
    with pytest.raises(IllegalActionError, match="bets are closed"):
        rnd.place_trips(8, trips=500)
    while rnd.pending_seats:
        for seat in rnd.pending_seats:
            rnd.apply_timeout(seat)
    record = uth_history.record(rnd)
    assert {b["seat"]: b["trips"] for b in record["bets"]} == {7: 500, 8: 0}
    assert uth_history.verify(record) == []
    assert uth_history.replay(record).results == rnd.results


# -- the dealing order, card by card (seeds 003 and 000) --------------------------------------

DECK_TEXT = " ".join(str(c) for c in shuffled(seeded_source(17)))


def _physical_seed003(deck: list[Card], boxes: int) -> dict[str, Any]:
    """Seed 003 as a dealer does it: one card to each box, one to the dealer, twice; burn."""
    hands: list[list[Card]] = [[] for _ in range(boxes)]
    dealer: list[Card] = []
    for _ in range(2):
        for hand in hands:
            hand.append(deck.pop(0))
        dealer.append(deck.pop(0))
    burn = deck.pop(0)
    board = [deck.pop(0) for _ in range(5)]
    return {"hands": hands, "dealer": dealer, "burn": burn, "board": board}


def _physical_seed000(deck: list[Card], boxes: int) -> dict[str, Any]:
    """Seed 000: the five community cards, then two to each box, the dealer's two last."""
    board = [deck.pop(0) for _ in range(5)]
    hands = [[deck.pop(0), deck.pop(0)] for _ in range(boxes)]
    dealer = [deck.pop(0), deck.pop(0)]
    return {"hands": hands, "dealer": dealer, "burn": None, "board": board}


@pytest.mark.parametrize("dealing", ["seed003", "seed000"])
@pytest.mark.parametrize("boxes", [1, 2, 6])
def test_dealing_order_card_by_card(dealing: str, boxes: int) -> None:
    order = list(parse_cards(DECK_TEXT))
    expected = (_physical_seed003 if dealing == "seed003" else _physical_seed000)(
        list(order), boxes
    )
    config = UthConfig(dealing=dealing)  # type: ignore[arg-type]
    rnd = UthRound(config, Shoe(order))
    for seat in range(boxes):
        rnd.place_bets(seat, ante=100)
    rnd.close_betting()
    assert [list(rnd.hole_cards(s)) for s in range(boxes)] == expected["hands"]
    assert list(rnd.dealer_cards) == expected["dealer"]
    for _ in range(2):
        for seat in range(boxes):
            rnd.check(seat)
    assert list(rnd.board) == expected["board"]
    burns = [e.card for e in rnd.events if isinstance(e, CardBurned)]
    assert burns == ([] if expected["burn"] is None else [expected["burn"]])
    record = uth_history.record(rnd)
    assert record["config"]["dealing"] == dealing
    assert uth_history.verify(record) == []
    assert uth_history.replay(record).results == rnd.results


def test_a_live_tables_shared_hand_follows_the_dealing_order() -> None:
    order = list(parse_cards(DECK_TEXT))
    rnd = UthRound(UthConfig.live(dealing="seed000"), Shoe(order))
    rnd.place_bets(40, ante=100)
    rnd.close_betting()
    assert list(rnd.hole_cards(40)) == order[5:7] and list(rnd.dealer_cards) == order[7:9]


# -- settlement right to left (seed 003) --------------------------------------------------------


def test_boxes_are_settled_right_to_left() -> None:
    rnd = UthRound(UthConfig(), Shoe(shuffled(seeded_source(3))))
    for seat in (0, 2, 5):
        rnd.place_bets(seat, ante=100)
    rnd.close_betting()
    while rnd.pending_seats:
        for seat in rnd.pending_seats:
            rnd.apply_timeout(seat)
    settled = [e.result.seat for e in rnd.events if isinstance(e, SeatSettled)]
    assert settled == [5, 2, 0]
    assert list(rnd.results) == [5, 2, 0]
    assert [r["seat"] for r in uth_history.record(rnd)["results"]] == [5, 2, 0]


# -- Play multiples -----------------------------------------------------------------------------


def test_play_multiples_are_a_table_setting() -> None:
    multiples = PlayMultiples(preflop=(3,), flop=(2, 1), river=(1,))
    rnd = UthRound(UthConfig(play_multiples=multiples), Shoe(shuffled(seeded_source(5))))
    rnd.place_bets(0, ante=100)
    rnd.place_bets(1, ante=100)
    rnd.close_betting()
    assert rnd.legal_words(0) == ("check", "3x")
    with pytest.raises(IllegalActionError, match="Play 4x is not allowed pre-flop: 3x"):
        rnd.bet_play(0, 4)
    rnd.check(0)
    rnd.check(1)
    assert rnd.legal_words(0) == ("check", "2x", "1x")
    rnd.bet_play(0, 1)
    assert rnd.box(0).play == 100
    config = UthConfig.from_dict({"play_multiples": {"preflop": [5, 3]}})
    assert config.play_multiples == PlayMultiples(preflop=(5, 3))
    assert config.to_dict()["play_multiples"] == {"preflop": [5, 3], "flop": [2], "river": [1]}
    for bad, message in (
        ({"preflop": []}, "at least one"),
        ({"preflop": [0]}, "1..10"),
        ({"turn": [2]}, "unknown phases \\['turn'\\]"),
        ([4, 3], "must be a table of phases"),
    ):
        with pytest.raises(ConfigError, match=message):
            UthConfig.from_dict({"play_multiples": bad})


# -- Trips only when the player wins; rounding of the Blind -----------------------------------

BOARD = "2d 7h 8c Kh Ks"


def _settle(player: str, dealer: str, config: UthConfig, *, folded: bool = False) -> Any:
    return settle_seat(
        seat=0,
        player=evaluate(player + BOARD).value,
        dealer=evaluate(dealer + BOARD).value,
        ante=105,
        trips=100,
        play=105,
        folded=folded,
        config=config,
    )


@pytest.mark.parametrize(
    ("player", "dealer", "folded", "always", "needs_win"),
    [
        ("Kd 3c", "4c 5d", False, 300, 300),  # trips of kings beat the dealer: paid
        ("Kd 3c", "Kc 4c", False, 300, 0),  # a tie: the variant pushes
        ("Kd 3c", "7c 7d", False, 300, 0),  # the dealer's full house wins: push
        ("Kd 3c", "4c 5d", True, 300, 0),  # folded: push
        ("Ad 3c", "4c 5d", False, -100, -100),  # below three of a kind: lost either way
    ],
)
def test_trips_that_need_a_win(
    player: str, dealer: str, folded: bool, always: int, needs_win: int
) -> None:
    plain = _settle(player, dealer, UthConfig(), folded=folded).bet(Bet.TRIPS)
    variant = _settle(player, dealer, UthConfig(trips_needs_win=True), folded=folded).bet(Bet.TRIPS)
    assert (plain.net, variant.net) == (always, needs_win)
    if needs_win == 0:
        assert variant.outcome is Outcome.PUSH


@pytest.mark.parametrize(
    ("rounding", "chip", "paid", "away"),
    # "chip" on this odd Blind (105 is no whole number of chips) is refused since issue 28:
    # tests/uth/test_casino_letter.py
    [("down", 100, 157, "1/2"), ("up", 100, 158, "-1/2"), ("chip", 5, 155, "5/2")],
)
def test_blind_rounding_of_three_to_two_on_an_odd_blind(
    rounding: str, chip: int, paid: int, away: str
) -> None:
    config = UthConfig(blind_rounding=rounding, chip=chip)  # type: ignore[arg-type]
    # a flush (hearts) beats the dealer's pair of nines: the Blind pays 3:2 on 105
    flush = settle_seat(
        seat=0,
        player=evaluate("Ah 4h 3h 2h 9h 9c Js").value,
        dealer=evaluate("2c 5c 3h 2h 9h 9c Js").value,
        ante=105,
        trips=0,
        play=105,
        folded=False,
        config=config,
    ).bet(Bet.BLIND)
    assert flush is not None and (flush.net, flush.rounding) == (paid, away)


def test_new_options_are_validated() -> None:
    for kwargs, message in (
        ({"dealing": "seed001"}, "dealing = 'seed001' is not one of"),
        ({"blind_rounding": "nearest"}, "blind_rounding = 'nearest'"),
        ({"chip": 0}, "chip must be a positive"),
        ({"trips_needs_win": "yes"}, "trips_needs_win must be true or false"),
    ):
        with pytest.raises(ConfigError, match=message):
            UthConfig(**kwargs)  # type: ignore[arg-type]


def test_every_option_round_trips_through_a_record() -> None:
    config = UthConfig(
        play_multiples=PlayMultiples(preflop=(4,)),
        trips_needs_win=True,
        blind_rounding="up",  # type: ignore[arg-type]
        dealing="seed000",  # type: ignore[arg-type]
        chip=50,
    )
    assert UthConfig.from_dict(config.to_dict()) == config
    rnd = UthRound(config, Shoe(DECK))
    rnd.place_bets(0, ante=105, trips=100)
    rnd.close_betting()
    rnd.bet_play(0, 4)
    assert rnd.phase is Phase.SETTLED
    assert uth_history.verify(uth_history.record(rnd)) == []
    assert uth_history.replay(uth_history.record(rnd)).results == rnd.results


def test_the_settlement_audit_honours_the_options() -> None:
    from croupier.games.uth import audit_line, settle_hand

    config = UthConfig(
        play_multiples=PlayMultiples(preflop=(5,)),
        trips_needs_win=True,
        blind_rounding="up",  # type: ignore[arg-type]
    )
    # kings full beat the dealer's pair: Trips 8:1 on a win; the Blind 3:1; Play 5x
    line = audit_line(
        settle_hand(
            player="KdKc",
            dealer="7c7d",
            board="AhKh4c4s9c",
            ante=1000,
            trips=500,
            action="5x",
            config=config,
        )
    )
    assert line == {"ante": 1000, "blind": 3000, "play": 5000, "trips": 4000, "total": 13000}
    lost = settle_hand(
        player="KdKc",
        dealer="AdAc",
        board="AhKh4c7s9c",
        ante=1000,
        trips=500,
        action="2x",
        config=config,
    )
    assert audit_line(lost)["trips"] == 0  # three kings lose to three aces: Trips pushes
    with pytest.raises(IllegalActionError, match="'4x' is not one of 5x"):
        settle_hand(
            player="KdKc",
            dealer="7c7d",
            board="AhKh4c4s9c",
            ante=1000,
            action="4x",
            config=config,
        )
