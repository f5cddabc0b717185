"""Russian Poker to the letter of seed 004 (issue 28): a bought dealer's game that still does
not qualify leaves the Ante unpaid (``failed_buy_ante``), and a fold loses the Bonus with the
other bets (``bonus_on_fold``); the options keep the other readings. Both are honoured by the
round, the settlement audit, records and replay, and the terminal table."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from croupier.cards import DECK, parse_cards
from croupier.cli.russian import app
from croupier.deck import Shoe
from croupier.errors import ConfigError, IllegalActionError, RecordError
from croupier.games.russian import (
    BetKind,
    BonusOnFold,
    FailedBuyAnte,
    RussianConfig,
    RussianRound,
    settle_line,
)
from croupier.history import russian as russian_history

runner = CliRunner()


def _shoe(text: str) -> Shoe:
    top = parse_cards(text)
    return Shoe((*top, *(c for c in DECK if c not in top)))


# box 0 (trips of Aces), box 1 (a dealt straight), the dealer's K-Q-9-5-4 (no Ace-King, no
# pair: not qualified); box 0's buy replaces the King with the 7h: Q-9-7-5-4 still does not
FAILED_BUY = "Ah As Ad 7c 2h  9h 8s 7d 6c 5h  Kd Qd 9c 5s 4h  7h"
PAID = RussianConfig(failed_buy_ante="paid", bonus_on_fold="stands")  # type: ignore[arg-type]


def _round(config: RussianConfig) -> RussianRound:
    game = RussianRound(config=config, shoe=_shoe(FAILED_BUY))
    game.place_box(0, box=0, ante=100)
    game.place_box(1, box=1, ante=100, bonus=100)
    game.deal()
    game.bet(0, box=0, insurance=300)
    game.fold(1, box=1)
    game.buy_game(0, box=0)
    return game


def _nets(game: RussianRound, box: int) -> dict[str, int]:
    settled = game.settlement(box)
    return {kind.value: settled.net_of(kind) for kind in BetKind} | {"total": settled.net}


def test_the_defaults_are_the_seeds_letter() -> None:
    config = RussianConfig()
    assert config.failed_buy_ante is FailedBuyAnte.FORFEIT
    assert config.bonus_on_fold is BonusOnFold.LOST
    assert RussianConfig.from_dict(PAID.to_dict()) == PAID
    assert PAID.to_dict()["failed_buy_ante"] == "paid"
    for bad, message in (
        ({"failed_buy_ante": "refunded"}, "failed_buy_ante = 'refunded' is not one of"),
        ({"bonus_on_fold": True}, "bonus_on_fold = True is not one of"),
    ):
        with pytest.raises(ConfigError, match=message):
            RussianConfig.from_dict(bad)
        with pytest.raises(ConfigError, match=message):
            RussianConfig(**bad)


def test_a_failed_buy_forfeits_the_antes_payment_and_a_fold_loses_the_bonus() -> None:
    game = _round(RussianConfig())
    # the Ante's payment was given up to buy: returned unpaid; the fee is lost; the
    # insurance still pays 1:1 on the dealer's hand as dealt (spec Decision)
    assert _nets(game, 0) == {
        "ante": 0,
        "bet": 0,
        "fee": 0,
        "insurance": 300,
        "bonus": 0,
        "buy": -100,
        "total": 200,
    }
    # a dealt straight folded: the Bonus goes with the Ante (seed 004 "perde le puntate fatte")
    assert _nets(game, 1)["bonus"] == -100 and _nets(game, 1)["total"] == -200
    assert game.returns() == {0: 100 + 200 + 300 + 300, 1: 0}


def test_the_options_keep_the_other_readings() -> None:
    game = _round(PAID)
    assert _nets(game, 0)["ante"] == 100 and _nets(game, 0)["total"] == 300
    # issue 28: a fold with a dealt straight nets +3,900 on a 100 Ante and 100 Bonus
    assert _nets(game, 1)["bonus"] == 4_000 and _nets(game, 1)["total"] == 3_900


def test_a_buy_that_qualifies_the_dealer_is_settled_as_usual() -> None:
    # the buy draws the 4d for the King: it pairs the dealer's 4h, qualified; trips win
    game = RussianRound(config=RussianConfig(), shoe=_shoe("Ah As Ad 7c 2h Kd Qd 9c 5s 4h 4d"))
    game.place_box(0, box=0, ante=100)
    game.deal()
    game.bet(0, box=0)
    game.buy_game(0, box=0)
    assert _nets(game, 0) == {
        "ante": 0,
        "bet": 600,
        "fee": 0,
        "insurance": 0,
        "bonus": 0,
        "buy": -100,
        "total": 500,
    }


def test_declining_the_buy_still_takes_the_ante_at_even_money() -> None:
    game = RussianRound(config=RussianConfig(), shoe=_shoe("Ah As Ad 7c 2h Kd Qd 9c 5s 4h"))
    game.place_box(0, box=0, ante=100, bonus=100)
    game.deal()
    game.bet(0, box=0)
    game.decline_buy(0, box=0)
    assert _nets(game, 0)["ante"] == 100 and _nets(game, 0)["bonus"] == -100


@pytest.mark.parametrize("config", [RussianConfig(), PAID])
def test_records_replay_under_their_own_rules(config: RussianConfig) -> None:
    game = _round(config)
    record = json.loads(json.dumps(russian_history.record(game, round_id=5)))
    assert record["rules"]["failed_buy_ante"] == config.failed_buy_ante.value
    assert russian_history.verify(record) == []


def test_a_record_from_before_the_options_replays_under_the_old_rules() -> None:
    # records written before issue 28 do not name the rules: a failed buy paid the Ante and
    # a folded box's Bonus stood
    record = json.loads(json.dumps(russian_history.record(_round(PAID), round_id=6)))
    for key in ("failed_buy_ante", "bonus_on_fold"):
        del record["rules"][key]
    assert russian_history.verify(record) == []
    replayed = russian_history.replay(record)
    assert [replayed.settlement(box).net for box in (0, 1)] == [300, 3_900]


LINE: dict[str, Any] = {
    "player": "AhAsAd7c2h",
    "dealer": "KdQd9c5s4h",
    "dealer_draws": "7h",
    "ante": 100,
    "insurance": 300,
    "buy": True,
}


def test_the_settle_audit_honours_both_options() -> None:
    assert settle_line(LINE, RussianConfig())["ante"] == 0
    assert settle_line(LINE, PAID)["ante"] == 100
    fold = {"player": "9h8s7d6c5h", "dealer": "KdQd9c5s4h", "ante": 100, "bonus": 100}
    fold["action"] = "fold"
    assert settle_line(fold, RussianConfig())["total"] == -200
    assert settle_line(fold, PAID)["total"] == 3_900
    out = runner.invoke(
        app, ["settle", "--rule", "bonus_on_fold=stands"], input=json.dumps(fold) + "\n"
    )
    assert out.exit_code == 0 and json.loads(out.output)["bonus"] == 4_000


def test_the_terminal_table_plays_the_option() -> None:
    # seed 3: exchange Q and 7, bet, buy the game -- which still does not qualify -- leave
    answers = "e\n1 2\nb\ny\nn\n"
    default = runner.invoke(
        app, ["play", "--seed", "3", "--boxes", "2", "--bonus", "5"], input=answers
    )
    paid = runner.invoke(
        app,
        ["play", "--seed", "3", "--boxes", "2", "--bonus", "5", "--rule", "failed_buy_ante=paid"],
        input=answers,
    )
    assert "You leave with 985 chips (-15)" in default.output
    assert "You leave with 995 chips (-5)" in paid.output


# -- limits changed in the betting window (seed 003 "tudi med igro", as at every table) ---------


def test_limits_changed_before_the_deal_apply_to_the_boxes_after() -> None:
    game = RussianRound(config=RussianConfig(), shoe=_shoe(FAILED_BUY))
    game.place_box(0, box=0, ante=100, bonus=100)
    event = game.change_limits({"ante_min": 500, "bonus_min": 200})
    assert event is not None and (event.ante_min, event.bonus_min) == (500, 200)
    assert game.change_limits({"ante_min": 500}) is None  # nothing changes
    with pytest.raises(IllegalActionError, match="ante 100 is outside the table limits 500"):
        game.place_box(1, box=1, ante=100)
    game.place_box(1, box=1, ante=500)
    with pytest.raises(ConfigError, match="not limits"):
        game.change_limits({"boxes": 3})
    game.deal()
    with pytest.raises(IllegalActionError, match="bets are closed"):
        game.change_limits({"ante_min": 100})
    game.bet(0, box=0)
    game.fold(1, box=1)
    game.decline_buy(0, box=0)
    record = json.loads(json.dumps(russian_history.record(game, round_id=7)))
    # the record keeps the rules the round opened with and the change where it happened
    assert record["rules"]["ante_min"] == 100
    assert [e["kind"] for e in record["events"]][:3] == [
        "box_placed",
        "limits_changed",
        "box_placed",
    ]
    assert russian_history.verify(record) == []
    moved = {
        **record,
        "events": [record["events"][i] for i in (1, 0, *range(2, len(record["events"])))],
    }
    with pytest.raises(RecordError, match="outside the table limits"):
        russian_history.verify(moved)
