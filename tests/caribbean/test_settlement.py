"""Settlement of Caribbean Stud against an independent reference: hand-built hands for every
pay line, the qualification edges, ties, folds, the maximum payout and the progressive; then
random deals under several tables."""

from __future__ import annotations

import caribbean_reference as ref
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.cards import DECK, format_cards
from croupier.errors import ConfigError, IllegalActionError, InvalidCardsError, NotationError
from croupier.games.caribbean import (
    CaribbeanConfig,
    Comparison,
    Outcome,
    audit_line,
    settle_hand,
    settle_line,
)
from croupier.games.paytables import PayTable

A = 1000  # the Ante in minor units
QUALIFIED = "AhKc8d5s3c"  # the dealer's Ace-King: qualifies, the lowest kind of hand that does


def nets(player: str, dealer: str, **kwargs: object) -> dict[str, int]:
    return audit_line(settle_hand(player=player, dealer=dealer, **kwargs))  # type: ignore[arg-type]


# every line of the Raise's pay table, the player beating a qualifying dealer
PAY_LINES = [
    ("AsKsQsJsTs", 100),  # royal flush
    ("9h8h7h6h5h", 50),  # straight flush
    ("5d4d3d2dAd", 50),  # the wheel straight flush (five-high)
    ("7c7d7h7s2c", 20),  # four of a kind
    ("QcQdQh4s4c", 7),  # full house
    ("Js9s6s4s2s", 5),  # flush
    ("Tc9dJhQs8c", 4),  # straight
    ("5c4d3h2sAs", 4),  # the wheel
    ("6c6d6h9s2d", 3),  # three of a kind
    ("JcJdTh Ts2d", 2),  # two pair
    ("2c2d9hTsJd", 1),  # the lowest pair
    ("AsKdQhJc9d", 1),  # Ace-King beating the dealer's Ace-King: the high-card line
]


@pytest.mark.parametrize(("player", "odds"), PAY_LINES)
def test_every_pay_line_of_the_raise(player: str, odds: int) -> None:
    expected = {"ante": A, "raise": 2 * A * odds, "progressive": 0, "total": A + 2 * A * odds}
    assert nets(player, QUALIFIED, ante=A, action="raise") == expected
    assert ref.settle(player, QUALIFIED, ante=A, action="raise") == expected


def test_the_dealer_qualifies_with_ace_king_four_three_two() -> None:
    result = settle_hand(player="2c2d9hTsJd", dealer="AsKh4c3d2h", ante=A, action="raise")
    assert result.dealer_qualifies and result.comparison is Comparison.WIN
    assert audit_line(result)["raise"] == 2 * A


@pytest.mark.parametrize("dealer", ["AsQhJcTd8h", "KsQhJc9d8h", "AsQh5c4d3h"])
def test_below_ace_king_the_dealer_does_not_qualify(dealer: str) -> None:
    # Ante 1:1, the Raise pushes, whatever the player holds (here a worse hand than the dealer's)
    result = settle_hand(player="Kd9c7d6c2h", dealer=dealer, ante=A, action="raise")
    assert not result.dealer_qualifies
    assert audit_line(result) == {"ante": A, "raise": 0, "progressive": 0, "total": A}
    raise_bet = result.bets[1]
    assert raise_bet.outcome is Outcome.PUSH and raise_bet.line == "dealer does not qualify"


@pytest.mark.parametrize("dealer", ["2c2h7d8s9c", "AsKhQcJdTh", "As2s5s9sJs"])
def test_any_pair_or_better_qualifies(dealer: str) -> None:
    assert settle_hand(player="KcKd3h4s6c", dealer=dealer, ante=A, action="raise").dealer_qualifies


def test_the_qualified_dealer_wins_both_bets() -> None:
    assert nets("AsKdQhJc8d", "AhKcQdJs9c", ante=A, action="raise") == {
        "ante": -A,
        "raise": -2 * A,
        "progressive": 0,
        "total": -3 * A,
    }


@pytest.mark.parametrize(
    ("player", "dealer"),
    [("AsKdQhJc9d", "AhKcQdJs9c"), ("7c7dKh5s2c", "7h7sKd5c2d"), ("Tc9dJhQs8c", "Th9cJdQc8d")],
)
def test_a_tie_pushes_both_bets(player: str, dealer: str) -> None:
    result = settle_hand(player=player, dealer=dealer, ante=A, action="raise")
    assert result.comparison is Comparison.TIE
    assert audit_line(result) == {"ante": 0, "raise": 0, "progressive": 0, "total": 0}


def test_kickers_decide_before_a_tie() -> None:
    assert nets("AsKdQhJc9d", "AhKcQdJs8c", ante=A, action="raise")["total"] == 3 * A
    assert nets("AsKdQhJc7d", "AhKcQdJs8c", ante=A, action="raise")["total"] == -3 * A


def test_a_fold_loses_the_ante_and_the_progressive_even_with_a_royal() -> None:
    config = CaribbeanConfig(progressive_bet=100)
    result = settle_hand(
        player="AsKsQsJsTs",
        dealer=QUALIFIED,
        ante=A,
        action="fold",
        progressive=100,
        jackpot=1_000_000,
        config=config,
    )
    assert result.comparison is Comparison.FOLD
    assert audit_line(result) == {"ante": -A, "raise": 0, "progressive": -100, "total": -A - 100}


def test_the_maximum_payout_caps_the_raise_and_pays_the_ante_besides() -> None:
    config = CaribbeanConfig(max_payout=50_000)
    result = settle_hand(
        player="AsKsQsJsTs", dealer=QUALIFIED, ante=A, action="raise", config=config
    )
    raise_bet = result.bets[1]
    assert raise_bet.net == 50_000 and raise_bet.capped == 200 * A - 50_000
    assert audit_line(result) == {"ante": A, "raise": 50_000, "progressive": 0, "total": 51_000}
    # below the cap nothing changes
    assert nets("9h8h7h6h5h", QUALIFIED, ante=100, action="raise", config=config)["raise"] == 10_000


def test_other_multiples_and_fractional_odds_round_down() -> None:
    table = dict(CaribbeanConfig().raise_paytable.to_mapping(), flush="11:2")
    config = CaribbeanConfig.from_dict({"raise_multiple": 1, "raise_paytable": table})
    result = settle_hand(
        player="Js9s6s4s2s", dealer=QUALIFIED, ante=101, action="raise", config=config
    )
    raise_bet = result.bets[1]
    assert (raise_bet.stake, raise_bet.net, raise_bet.rounding) == (101, 555, "1/2")


@pytest.mark.parametrize(
    ("player", "jackpot", "expected"),
    [
        ("AsKsQsJsTs", 1_000_001, 1_000_001 - 100),  # royal: 100 % of the meter
        ("9h8h7h6h5h", 1_000_001, 100_000 - 100),  # straight flush: 10 %, rounded down
        ("7c7d7h7s2c", 0, 50_000 - 100),  # four of a kind: a fixed prize
        ("QcQdQh4s4c", 0, 10_000 - 100),
        ("Js9s6s4s2s", 0, 5_000 - 100),
        ("Tc9dJhQs8c", 1_000_000, -100),  # a straight pays nothing
    ],
)
def test_the_progressive_pays_by_the_players_own_hand(
    player: str, jackpot: int, expected: int
) -> None:
    config = CaribbeanConfig(progressive_bet=100)
    for dealer in (QUALIFIED, "AcJd6c4d3c"):  # whatever the dealer holds
        line = {"ante": A, "action": "raise", "progressive": 100, "jackpot": jackpot}
        out = settle_line({"player": player, "dealer": dealer, **line}, config)
        assert out["progressive"] == expected
        assert out == ref.settle(
            player,
            dealer,
            ante=A,
            action="raise",
            progressive=100,
            jackpot=jackpot,
            table=ref.Table(progressive_bet=100),
        )


def test_progressive_refusals() -> None:
    line = {"player": "AsKsQsJsTs", "dealer": QUALIFIED, "ante": A, "action": "raise"}
    with pytest.raises(IllegalActionError) as caught:
        settle_line({**line, "progressive": 100}, CaribbeanConfig())
    assert caught.value.reason == "unknown_spots"
    with pytest.raises(IllegalActionError) as caught:
        settle_line({**line, "progressive": 200}, CaribbeanConfig(progressive_bet=100))
    assert caught.value.reason == "bet_out_of_limits"
    with pytest.raises(IllegalActionError) as caught:
        settle_line(
            {**line, "progressive": 100, "jackpot": -1}, CaribbeanConfig(progressive_bet=100)
        )
    assert caught.value.reason == "amount_not_positive"


@pytest.mark.parametrize(
    ("line", "error", "reason"),
    [
        ({"dealer": QUALIFIED, "ante": A, "action": "raise"}, IllegalActionError, "missing_field"),
        ({"player": "2c2d9hTsJd", "dealer": QUALIFIED, "ante": A, "action": "call"}, IllegalActionError, "unknown_action"),
        ({"player": "2c2d9hTsJd", "dealer": QUALIFIED, "ante": 0, "action": "raise"}, IllegalActionError, "amount_not_positive"),
        ({"player": "2c2d9hTsJd", "dealer": QUALIFIED, "ante": 1.5, "action": "raise"}, IllegalActionError, "amount_not_whole"),
        ({"player": "2c2d9hTsJd", "dealer": QUALIFIED, "ante": A, "action": "raise", "box": 1}, IllegalActionError, "unknown_field"),
        ({"player": "2c2d9hTs", "dealer": QUALIFIED, "ante": A, "action": "raise"}, InvalidCardsError, None),
        ({"player": "2c2d9hTsAh", "dealer": QUALIFIED, "ante": A, "action": "raise"}, InvalidCardsError, None),
        ({"player": "2c2d9hTsXx", "dealer": QUALIFIED, "ante": A, "action": "raise"}, NotationError, None),
    ],
)  # fmt: skip
def test_bad_lines_are_refused_naming_what_is_wrong(
    line: dict[str, object], error: type[Exception], reason: str | None
) -> None:
    with pytest.raises(error) as caught:
        settle_line(line, CaribbeanConfig())
    if reason is not None:
        assert getattr(caught.value, "reason", None) == reason


def test_a_raise_table_must_pay_every_hand_and_better_hands_more() -> None:
    partial = PayTable.from_mapping("raise", {"royal_flush": "100:1", "pair": "1:1"})
    with pytest.raises(ConfigError, match="high_card"):
        CaribbeanConfig(raise_paytable=partial)
    with pytest.raises(ConfigError, match="pays less"):
        CaribbeanConfig.from_dict({"raise_paytable": {"flush": "1:1"}})
    # lines given in the settings replace the rules' lines, the others stay
    config = CaribbeanConfig.from_dict({"raise_paytable": {"royal_flush": "250:1"}})
    assert config.raise_paytable.to_mapping() == {
        **CaribbeanConfig().raise_paytable.to_mapping(),
        "royal_flush": "250:1",
    }
    # a line named as people write it ("Royal Flush", "straight-flush") replaces its line too
    # (it was refused: "lists Royal flush twice")
    spelled = CaribbeanConfig.from_dict({"raise_paytable": {"Royal Flush": "250:1"}})
    assert spelled.raise_paytable == config.raise_paytable
    shown = CaribbeanConfig.from_dict({"progressive_paytable": {"Full-House": 20_000}})
    assert shown.progressive_paytable.to_mapping()["full_house"] == 20_000
    side = CaribbeanConfig.from_dict({"progressive_paytable": {"flush": 0, "straight": 2500}})
    assert side.progressive_paytable.to_mapping() == {
        "royal_flush": "100%",
        "straight_flush": "10%",
        "four_of_a_kind": 50_000,
        "full_house": 10_000,
        "straight": 2_500,
    }


TABLES = [
    (CaribbeanConfig(), ref.Table()),
    (
        CaribbeanConfig(raise_multiple=1, max_payout=7_000, progressive_bet=500),
        ref.Table(multiple=1, max_payout=7_000, progressive_bet=500),
    ),
]


@settings(max_examples=400)
@given(
    deal=st.permutations(DECK).map(lambda d: d[:10]),
    ante=st.integers(1, 20_000),
    action=st.sampled_from(["raise", "fold"]),
    which=st.sampled_from([0, 1]),
    jackpot=st.integers(0, 10**8),
)
def test_random_deals_agree_with_the_reference(
    deal: list[object], ante: int, action: str, which: int, jackpot: int
) -> None:
    config, table = TABLES[which]
    player, dealer = format_cards(deal[:5]), format_cards(deal[5:])  # type: ignore[arg-type]
    side = config.progressive_bet or 0
    line = {"player": player, "dealer": dealer, "ante": ante, "action": action}
    if side:
        line |= {"progressive": side, "jackpot": jackpot}
    mine = settle_line(line, config)
    theirs = ref.settle(
        player, dealer, ante=ante, action=action, progressive=side, jackpot=jackpot, table=table
    )
    assert mine == theirs, (player, dealer)


@settings(max_examples=300)
@given(deal=st.permutations(DECK).map(lambda d: d[:10]))
def test_qualification_and_the_comparison_agree_with_the_reference(deal: list[object]) -> None:
    player, dealer = format_cards(deal[:5]), format_cards(deal[5:])  # type: ignore[arg-type]
    result = settle_hand(player=player, dealer=dealer, ante=A, action="raise")
    assert result.dealer_qualifies == ref.qualifies(dealer)
    mine, theirs = ref.hand_rank(player), ref.hand_rank(dealer)
    expected = (
        Comparison.WIN if mine > theirs else Comparison.LOSE if mine < theirs else Comparison.TIE
    )
    assert result.comparison is expected
