"""Settlement: every row of the spec's table, every pay-table line, rounding, the cap."""

from __future__ import annotations

import numpy as np
import pytest
from phevaluator import evaluate_cards

from croupier.errors import ConfigError, IllegalActionError, InvalidCardsError, NotationError
from croupier.evaluator import HandCategory
from croupier.games.paytables import PayTable
from croupier.games.uth import Comparison, Outcome, UthConfig, audit_line, settle_hand

A = 1000  # Ante in minor units


def nets(**kwargs: object) -> dict[str, int]:
    return audit_line(settle_hand(**kwargs))  # type: ignore[arg-type]


# spec/uth.md "Showdown", the settlement table, one row each.
def test_dealer_qualifies_player_wins() -> None:
    # player two pair A-K, dealer pair of sevens
    assert nets(player="AsKd", dealer="7c7d", board="AhKh4c5s9c", ante=A, action="4x") == {
        "ante": A,
        "blind": 0,
        "play": 4 * A,
        "trips": 0,
        "total": 5 * A,
    }


def test_dealer_does_not_qualify_player_wins() -> None:
    # dealer Q-J high does not qualify; player pair of aces wins: Ante pushes, Play 1:1
    result = settle_hand(player="AsAd", dealer="QcJd", board="2h7h4c5s9c", ante=A, action="3x")
    assert not result.dealer_qualifies
    assert audit_line(result) == {"ante": 0, "blind": 0, "play": 3 * A, "trips": 0, "total": 3 * A}


def test_dealer_qualifies_and_wins() -> None:
    assert nets(player="AsKd", dealer="7c7d", board="2h3h8c5s9c", ante=A, action="2x") == {
        "ante": -A,
        "blind": -A,
        "play": -2 * A,
        "trips": 0,
        "total": -4 * A,
    }


def test_dealer_does_not_qualify_and_wins() -> None:
    # dealer A-Q high beats player K-J high without qualifying: Ante pushes, the rest lose
    result = settle_hand(player="KsJd", dealer="AcQd", board="2h3h8c5s9c", ante=A, action="1x")
    assert result.comparison is Comparison.LOSE and not result.dealer_qualifies
    assert audit_line(result) == {"ante": 0, "blind": -A, "play": -A, "trips": 0, "total": -2 * A}


def test_tie_pushes_everything() -> None:
    # both play the board's straight
    result = settle_hand(
        player="2c2d", dealer="3c3d", board="9hTsJcQdKh", ante=A, action="4x", trips=500
    )
    assert result.comparison is Comparison.TIE
    assert audit_line(result) == {"ante": 0, "blind": 0, "play": 0, "trips": 2000, "total": 2000}


def test_fold_loses_ante_and_blind_but_trips_plays_on() -> None:
    result = settle_hand(
        player="7s7h", dealer="AcAd", board="7d2h3cKsQs", ante=A, action="fold", trips=500
    )
    assert result.comparison is Comparison.FOLD
    assert audit_line(result) == {"ante": -A, "blind": -A, "play": 0, "trips": 1500, "total": -500}


# Every line of both default pay tables: (player, dealer, board, category).
HANDS = [
    ("AhKh", "2c3d", "QhJhTh4s8c", HandCategory.ROYAL_FLUSH),
    ("9h8h", "2c3d", "7h6h5hAsKc", HandCategory.STRAIGHT_FLUSH),
    ("9s9h", "2c3d", "9d9cKhAs4c", HandCategory.FOUR_OF_A_KIND),
    ("9s9h", "2c3d", "9dKcKhAs4c", HandCategory.FULL_HOUSE),
    ("Ah3h", "2c3d", "9hKh6hAs4c", HandCategory.FLUSH),
    ("Ts9d", "2c3d", "8h7c6hAs4c", HandCategory.STRAIGHT),
    ("Ts9d", "2c3d", "8h7c6hAs4c", HandCategory.STRAIGHT),
    ("TsTd", "2c3d", "Th7c6hAs4c", HandCategory.THREE_OF_A_KIND),
]
BLIND = {
    HandCategory.ROYAL_FLUSH: (500, 1),
    HandCategory.STRAIGHT_FLUSH: (50, 1),
    HandCategory.FOUR_OF_A_KIND: (10, 1),
    HandCategory.FULL_HOUSE: (3, 1),
    HandCategory.FLUSH: (3, 2),
    HandCategory.STRAIGHT: (1, 1),
}
TRIPS = {
    HandCategory.ROYAL_FLUSH: 50,
    HandCategory.STRAIGHT_FLUSH: 40,
    HandCategory.FOUR_OF_A_KIND: 30,
    HandCategory.FULL_HOUSE: 8,
    HandCategory.FLUSH: 7,
    HandCategory.STRAIGHT: 4,
    HandCategory.THREE_OF_A_KIND: 3,
}


@pytest.mark.parametrize(("player", "dealer", "board", "category"), HANDS)
def test_every_pay_table_line(player: str, dealer: str, board: str, category: HandCategory) -> None:
    result = settle_hand(player=player, dealer=dealer, board=board, ante=A, trips=200, action="4x")
    assert result.comparison is Comparison.WIN
    line = audit_line(result)
    if category in BLIND:
        numerator, denominator = BLIND[category]
        assert line["blind"] == A * numerator // denominator
    else:
        assert line["blind"] == 0  # below a straight the Blind pushes
    assert line["trips"] == 200 * TRIPS[category]
    blind = result.bet(result.bets[1].bet)
    assert blind is not None and (blind.outcome is Outcome.WON) == (category in BLIND)


def test_blind_pushes_below_a_straight_and_trips_loses_below_trips() -> None:
    result = settle_hand(
        player="AsAd", dealer="2c3d", board="KhQc9h7s4c", ante=A, trips=200, action="4x"
    )
    line = audit_line(result)
    assert (line["blind"], line["trips"]) == (0, -200)


def test_flush_blind_rounds_down_and_records_it() -> None:
    result = settle_hand(player="Ah3h", dealer="2c3d", board="9hKh6hAs4c", ante=105, action="4x")
    blind = result.bets[1]
    assert blind.net == 157  # 3:2 of 105 is 157.5
    assert blind.rounding == "1/2"
    assert blind.line == "Flush 3:2"


def test_maximum_payout_caps_the_seat_win() -> None:
    config = UthConfig(max_payout=50_000)
    result = settle_hand(
        player="AhKh",
        dealer="2c3d",
        board="QhJhTh4s8c",
        ante=A,
        trips=500,
        action="4x",
        config=config,
    )
    assert result.net == 50_000
    # the dealer does not qualify (Ante pushes): Blind 500:1, Play 4x, Trips 50:1
    assert sum(b.capped for b in result.bets) == (500 * A + 4 * A + 50 * 500) - 50_000


def test_other_pay_tables_are_accepted_and_validated() -> None:
    table = PayTable.from_mapping("blind", {"royal_flush": "200:1", "straight": "2:1"})
    config = UthConfig(blind_paytable=table)
    result = settle_hand(
        player="Ts9d", dealer="2c3d", board="8h7c6hAs4c", ante=A, action="4x", config=config
    )
    assert audit_line(result)["blind"] == 2 * A
    with pytest.raises(ConfigError, match="pays less"):
        PayTable.from_mapping("blind", {"royal_flush": "1:1", "straight": "2:1"})
    with pytest.raises(ConfigError, match="unknown hand category 'quads'"):
        PayTable.from_mapping("blind", {"quads": "10:1"})
    with pytest.raises(ConfigError, match="'3/2'"):
        PayTable.from_mapping("blind", {"flush": "3/2"})


@pytest.mark.parametrize(
    ("fields", "error", "fragment"),
    [
        ({"player": "AsAs"}, InvalidCardsError, "As appears more than once"),
        ({"dealer": "AsKh"}, InvalidCardsError, "As appears more than once"),
        ({"board": "2h3h4h5s"}, InvalidCardsError, "has 4 cards, not 5"),
        ({"player": "AsXd"}, NotationError, "player"),
        ({"ante": 0}, IllegalActionError, "ante 0"),
        ({"ante": 10.5}, IllegalActionError, "10.5"),
        ({"trips": -1}, IllegalActionError, "trips -1"),
        ({"action": "5x"}, IllegalActionError, "'5x'"),
    ],
)
def test_bad_hands_are_named(
    fields: dict[str, object], error: type[Exception], fragment: str
) -> None:
    hand: dict[str, object] = {
        "player": "AsKd",
        "dealer": "7c7d",
        "board": "2h3h4h5s9c",
        "ante": A,
        "action": "4x",
    }
    hand.update(fields)
    with pytest.raises(error, match=fragment):
        settle_hand(**hand)  # type: ignore[arg-type]


# An independent reference: phevaluator for the hands, the spec's table written out again.
def _reference(
    player: list[int], dealer: list[int], board: list[int], ante: int, trips: int, multiple: int
) -> dict[str, int]:
    p = evaluate_cards(*(player + board))  # lower is better
    d = evaluate_cards(*(dealer + board))
    pcat = _ph_category(p)
    qualifies = d <= 6185  # phevaluator: 6186..7462 are high-card hands
    out = {"ante": 0, "blind": 0, "play": 0, "trips": 0}
    if multiple == 0:
        out["ante"] = out["blind"] = -ante
    elif p < d:
        out["ante"] = ante if qualifies else 0
        num, den = BLIND.get(pcat, (0, 1))
        out["blind"] = ante * num // den
        out["play"] = multiple * ante
    elif p > d:
        out["ante"] = -ante if qualifies else 0
        out["blind"] = -ante
        out["play"] = -multiple * ante
    if trips:
        out["trips"] = trips * TRIPS[pcat] if pcat in TRIPS else -trips
    out["total"] = sum(out.values())
    return out


def _ph_category(rank: int) -> HandCategory:
    if rank == 1:
        return HandCategory.ROYAL_FLUSH
    bounds = [
        (10, HandCategory.STRAIGHT_FLUSH),
        (166, HandCategory.FOUR_OF_A_KIND),
        (322, HandCategory.FULL_HOUSE),
        (1599, HandCategory.FLUSH),
        (1609, HandCategory.STRAIGHT),
        (2467, HandCategory.THREE_OF_A_KIND),
        (3325, HandCategory.TWO_PAIR),
        (6185, HandCategory.PAIR),
        (7462, HandCategory.HIGH_CARD),
    ]
    return next(cat for bound, cat in bounds if rank <= bound)


def test_random_hands_match_an_independent_reference() -> None:
    from croupier.cards import Card, format_cards

    rng = np.random.default_rng(8)
    actions = ["4x", "3x", "2x", "1x", "fold"]
    for _ in range(5000):
        ids = rng.permutation(52)[:9].tolist()
        ante = int(rng.integers(1, 5000))
        trips = int(rng.integers(0, 3)) * int(rng.integers(1, 999))
        action = actions[int(rng.integers(0, 5))]
        multiple = {"4x": 4, "3x": 3, "2x": 2, "1x": 1, "fold": 0}[action]
        mine = nets(
            player=format_cards(Card.from_id(i) for i in ids[:2]),
            dealer=format_cards(Card.from_id(i) for i in ids[2:4]),
            board=format_cards(Card.from_id(i) for i in ids[4:]),
            ante=ante,
            trips=trips,
            action=action,
        )
        assert mine == _reference(ids[:2], ids[2:4], ids[4:], ante, trips, multiple), ids
