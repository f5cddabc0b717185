"""Hold'em table settings for the showdown (seed 002 or any-muck) and the odd chip (position
or suit), as a server table takes them, and the hand record that keeps them (issue 17 item 3).
"""

from __future__ import annotations

from typing import Any

import pytest

from croupier.cards import DECK, parse_cards
from croupier.deck import Shoe
from croupier.errors import ConfigError, IllegalActionError
from croupier.games.holdem import OddChip, ShowdownRule
from croupier.history import holdem_phh as phh
from croupier.server.tables.config import TableConfig, parse_tables
from croupier.server.tables.holdem import HoldemFactory


def _factory(**rules: Any) -> HoldemFactory:
    return HoldemFactory(TableConfig(name="nl", game="holdem", rules=rules))


def _shoe(holes: list[str], board: str) -> Shoe:
    """Hole cards one at a time from the first position, a burn before each street."""
    dealt = [parse_cards(h) for h in holes]
    order = [hole[i] for i in range(2) for hole in dealt]
    flop, turn, river = parse_cards(board)[:3], parse_cards(board)[3:4], parse_cards(board)[4:]
    used = {c.id for c in (*order, *flop, *turn, *river)}
    spare = iter(c for c in DECK if c.id not in used)
    top = [*order, next(spare), *flop, next(spare), *turn, next(spare), *river]
    ids = {c.id for c in top}
    return Shoe((*top, *(c for c in DECK if c.id not in ids)))


def test_the_seed_showdown_is_the_default_and_options_are_settings() -> None:
    assert _factory().rules.hand_config(3).showdown is ShowdownRule.SEED
    factory = _factory(showdown="any-muck", odd_chip="suit", small_blind=1, big_blind=3)
    config = factory.rules.hand_config(3)
    assert (config.showdown, config.odd_chip) == (ShowdownRule.ANY_MUCK, OddChip.SUIT)
    assert factory.describe()["showdown"] == "any-muck"
    assert factory.describe()["odd_chip"] == "suit"
    (table,) = parse_tables(
        '[[tables]]\nname = "nl"\ngame = "holdem"\n[tables.rules]\nodd_chip = "suit"\n'
    )
    assert HoldemFactory(table).rules.hand_config(2).odd_chip is OddChip.SUIT
    for rules, message in (
        ({"showdown": "show-all"}, "showdown 'show-all' is not one of"),
        ({"odd_chip": "oldest"}, "odd_chip 'oldest' is not one of"),
    ):
        with pytest.raises(ConfigError, match=message):
            _factory(**rules)


def test_a_table_hand_keeps_its_rules_in_the_record_and_replays() -> None:
    # p1 (small blind) and p3 (button) both play the board's straight; p3's As outranks Ac
    factory = _factory(odd_chip="suit", small_blind=1, big_blind=3, min_buy_in=4)
    shoe = _shoe(["Ac2d", "3c3d", "As2h"], "ThJhQdKc9s")
    hand = factory.new_hand(
        shoe, seats=[1, 2, 3], stacks=[101, 100, 101], names=["a", "b", "c"], button=3
    )
    hand.engine.raise_to(2, 101)
    hand.engine.check_or_call(0)
    hand.engine.fold(1)
    hand.showdown()
    assert hand.engine.is_over
    won = hand.winnings()
    assert (won[1], won[3]) == (102, 103)  # the odd chip of 205 to the spade ace
    history = phh.loads(hand.phh_text(7))
    assert history.get("_odd_chip") == "suit" and history.get("_showdown") == "seed"
    replayed = phh.replay(history)
    assert replayed.state.stacks == hand.engine.stacks


def test_the_seed_rule_at_a_table_hand() -> None:
    factory = _factory(small_blind=1, big_blind=2, min_buy_in=4)
    shoe = _shoe(["AcAd", "KcKd", "2c3d"], "2h7d9h3s4c")
    hand = factory.new_hand(
        shoe, seats=[0, 1, 2], stacks=[100, 100, 100], names=["a", "b", "c"], button=2
    )
    engine = hand.engine
    engine.check_or_call(2)
    engine.check_or_call(0)
    engine.check(1)
    for _ in range(2):
        for seat in (0, 1, 2):
            engine.check(seat)
    engine.check(0)
    engine.raise_to(1, 10)
    engine.check_or_call(2)
    engine.check_or_call(0)
    with pytest.raises(IllegalActionError, match="shows first"):
        engine.muck(1)
    hand.showdown()  # the table shows or mucks in turn: kings, two pair, the aces conceded
    assert hand.shown_seats() == [1, 2]
    assert engine.is_over
    replayed = phh.replay(phh.loads(hand.phh_text(8)))
    assert replayed.state.stacks == engine.stacks


# -- issue 28 ----------------------------------------------------------------------------------


def test_the_hands_last_bettor_shows_first_at_a_table_and_the_river_rule_is_a_setting() -> None:
    # the flop is bet by position 1 and called; turn and river are checked through
    for rule, first in (("hand", 1), ("river", 0)):
        factory = _factory(small_blind=1, big_blind=2, min_buy_in=4, first_to_show=rule)
        assert factory.describe()["first_to_show"] == rule
        shoe = _shoe(["AcAd", "KcKd", "2c3d"], "2h7d9h3s4c")
        hand = factory.new_hand(
            shoe, seats=[4, 5, 0], stacks=[100, 100, 100], names=["a", "b", "c"], button=0
        )
        engine = hand.engine
        engine.check_or_call(2)
        engine.check_or_call(0)
        engine.check(1)
        engine.check(0)
        engine.raise_to(1, 6)
        engine.check_or_call(2)
        engine.check_or_call(0)
        for _ in range(2):
            for seat in (0, 1, 2):
                engine.check(seat)
        assert engine.showdown_order[0] == first
        hand.showdown()
        assert engine.is_over
        history = phh.loads(hand.phh_text(9))
        assert history.get("_first_to_show") == rule
        assert phh.replay(history).state.stacks == engine.stacks
    with pytest.raises(ConfigError, match="first_to_show 'flop' is not one of"):
        _factory(first_to_show="flop")


def test_a_split_the_server_cannot_deal_is_refused_when_the_table_is_configured() -> None:
    # pots split to fractions of a cent cannot be paid into stacks held in whole cents
    with pytest.raises(ConfigError, match="split = 'exact' cannot be dealt at a server table"):
        _factory(split="exact")
    with pytest.raises(ConfigError, match="split"):
        HoldemFactory(
            parse_tables(
                '[[tables]]\nname = "nl"\ngame = "holdem"\n[tables.rules]\nsplit = "exact"\n'
            )[0]
        )
    factory = _factory()
    with pytest.raises(ConfigError, match="split"):
        factory.reconfigure({"split": "exact"})
    assert factory.rules.split.value == "live"  # refused whole: nothing changed


def test_an_operator_cannot_open_a_table_with_a_split_it_cannot_deal(table_server: Any) -> None:
    from server_testkit import test_tables

    server = table_server(test_tables())
    operator = {"Authorization": f"Bearer {server.operator_token()}"}
    body = {"name": "nl-exact", "game": "holdem", "rules": {"split": "exact"}}
    refused = server.client.post("/api/operator/tables", json=body, headers=operator)
    assert refused.status_code == 422, refused.text
    assert "split = 'exact' cannot be dealt" in refused.json()["error"]["message"]
    names = [t["name"] for t in server.client.get("/api/tables").json()]
    assert "nl-exact" not in names
    live = {**body, "name": "nl-live", "rules": {"split": "live"}}
    assert (
        server.client.post("/api/operator/tables", json=live, headers=operator).status_code == 201
    )
