"""Hold'em to the letter of seed 002 (issue 28): the last bettor or raiser of the hand shows
first, on any street (the river's only as an option); the library table's button moves to the
next seat with chips, so no player posts the big blind twice running; ``PotAwarded.value`` is
the winning hand's whenever hands were compared."""

from __future__ import annotations

import itertools
import random

import pytest

from croupier.cards import DECK, Card, parse_cards
from croupier.deck import Shoe, seeded_source, shuffled
from croupier.errors import ConfigError, IllegalActionError
from croupier.evaluator import evaluate
from croupier.games.holdem import (
    CashHand,
    FirstToShow,
    HoldemConfig,
    HoldemTableConfig,
    Phase,
    ShowdownRule,
)
from croupier.games.holdem.events import PotAwarded
from croupier.games.holdem.table import CashTable
from croupier.history import holdem_phh as phh


def shoe_for(holes: list[str], board: str) -> Shoe:
    """Hole cards one at a time from position 0, then the board with a burn before each
    street."""
    hole_cards = [parse_cards(h) for h in holes]
    board_cards = parse_cards(board)
    used = {c.id for h in hole_cards for c in h} | {c.id for c in board_cards}
    spare = [c for c in DECK if c.id not in used]
    order: list[Card] = [h[0] for h in hole_cards] + [h[1] for h in hole_cards]
    order += [spare.pop(), *board_cards[:3], spare.pop(), board_cards[3], spare.pop()]
    order += [board_cards[4], *spare]
    return Shoe(order)


def nl(players: int, **kwargs: object) -> HoldemConfig:
    return HoldemConfig.cash(players=players, small_blind=1, big_blind=2, **kwargs)  # type: ignore[arg-type]


HOLES = ["AcAd", "KcKd", "2c3d", "QhQs"]
BOARD = "2h7d9h3s4c"


def _checked_down(hand: CashHand, streets: int) -> None:
    for _ in range(streets):
        while hand.actor is not None and hand.phase is Phase.BETTING and not hand.to_call:
            hand.check(hand.actor)


def _flop_bet_then_checks(rule: FirstToShow | None = None, *, players: int = 3) -> CashHand:
    """Pre-flop called around; position 1 bets the flop and is called; turn and river are
    checked through."""
    config = nl(players) if rule is None else nl(players, first_to_show=rule)
    hand = CashHand(config, stacks=(100,) * players, shoe=shoe_for(HOLES[:players], BOARD))
    while hand.street == 0 and hand.actor is not None:
        hand.check_or_call(hand.actor)
    hand.check(0)
    hand.raise_to(1, 6)  # the flop's bet: the last of the hand
    while hand.actor is not None and hand.to_call:
        hand.check_or_call(hand.actor)
    _checked_down(hand, 2)
    assert hand.phase is Phase.SHOWDOWN
    return hand


def test_the_last_bettor_of_the_hand_shows_first_though_the_river_was_checked() -> None:
    hand = _flop_bet_then_checks()
    assert hand.config.first_to_show is FirstToShow.HAND
    assert hand.showdown_order == (1, 2, 0)
    # seed 002's showdown: the first to show may not muck
    with pytest.raises(IllegalActionError, match="shows first") as info:
        hand.muck(1)
    assert info.value.reason == "must_show_first"
    hand.show(1)


def test_the_rivers_last_bettor_is_an_option() -> None:
    hand = _flop_bet_then_checks(FirstToShow.RIVER)
    # nobody bet the river: the first player left of the button
    assert hand.showdown_order == (0, 1, 2)


def test_nobody_bet_the_first_left_of_the_button_shows_first() -> None:
    for rule in FirstToShow:
        hand = CashHand(nl(4, first_to_show=rule), stacks=(100,) * 4, shoe=shoe_for(HOLES, BOARD))
        while hand.actor is not None:  # limped and checked to the end: no bet, no raise
            hand.check_or_call(hand.actor)
        assert hand.phase is Phase.SHOWDOWN
        assert hand.showdown_order == (0, 1, 2, 3)


def test_a_preflop_raise_is_the_last_aggression_when_every_street_is_checked() -> None:
    hand = CashHand(nl(4), stacks=(100,) * 4, shoe=shoe_for(HOLES, BOARD))
    hand.raise_to(2, 6)  # under the gun
    while hand.actor is not None and hand.to_call:
        hand.check_or_call(hand.actor)
    _checked_down(hand, 3)
    assert hand.showdown_order == (2, 3, 0, 1)


def test_a_later_raise_takes_over_and_the_turns_bettor_beats_the_flops() -> None:
    hand = CashHand(nl(3), stacks=(100,) * 3, shoe=shoe_for(HOLES[:3], BOARD))
    while hand.street == 0 and hand.actor is not None:
        hand.check_or_call(hand.actor)
    hand.raise_to(0, 4)  # flop: position 0 bets
    hand.raise_to(1, 12)  # position 1 raises
    hand.check_or_call(2)
    hand.check_or_call(0)
    hand.check(0)  # turn
    hand.check(1)
    hand.raise_to(2, 10)  # position 2 bets the turn: the hand's last aggression
    hand.check_or_call(0)
    hand.check_or_call(1)
    _checked_down(hand, 1)
    assert hand.showdown_order == (2, 0, 1)


def test_heads_up_the_hands_last_bettor_shows_first() -> None:
    # heads-up position 0 is the big blind (left of the button, who posts the small blind)
    hand = CashHand(nl(2), stacks=(100, 100), shoe=shoe_for(HOLES[:2], BOARD))
    hand.check_or_call(1)
    hand.check(0)
    hand.check(0)  # flop
    hand.raise_to(1, 4)  # the button bets
    hand.check_or_call(0)
    _checked_down(hand, 2)
    assert hand.showdown_order == (1, 0)


def test_the_option_is_a_table_setting_and_written_in_the_hand_history() -> None:
    rules = HoldemTableConfig.from_dict({"first_to_show": "river"})
    assert rules.hand_config(3).first_to_show is FirstToShow.RIVER
    assert HoldemTableConfig.from_dict(rules.to_dict()) == rules
    assert HoldemTableConfig().to_dict()["first_to_show"] == "hand"
    with pytest.raises(ConfigError, match="first_to_show 'turn' is not one of"):
        HoldemTableConfig.from_dict({"first_to_show": "turn"})
    with pytest.raises(ConfigError, match="first_to_show"):
        nl(3, first_to_show="turn")
    for rule in FirstToShow:
        hand = _flop_bet_then_checks(rule)
        hand.finish()
        record = phh.from_hand(hand)
        assert dict(record.fields)["_first_to_show"] == rule.value
        assert phh.replay(phh.loads(phh.dumps(record))).state.stacks == hand.stacks


def test_a_hand_history_from_before_the_option_replays_under_the_rivers_rule() -> None:
    # written under seed 002's showdown before issue 28: the flop's bettor (position 1)
    # conceded unseen when the river was checked -- allowed then, as position 0 showed first
    hand = _flop_bet_then_checks(FirstToShow.RIVER)
    hand.show(0)  # aces
    hand.muck(1)  # kings, beaten by the aces shown
    hand.show(2)
    record = phh.from_hand(hand)
    legacy = phh.HandHistory(
        **{
            **{f: getattr(record, f) for f in record.__dataclass_fields__},
            "fields": tuple((k, v) for k, v in record.fields if k != "_first_to_show"),
        }
    )
    assert phh.replay(legacy).state.stacks == hand.stacks


# -- the button (library CashTable; docs/rules.md "The button") --------------------------


def _play(table: CashTable, seed: int) -> tuple[int, int]:
    hand = table.start_hand(shoe=Shoe(shuffled(seeded_source(seed))), auto_showdown=True)
    button, big = table.button, table.big_blind
    assert big is not None
    while not hand.is_over:
        if hand.to_call:
            hand.fold(hand.actor)  # type: ignore[arg-type]
        else:
            hand.check_or_call(hand.actor)  # type: ignore[arg-type]
    table.end_hand(hand)
    return button, big


def test_an_empty_seat_never_holds_the_button_and_the_big_blind_goes_round() -> None:
    # issue 28: seats 100,100,100,0,100,100 -- big blinds by hand were 4, 5, 5, ...
    table = CashTable(lambda n: nl(n), stacks=(100, 100, 100, 0, 100, 100), button=0)
    played = []
    for seed in range(15):
        played.append(_play(table, seed))
        for seat in (0, 1, 2, 4, 5):  # topped up: the same five players all along
            table.set_stack(seat, 100)
    buttons = [b for b, _ in played]
    bigs = [bb for _, bb in played]
    assert 3 not in buttons
    assert bigs[:10] == [2, 4, 5, 0, 1, 2, 4, 5, 0, 1]
    assert all(a != b for a, b in itertools.pairwise(bigs))


def test_no_big_blind_twice_running_as_players_bust_and_sit_down() -> None:
    rng = random.Random(28)
    for trial in range(200):
        seats = rng.randint(3, 9)
        stacks = [rng.choice([0, 5, 40, 100]) for _ in range(seats)]
        for seat in rng.sample(range(seats), 2):
            stacks[seat] = 100
        table = CashTable(lambda n: nl(n), stacks=stacks, button=rng.randrange(seats))
        last: int | None = None
        for hand_no in range(30):
            if sum(1 for s in table.stacks if s > 0) < 2:
                break
            button, big = _play(table, trial * 100 + hand_no)
            assert table.stacks[button] >= 0
            assert big != last, (trial, hand_no, stacks)
            last = big
            # between hands players leave, bust and sit down anywhere
            for seat in range(seats):
                roll = rng.random()
                if roll < 0.08:
                    table.set_stack(seat, 0)
                elif roll < 0.2 and table.stacks[seat] == 0:
                    table.set_stack(seat, rng.choice([5, 100]))


def test_three_to_two_when_the_button_leaves() -> None:
    table = CashTable(lambda n: nl(n), stacks=(100, 100, 100), button=0)
    assert _play(table, 1) == (0, 2)  # seat 1 small blind, seat 2 big blind
    table.set_stack(0, 0)  # the button leaves: heads-up, seat 2 must not post again
    button, big = _play(table, 2)
    assert (button, big) == (2, 1)  # heads-up the button posts the small blind


# -- PotAwarded.value ------------------------------------------------------------------


def test_a_pot_one_player_wins_at_showdown_carries_the_winning_hand() -> None:
    hand = CashHand(nl(3), stacks=(100,) * 3, shoe=shoe_for(HOLES[:3], BOARD), auto_showdown=True)
    while hand.actor is not None:
        hand.check_or_call(hand.actor)
    (award,) = [e for e in hand.events if isinstance(e, PotAwarded)]
    # position 2's 2c3d make two pair with the board; the aces and kings lose
    assert award.seats == (2,) and award.value == evaluate("2c 3d 2h 7d 9h 3s 4c").value


def test_a_pot_won_uncontested_has_value_zero() -> None:
    hand = CashHand(nl(3), stacks=(100,) * 3, shoe=shoe_for(HOLES[:3], BOARD))
    hand.raise_to(2, 10)
    hand.fold(0)
    hand.fold(1)
    (award,) = [e for e in hand.events if isinstance(e, PotAwarded)]
    assert award.seats == (2,) and award.value == 0


def test_side_pots_each_say_whether_they_were_contested() -> None:
    # position 0 (aces) all-in for 20; 1 (kings) and 2 (two pair) go on; 1 folds the river
    hand = CashHand(nl(3), stacks=(20, 100, 100), shoe=shoe_for(HOLES[:3], BOARD))
    hand.raise_to(2, 20)
    hand.check_or_call(0)  # all-in
    hand.check_or_call(1)
    hand.raise_to(1, 30)  # flop
    hand.check_or_call(2)
    hand.check(1)  # turn
    hand.check(2)
    hand.raise_to(1, 40)  # river
    hand.fold(2)
    assert hand.showdown_order == (1, 0)  # the river's bettor, then clockwise
    while not hand.is_over:
        hand.show(hand.showdown_seat)  # type: ignore[arg-type]
    awards = {e.pot: e for e in hand.events if isinstance(e, PotAwarded)}
    # the main pot: aces against kings at showdown; the side pot: kings alone, uncontested
    assert awards[0].seats == (0,) and awards[0].value == evaluate("Ac Ad 2h 7d 9h 3s 4c").value
    assert awards[1].seats == (1,) and awards[1].value == 0


def test_showdown_rule_any_muck_still_orders_by_the_hand() -> None:
    hand = CashHand(
        nl(3, showdown=ShowdownRule.ANY_MUCK),
        stacks=(100,) * 3,
        shoe=shoe_for(HOLES[:3], BOARD),
    )
    while hand.street == 0 and hand.actor is not None:
        hand.check_or_call(hand.actor)
    hand.check(0)
    hand.raise_to(1, 6)
    while hand.actor is not None and hand.to_call:
        hand.check_or_call(hand.actor)
    _checked_down(hand, 2)
    assert hand.showdown_order == (1, 2, 0)
    hand.muck(1)  # any-muck: even the first to show may muck
