"""Every settlement path of spec/russian.md "Dealer and settlement", through the pure function."""

from __future__ import annotations

import pytest

from croupier.cards import parse_cards
from croupier.errors import ConfigError, IllegalActionError, InvalidCardsError
from croupier.games.russian import (
    BetKind,
    BetPaytable,
    Draw,
    Outcome,
    RussianConfig,
    settle_box,
)
from croupier.games.russian.rules import (
    BoxSettlement,
    buy_dealer_game,
    check_draw,
    dealer_qualifies,
    insurance_limits,
)

CONFIG = RussianConfig()
TRIPS = "Ah As Ad 7c 2h"
PAIR_KINGS = "Kd Kc 9c 5s 3h"
NOT_QUALIFIED = "Qd Jc 9c 5s 3h"


def settle(
    player: str = TRIPS,
    dealer: str = PAIR_KINGS,
    *,
    initial: str | None = None,
    draw: Draw = Draw.NONE,
    folded: bool = False,
    ante: int = 100,
    bonus: int = 0,
    insurance: int = 0,
    buy: bool = False,
    dealer_draws: str = "",
    config: RussianConfig = CONFIG,
) -> BoxSettlement:
    final = parse_cards(player)
    return settle_box(
        config=config,
        ante=ante,
        initial=parse_cards(initial) if initial else final[:5],
        final=final,
        draw=draw,
        folded=folded,
        dealer=parse_cards(dealer),
        bonus=bonus,
        insurance=insurance,
        buy=buy,
        dealer_draws=parse_cards(dealer_draws),
    )


def nets(s: BoxSettlement) -> dict[str, int]:
    return {kind.value: s.net_of(kind) for kind in BetKind} | {"total": s.net}


def test_dealer_qualification() -> None:
    assert dealer_qualifies(parse_cards("As Kd 7c 4h 2d"))
    assert dealer_qualifies(parse_cards("2s 2d 7c 4h 3d"))
    assert not dealer_qualifies(parse_cards("As Qd 7c 4h 2d"))
    assert not dealer_qualifies(parse_cards(NOT_QUALIFIED))


def test_qualified_win_pays_the_bet_only() -> None:
    s = settle()
    assert nets(s)["ante"] == 0 and nets(s)["bet"] == 600 and s.net == 600
    bet = next(o for o in s.outcomes if o.kind is BetKind.BET)
    assert bet.outcome is Outcome.WON and bet.pay_line == "Three of a kind 3:1"
    ante = next(o for o in s.outcomes if o.kind is BetKind.ANTE)
    assert ante.outcome is Outcome.PUSH


def test_two_combinations_are_paid_on_a_win() -> None:
    s = settle("8h 8s Ac Kd 5h", "6d 6c 9c 4s 3h")
    assert nets(s)["bet"] == 400  # pair + Ace-King = 2 x Bet 200


def test_qualified_loss() -> None:
    s = settle("8h 8s 4c 3d 2h")
    assert nets(s) == {
        "ante": -100,
        "bet": -200,
        "fee": 0,
        "insurance": 0,
        "bonus": 0,
        "buy": 0,
        "total": -300,
    }


def test_tie_pushes_ante_and_bet() -> None:
    s = settle("Kh Ks 9d 5c 3s")
    assert s.net == 0
    assert {o.outcome for o in s.outcomes} == {Outcome.PUSH}


def test_kickers_break_ties() -> None:
    assert settle("Kh Ks 9d 5c 4s").net == 200
    assert settle("Kh Ks 9d 5c 2s").net == -300


def test_dealer_not_qualified_pays_ante_even_money() -> None:
    s = settle(dealer=NOT_QUALIFIED)
    assert nets(s)["ante"] == 100 and nets(s)["bet"] == 0 and s.net == 100
    assert not s.dealer_qualified


def test_bought_game_that_qualifies_is_settled_by_comparison() -> None:
    s = settle(dealer=NOT_QUALIFIED, buy=True, dealer_draws="Jd")
    assert {str(c) for c in s.dealer_hand} == {"Jc", "Jd", "9c", "5s", "3h"}
    assert nets(s)["buy"] == -100 and nets(s)["bet"] == 600 and nets(s)["ante"] == 0
    assert s.net == 500


def test_bought_game_that_beats_the_player() -> None:
    s = settle("7h 7s 4c 3d 2h", NOT_QUALIFIED, buy=True, dealer_draws="Jd")
    assert s.net == -400


def test_bought_game_that_does_not_qualify() -> None:
    # seed 004 (issue 28): the buyer gave up the Ante's payment; the Ante is returned unpaid
    s = settle(dealer=NOT_QUALIFIED, buy=True, dealer_draws="2c")
    assert nets(s)["ante"] == 0 and nets(s)["bet"] == 0 and nets(s)["buy"] == -100
    assert s.net == -100
    paid = RussianConfig(failed_buy_ante="paid")  # type: ignore[arg-type]
    s = settle(dealer=NOT_QUALIFIED, buy=True, dealer_draws="2c", config=paid)
    assert nets(s)["ante"] == 100 and nets(s)["buy"] == -100 and s.net == 0


def test_rebuy_same_rank_option() -> None:
    dealer = parse_cards(NOT_QUALIFIED)
    hand, used = buy_dealer_game(dealer, parse_cards("Qh Jd"), rebuy_same_rank=True)
    assert used == 2 and "Jd" in {str(c) for c in hand}
    hand, used = buy_dealer_game(dealer, parse_cards("Qh Jd"), rebuy_same_rank=False)
    assert used == 1 and "Qh" in {str(c) for c in hand}
    with pytest.raises(InvalidCardsError):
        buy_dealer_game(dealer, parse_cards("Qh"), rebuy_same_rank=True)
    off = RussianConfig(rebuy_same_rank=False)
    # Qh for the Queen: still no qualifying hand, the Ante returned unpaid and the fee lost
    assert settle(dealer=NOT_QUALIFIED, buy=True, dealer_draws="Qh Jd", config=off).net == -100
    assert settle(dealer=NOT_QUALIFIED, buy=True, dealer_draws="Qh Jd").net == 500


def test_insurance_won_when_dealer_does_not_qualify() -> None:
    s = settle(dealer=NOT_QUALIFIED, insurance=300)
    assert nets(s)["insurance"] == 300 and s.net == 400


def test_insurance_lost_when_dealer_qualifies() -> None:
    s = settle(insurance=300)
    assert nets(s)["insurance"] == -300 and s.net == 300


def test_insurance_is_not_changed_by_a_bought_game() -> None:
    s = settle(dealer=NOT_QUALIFIED, insurance=100, buy=True, dealer_draws="Jd")
    assert nets(s)["insurance"] == 100 and s.net == 600


def test_insurance_limits() -> None:
    assert insurance_limits(parse_cards(TRIPS), ante=100, config=CONFIG) == (100, 600)
    assert insurance_limits(parse_cards("Kh Ks 9d 5c 3s"), ante=100, config=CONFIG) is None
    with pytest.raises(IllegalActionError, match="three of a kind"):
        settle("Kh Ks 9d 5c 3s", insurance=100)
    with pytest.raises(IllegalActionError, match="outside"):
        settle(insurance=601)
    with pytest.raises(IllegalActionError, match="outside"):
        settle(insurance=99)
    with pytest.raises(IllegalActionError, match="folded"):
        settle(folded=True, insurance=100)


def test_buy_is_refused_when_the_dealer_qualifies_or_on_a_fold() -> None:
    with pytest.raises(IllegalActionError):
        settle(buy=True, dealer_draws="2c")
    with pytest.raises(IllegalActionError):
        settle(dealer=NOT_QUALIFIED, folded=True, buy=True, dealer_draws="2c")


def test_bonus_wins_on_the_first_five_whatever_the_main_bets() -> None:
    straight = "9h 8s 7d 6c 5h"
    # seed 004 (issue 28): a fold loses every bet made, the Bonus too, by default
    s = settle(straight, bonus=100, folded=True)
    assert nets(s)["bonus"] == -100 and nets(s)["ante"] == -100
    stands = RussianConfig(bonus_on_fold="stands")  # type: ignore[arg-type]
    s = settle(straight, bonus=100, folded=True, config=stands)
    assert nets(s)["bonus"] == 4000 and nets(s)["ante"] == -100
    s = settle("9h 8s 7d 6c 2h", initial=straight, draw=Draw.EXCHANGE, bonus=100)
    assert nets(s)["bonus"] == 4000


def test_bonus_loses_below_a_straight() -> None:
    s = settle(bonus=50)
    assert nets(s)["bonus"] == -50
    royal = settle("Ah Kh Qh Jh Th", "2c 3c 4d 6s 8h", bonus=10)
    assert nets(royal)["bonus"] == 10_000


def test_fold_after_a_draw_loses_fee_and_ante() -> None:
    s = settle("Ah As Ad 7c 2h", initial="Ah As Ad 7c 3h", draw=Draw.EXCHANGE, folded=True)
    assert nets(s)["fee"] == -100 and nets(s)["ante"] == -100 and s.net == -200


def test_sixth_card_fee_and_six_card_hand() -> None:
    s = settle("Kh Qh Jh Th 9h 8h", "Ad Kc 9c 5s 3h", draw=Draw.SIXTH)
    assert nets(s)["fee"] == -100
    assert nets(s)["bet"] == 200 * 100


def test_payout_cap() -> None:
    capped = RussianConfig(max_payout=5_000)
    s = settle("Ah Kh Qh Jh Th", "Ad Kc 9c 5s 3h", config=capped)
    bet = next(o for o in s.outcomes if o.kind is BetKind.BET)
    assert bet.net == 5_000 and "max payout" in bet.pay_line
    assert insurance_limits(parse_cards("Ah Kh Qh Jh Th"), ante=100, config=capped) == (100, 5_000)
    assert settle("Ah Kh Qh Jh Th", "Ad Kc 9c 5s 3h").net == 20_000


def test_check_draw() -> None:
    first = parse_cards("Ah As Ad 7c 2h")
    check_draw(first, first, Draw.NONE)
    check_draw(first, parse_cards("Ah As Ad 7c 3h"), Draw.EXCHANGE)
    check_draw(first, first + parse_cards("3h"), Draw.SIXTH)
    for final, draw in [
        (first, Draw.EXCHANGE),
        (parse_cards("Ah As Ad 7c 3h"), Draw.NONE),
        (parse_cards("Ah As Ad 7c 3h 4h"), Draw.SIXTH),
        (first + parse_cards("3h"), Draw.EXCHANGE),
    ]:
        with pytest.raises(InvalidCardsError):
            check_draw(first, final, draw)


def test_config_validation() -> None:
    with pytest.raises(ConfigError):
        RussianConfig(ante_min=0)
    with pytest.raises(ConfigError):
        RussianConfig(max_players=5)
    with pytest.raises(ConfigError):
        BetPaytable(pair=-1)
    with pytest.raises(ConfigError):
        BetPaytable(flush=3)  # below the straight's 4
    with pytest.raises(ConfigError):
        RussianConfig(duplicate_rank_straights="three")  # type: ignore[arg-type]
