"""Hold'em rules on scripted hands: side pots, odd chips, heads-up, raises, limits, rake."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import pytest

from croupier.cards import DECK, Card, parse_cards
from croupier.deck import Shoe
from croupier.errors import ConfigError, IllegalActionError
from croupier.games.holdem import (
    EXACT_SCALE,
    BettingStructure,
    CashHand,
    HoldemConfig,
    OddChip,
    Phase,
    Rake,
    ReopenRule,
    ShowdownRule,
    SplitPolicy,
)
from croupier.games.holdem.events import BetReturned, PotAwarded, Raked, Shown
from croupier.games.holdem.pots import build_pots
from croupier.games.holdem.table import CashTable
from croupier.games.holdem.views import view_for


def shoe_for(holes: list[str], board: str) -> Shoe:
    """A shoe dealing ``holes`` (one card at a time, position 0 first) and then ``board``
    with a burn before each street."""
    hole_cards = [parse_cards(h) for h in holes]
    board_cards = parse_cards(board)
    used = {c.id for h in hole_cards for c in h} | {c.id for c in board_cards}
    spare = [c for c in DECK if c.id not in used]
    order: list[Card] = [h[0] for h in hole_cards] + [h[1] for h in hole_cards]
    order += [spare.pop(), *board_cards[:3], spare.pop(), board_cards[3], spare.pop()]
    order += [board_cards[4], *spare]
    return Shoe(order)


def nl(players: int, *, sb: int = 1, bb: int = 2, **kwargs: object) -> HoldemConfig:
    return HoldemConfig.cash(players=players, small_blind=sb, big_blind=bb, **kwargs)  # type: ignore[arg-type]


def run_out(hand: CashHand) -> None:
    """Check or call until the hand ends."""
    while hand.actor is not None:
        hand.check_or_call(hand.actor)


def test_three_all_ins_of_different_sizes_with_ties_across_pots() -> None:
    # p1 and p2 hold AK (tie for the main pot); p3 and p4 hold QJ (tie for the last pot)
    shoe = shoe_for(["AcKd", "AhKs", "QcJd", "QhJs"], "2c7d9h3s4c")
    hand = CashHand(nl(4), stacks=(100, 200, 300, 400), shoe=shoe, auto_showdown=True)
    assert hand.actor == 2
    hand.raise_to(2, 300)  # p3 all-in
    assert not hand.can_raise(3, to=400)  # no one left to cover a raise
    hand.check_or_call(3)  # p4 calls 300, keeps 100
    hand.check_or_call(0)  # p1 all-in for 100
    hand.check_or_call(1)  # p2 all-in for 200
    assert hand.is_over
    awards = [e for e in hand.events if isinstance(e, PotAwarded)]
    assert [(a.seats, a.amounts) for a in awards] == [
        ((0, 1), (200, 200)),  # main pot 4 x 100
        ((1,), (300,)),  # 3 x 100: p2's AK beats the QJs
        ((2, 3), (100, 100)),  # 2 x 100: the QJs tie
    ]
    assert hand.stacks == (200, 500, 100, 400 - 300 + 100)


def test_pots_by_contribution_level_merge_equal_player_sets() -> None:
    pots = build_pots((50, 100, 100, 100), (0, 0, 0, 0), (False, True, True, True))
    assert [(p.amount, p.seats) for p in pots] == [(350, (1, 2, 3))]


def _odd_chip_hand(config: HoldemConfig, stacks: tuple[int, int, int]) -> CashHand:
    # the board is a royal flush: everyone still in ties
    shoe = shoe_for(["2c3d", "4c5d", "6c7d"], "AsKsQsJsTs")
    hand = CashHand(config, stacks=stacks, shoe=shoe, auto_showdown=True)
    hand.check_or_call(2)  # button calls the big blind
    hand.fold(0)  # small blind folds: a dead chip
    run_out(hand)
    return hand


def test_odd_chip_live_goes_to_first_winner_left_of_button() -> None:
    hand = _odd_chip_hand(nl(3), (100, 100, 100))
    # pot 1 + 2 + 2 = 5 split two ways: the big blind (first left of the button) gets 3
    assert hand.stacks == (99, 101, 100)


def test_odd_chip_exact_divides_exactly_in_fine_units() -> None:
    unit = EXACT_SCALE
    config = nl(3, sb=unit, bb=2 * unit, split=SplitPolicy.EXACT)
    hand = _odd_chip_hand(config, (100 * unit, 100 * unit, 100 * unit))
    assert [Fraction(s, unit) for s in hand.stacks] == [99, Fraction(201, 2), Fraction(201, 2)]


def test_exact_split_needs_money_in_fine_units() -> None:
    with pytest.raises(ConfigError, match="EXACT_SCALE"):
        CashHand(nl(3, split=SplitPolicy.EXACT), stacks=(100, 100, 100))
    unit = EXACT_SCALE
    config = nl(3, sb=unit, bb=2 * unit, split=SplitPolicy.EXACT)
    hand = CashHand(
        config, stacks=(100 * unit,) * 3, shoe=shoe_for(["2c3d", "4c5d", "6c7d"], "AsKsQsJsTs")
    )
    snapshot = _snapshot(hand)
    with pytest.raises(IllegalActionError, match="whole chips"):
        hand.raise_to(2, 5 * unit + 1)
    assert _snapshot(hand) == snapshot
    hand.raise_to(2, 5 * unit)


def test_heads_up_button_posts_small_blind_and_acts_first_only_pre_flop() -> None:
    hand = CashHand(nl(2), stacks=(100, 100), shoe=shoe_for(["AcAd", "KcKd"], "2c7d9h3s4c"))
    # player 0 is the big blind, player 1 the button (PHH heads-up order)
    assert hand.bets == (2, 1)
    assert hand.actor == 1
    hand.check_or_call(1)
    assert hand.actor == 0  # the big blind's option
    hand.check(0)
    assert hand.street == 1 and hand.actor == 0  # post-flop the big blind acts first
    hand.check(0)
    assert hand.actor == 1


def test_heads_up_big_blind_ante_is_posted_by_the_big_blind() -> None:
    config = nl(2, ante=2, big_blind_ante=True)
    hand = CashHand(config, stacks=(100, 100), shoe=shoe_for(["AcAd", "KcKd"], "2c7d9h3s4c"))
    assert hand.stacks == (96, 99)


def test_order_of_action_with_straddle() -> None:
    hand = CashHand(
        nl(5, straddle=4),
        stacks=(100,) * 5,
        shoe=shoe_for(["2c3d", "4c5d", "6c7d", "8c9d", "TcJd"], "AsKsQsJsTs"),
    )
    assert hand.bets == (1, 2, 4, 0, 0)
    assert hand.actor == 3
    options = hand.options()
    assert options is not None and options.to_call == 4 and options.min_raise_to == 6


def _short_all_in_flop() -> CashHand:
    shoe = shoe_for(["2c3d", "4c5d", "6c7d"], "AsKsQs8h9h")
    hand = CashHand(nl(3, sb=5, bb=10), stacks=(1000, 160, 1000), shoe=shoe)
    hand.check_or_call(2)
    hand.check_or_call(0)
    hand.check(1)
    hand.raise_to(0, 100)  # flop: bet 100
    hand.raise_to(1, 150)  # all-in, only 50 more: not a full raise
    return hand


def test_incomplete_all_in_raise_lets_players_yet_to_act_raise_by_the_full_bet() -> None:
    hand = _short_all_in_flop()
    options = hand.options()
    assert options is not None and options.seat == 2
    assert options.min_raise_to == 250  # 150 + the last full increment of 100
    hand.check_or_call(2)


def test_incomplete_all_in_raise_does_not_reopen_betting() -> None:
    hand = _short_all_in_flop()
    hand.check_or_call(2)
    assert hand.actor == 0 and hand.to_call == 50
    assert hand.raise_bounds() is None
    assert not hand.can_raise(0, to=400)
    with pytest.raises(IllegalActionError, match="not reopened"):
        hand.raise_to(0, 400)
    hand.check_or_call(0)
    assert hand.street == 2


def test_full_raise_reopens_betting() -> None:
    shoe = shoe_for(["2c3d", "4c5d", "6c7d"], "AsKsQs8h9h")
    hand = CashHand(nl(3, sb=5, bb=10), stacks=(1000, 1000, 1000), shoe=shoe)
    hand.check_or_call(2)
    hand.check_or_call(0)
    hand.check(1)
    hand.raise_to(0, 100)
    hand.raise_to(1, 200)
    hand.check_or_call(2)
    assert hand.raise_bounds() == (300, 990)  # 1000 less the 10 put in pre-flop


def test_pot_limit_arithmetic() -> None:
    config = nl(3, structure=BettingStructure.POT_LIMIT)
    hand = CashHand(
        config, stacks=(100, 100, 100), shoe=shoe_for(["2c3d", "4c5d", "6c7d"], "AsKsQs8h9h")
    )
    # button: call 2 makes the pot 5, so the pot raise is to 2 + 5 = 7
    assert hand.raise_bounds() == (4, 7)
    assert not hand.can_raise(2, to=8)
    hand.raise_to(2, 7)
    # small blind: calls 6 (pot 16), raises 16 more: to 23
    assert hand.raise_bounds() == (12, 23)
    hand.raise_to(0, 23)
    hand.check_or_call(1)
    hand.check_or_call(2)
    # flop: pot 69, no bet yet: bet the pot
    assert hand.raise_bounds() == (2, 69)


def test_fixed_limit_bet_sizes_and_cap() -> None:
    config = nl(3, structure=BettingStructure.FIXED_LIMIT)
    hand = CashHand(
        config, stacks=(100, 100, 100), shoe=shoe_for(["2c3d", "4c5d", "6c7d"], "AsKsQs8h9h")
    )
    assert hand.raise_bounds() == (4, 4)
    hand.raise_to(2, 4)
    hand.raise_to(0, 6)
    hand.raise_to(1, 8)
    hand.raise_to(2, 10)  # fourth bet or raise of the street (blinds not counted)
    assert hand.raise_bounds() is None
    with pytest.raises(IllegalActionError, match="capped"):
        hand.raise_to(0, 12)
    hand.check_or_call(0)
    hand.check_or_call(1)
    assert hand.street == 1 and hand.raise_bounds() == (2, 2)
    hand.check(0)
    hand.check(1)
    hand.check(2)
    assert hand.street == 2 and hand.raise_bounds() == (4, 4)  # big bet on the turn
    with pytest.raises(IllegalActionError, match="above the maximum"):
        hand.raise_to(0, 8)


def test_rake_percentage_with_cap() -> None:
    rake = Rake(percent=Fraction(5, 100), cap=3)
    hand = CashHand(
        nl(2, rake=rake),
        stacks=(100, 100),
        shoe=shoe_for(["AcAd", "KcKd"], "2c7d9h3s4c"),
        auto_showdown=True,
    )
    hand.raise_to(1, 50)
    hand.check_or_call(0)
    run_out(hand)
    assert hand.is_over and hand.house_net == 3  # 5% of 100 is 5, capped at 3
    assert Raked(3) in hand.events
    assert hand.stacks == (147, 50)
    assert sum(hand.stacks) + hand.house_net == 200


def test_rake_rounds_down_below_the_cap() -> None:
    rake = Rake(percent=Fraction(5, 100), cap=10)
    hand = CashHand(
        nl(2, rake=rake),
        stacks=(100, 100),
        shoe=shoe_for(["AcAd", "KcKd"], "2c7d9h3s4c"),
        auto_showdown=True,
    )
    hand.raise_to(1, 25)
    hand.check_or_call(0)
    run_out(hand)
    assert hand.house_net == 2 and hand.stacks == (123, 75)


def test_no_flop_no_drop() -> None:
    rake = Rake(percent=Fraction(5, 100), cap=3)
    hand = CashHand(
        nl(3, rake=rake),
        stacks=(100, 100, 100),
        shoe=shoe_for(["AcAd", "KcKd", "2c3d"], "2c7d9h3s4c".replace("2c", "5h")),
    )
    hand.raise_to(2, 50)
    hand.fold(0)
    hand.fold(1)
    assert hand.is_over and hand.house_net == 0
    assert hand.stacks == (99, 98, 103)


def _snapshot(hand: CashHand) -> tuple[object, ...]:
    return (
        hand.stacks,
        hand.bets,
        hand.events,
        hand.actor,
        hand.phase,
        hand.pot_total,
        hand.street,
        hand.active,
    )


@pytest.mark.parametrize(
    ("label", "action"),
    [
        ("out of turn", lambda h: h.check_or_call(0)),
        ("out of turn fold", lambda h: h.fold(1)),
        ("raise below minimum", lambda h: h.raise_to(2, 3)),
        ("bet more than the stack", lambda h: h.raise_to(2, 101)),
        ("check facing a bet", lambda h: h.check(2)),
        (
            "call with nothing to call",
            lambda h: (h.check_or_call(2), h.check_or_call(0), h.call(1)),
        ),
        ("show during the betting", lambda h: h.show(2)),
        ("deal from outside the shoe", lambda h: h.deal_board(parse_cards("2h3h4h"))),
        ("no such player", lambda h: h.fold(7)),
    ],
)
def test_illegal_actions_are_refused_without_change(label: str, action: object) -> None:
    hand = CashHand(
        nl(3), stacks=(100, 100, 100), shoe=shoe_for(["2c3d", "4c5d", "6c7d"], "AsKsQs8h9h")
    )
    assert callable(action)
    try:
        action(hand)
    except IllegalActionError:
        pass
    else:  # pragma: no cover - the test fails below
        pytest.fail(f"{label}: not refused")
    # a refused command changes nothing (for the multi-step case, nothing after the refusal)
    snapshot = _snapshot(hand)
    with pytest.raises(IllegalActionError):
        action(hand) if label != "call with nothing to call" else hand.call(1)
    assert _snapshot(hand) == snapshot


def test_act_after_folding_and_after_the_hand_is_over() -> None:
    hand = CashHand(
        nl(3), stacks=(100, 100, 100), shoe=shoe_for(["2c3d", "4c5d", "6c7d"], "AsKsQs8h9h")
    )
    hand.fold(2)
    snapshot = _snapshot(hand)
    for attempt in (
        lambda: hand.check_or_call(2),
        lambda: hand.fold(2),
        lambda: hand.raise_to(2, 10),
    ):
        with pytest.raises(IllegalActionError, match="out of the hand"):
            attempt()
        assert _snapshot(hand) == snapshot
    hand.fold(0)
    assert hand.is_over and hand.phase is Phase.COMPLETE
    snapshot = _snapshot(hand)
    after_the_end: tuple[Callable[[], object], ...] = (
        lambda: hand.check_or_call(1),
        lambda: hand.fold(1),
        lambda: hand.raise_to(1, 10),
        lambda: hand.muck(1),
    )
    for after in after_the_end:
        with pytest.raises(IllegalActionError, match="over"):
            after()
        assert _snapshot(hand) == snapshot
    assert not hand.can_fold(1) and not hand.can_check(1) and not hand.can_raise(1, to=10)
    # the winner may still show, to everyone (show one, show all: docs/rules.md); nothing
    # else changes
    stacks = hand.stacks
    assert hand.show(1) == Shown(1, parse_cards("4c5d"))
    assert hand.stacks == stacks and hand.shown(1)
    with pytest.raises(IllegalActionError, match="shown already"):
        hand.show(1)


def test_uncalled_bet_is_returned() -> None:
    hand = CashHand(nl(2), stacks=(100, 100), shoe=shoe_for(["AcAd", "KcKd"], "2c7d9h3s4c"))
    hand.check_or_call(1)
    hand.check(0)
    hand.raise_to(0, 30)
    hand.fold(1)
    assert BetReturned(0, 30) in hand.events
    assert hand.stacks == (102, 98)


def _river_bet_called(rule: ShowdownRule) -> CashHand:
    """p1 AA, p2 KK, p3 two pair (3s and 2s); p2 bets the river, both others call."""
    shoe = shoe_for(["AcAd", "KcKd", "2c3d"], "2h7d9h3s4c")
    hand = CashHand(nl(3, showdown=rule), stacks=(100, 100, 100), shoe=shoe)
    hand.check_or_call(2)
    hand.check_or_call(0)
    hand.check(1)
    for _ in range(2):
        for seat in (0, 1, 2):
            hand.check(seat)
    hand.check(0)
    hand.raise_to(1, 10)
    hand.check_or_call(2)
    hand.check_or_call(0)
    return hand


def test_seed_showdown_the_last_bettor_shows_and_only_a_beaten_hand_mucks() -> None:
    """spec/holdem.md "Winning" (seed 002), the default: the last bettor shows first and may
    not muck; a caller concedes unseen only to a hand already shown that beats theirs."""
    hand = _river_bet_called(ShowdownRule.SEED)
    assert hand.config.showdown is ShowdownRule.SEED
    assert hand.showdown_order == (1, 2, 0)
    for seat in (1, 2, 0):  # nothing is shown yet: nobody may muck
        with pytest.raises(IllegalActionError, match=r"shows first|only to a hand shown"):
            hand.muck(seat)
    hand.show(1)  # kings
    with pytest.raises(IllegalActionError, match="may concede only to a hand shown"):
        hand.muck(2)  # two pair beats the kings shown: show
    hand.show(2)
    hand.muck(0)  # aces lose to the two pair shown: conceded unseen
    assert hand.is_over and not hand.shown(0)
    assert hand.stacks == (88, 88, 124)


def test_any_muck_option_lets_every_player_muck() -> None:
    hand = _river_bet_called(ShowdownRule.ANY_MUCK)
    hand.muck(1)  # the last bettor mucks: allowed under any-muck
    assert hand.is_over is False
    hand.muck(2)
    assert hand.is_over and hand.stacks == (124, 88, 88)


def test_showdown_order_and_muck() -> None:
    shoe = shoe_for(["AcAd", "KcKd", "2c3d"], "2h7d9h3s4c")
    hand = CashHand(nl(3, showdown=ShowdownRule.ANY_MUCK), stacks=(100, 100, 100), shoe=shoe)
    hand.check_or_call(2)
    hand.check_or_call(0)
    hand.check(1)
    for _ in range(2):  # flop and turn checked around
        for seat in (0, 1, 2):
            hand.check(seat)
    hand.check(0)
    hand.raise_to(1, 10)  # the river's last aggressor shows first
    hand.check_or_call(2)
    hand.check_or_call(0)
    assert hand.phase is Phase.SHOWDOWN
    assert hand.showdown_order == (1, 2, 0)
    hand.show(1)
    view = view_for(hand, 2)
    assert view.hole_cards[1] == parse_cards("KcKd") and view.hole_cards[0] is None
    hand.muck(2)
    hand.show(0)
    assert hand.is_over
    # p3's two pair was the best hand, but mucked: the aces win the 36-chip pot
    assert hand.stacks == (124, 88, 88)


def test_views_never_show_other_hole_cards_before_showdown() -> None:
    hand = CashHand(
        nl(3), stacks=(100, 100, 100), shoe=shoe_for(["AcAd", "KcKd", "2c3d"], "2h7d9h3s4c")
    )
    for seat in range(3):
        view = view_for(hand, seat)
        assert view.hole_cards[seat] is not None
        assert all(view.hole_cards[o] is None for o in range(3) if o != seat)
        assert (view.options is not None) == (seat == hand.actor)


def test_table_moves_the_button_and_maps_positions() -> None:
    table = CashTable(lambda n: nl(n), stacks=(100, 0, 100, 100), button=0)
    assert table.positions() == (2, 3, 0)  # the empty seat 1 is skipped
    hand = table.start_hand(shoe=shoe_for(["2c3d", "4c5d", "6c7d"], "AsKsQs8h9h"))
    while not hand.is_over:
        hand.fold(hand.actor) if hand.to_call else hand.check_or_call(hand.actor)  # type: ignore[arg-type]
    table.end_hand(hand)
    # the button moves to the next seat with chips: the empty seat 1 never holds it
    assert table.button == 2 and sum(table.stacks) == 300
    assert table.positions() == (3, 0, 2)
    table.end_hand  # noqa: B018
    with pytest.raises(IllegalActionError):
        table.end_hand(hand)


def test_short_blind_and_ante_post_what_they_have() -> None:
    hand = CashHand(
        nl(3, ante=2),
        stacks=(1, 3, 100),
        shoe=shoe_for(["AcAd", "KcKd", "2c3d"], "2h7d9h3s4c"),
        auto_showdown=True,
    )
    assert hand.stacks == (0, 0, 98) and hand.bets == (0, 1, 0)
    hand.check_or_call(2)
    assert hand.is_over
    assert sum(hand.stacks) == 104


def test_public_surface_is_sorted_and_importable() -> None:
    import croupier.games.holdem as holdem

    assert holdem.__all__ == sorted(holdem.__all__, key=lambda n: (not n.isupper(), n))
    for name in holdem.__all__:
        assert getattr(holdem, name) is not None


def test_engine_layers_import_no_randomness_clock_or_io() -> None:
    import ast
    from pathlib import Path

    import croupier.games.holdem as holdem
    import croupier.history.holdem_phh as phh_module

    files = [*Path(holdem.__file__).parent.glob("*.py"), Path(phh_module.__file__)]
    banned = {"random", "time", "secrets", "os", "rich", "typer", "asyncio"}
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            assert not {n.split(".")[0] for n in names} & banned, (path, names)


def test_a_player_alone_in_a_side_pot_may_not_muck_it() -> None:
    # p1 is all-in for 20; p2 and p3 build a side pot, then p3 folds the river to p2's bet
    shoe = shoe_for(["AcAd", "8c8d", "KcKd"], "2h7d9h3s4c")
    hand = CashHand(nl(3), stacks=(20, 500, 500), shoe=shoe)
    hand.raise_to(2, 40)
    hand.check_or_call(0)  # all-in for 20
    hand.check_or_call(1)
    for _ in range(2):
        hand.check(1)
        hand.check(2)
    hand.raise_to(1, 100)
    hand.fold(2)
    assert hand.phase is Phase.SHOWDOWN and hand.showdown_order == (1, 0)
    with pytest.raises(IllegalActionError, match="alone contests a side pot"):
        hand.muck(1)
    hand.show(1)
    hand.show(0)
    assert hand.stacks == (60, 500 - 40 + 40, 460)


@pytest.mark.parametrize(
    ("rule", "reopened"), [(ReopenRule.CASINO, False), (ReopenRule.POKERKIT, True)]
)
def test_all_in_one_chip_over_the_big_blind(rule: ReopenRule, reopened: bool) -> None:
    hand = CashHand(
        nl(4, reopen=rule),
        stacks=(100, 100, 100, 3),
        shoe=shoe_for(["2c3d", "4c5d", "6c7d", "8c9d"], "AsKsQs8h9h"),
    )
    hand.check_or_call(2)
    hand.raise_to(3, 3)  # all-in, one chip more than the big blind
    assert hand.raise_bounds() == (5, 100)  # the small blind has not acted: may raise
    hand.check_or_call(0)
    hand.check_or_call(1)
    assert hand.actor == 2
    assert (hand.raise_bounds() is not None) == reopened
    assert hand.can_raise(2, to=5) == reopened


def test_short_all_ins_short_of_a_full_raise_in_total_do_not_reopen() -> None:
    shoe = shoe_for(["2c3d", "4c5d", "6c7d", "8c9d"], "AsKsQs8h9h")
    hand = CashHand(nl(4, sb=5, bb=10), stacks=(1000, 1000, 170, 180), shoe=shoe)
    hand.check_or_call(2)
    hand.check_or_call(3)
    hand.check_or_call(0)
    hand.check(1)
    hand.raise_to(0, 100)  # flop: p1 bets 100
    hand.check_or_call(1)
    hand.raise_to(2, 160)  # all-in: 60 more, short
    hand.raise_to(3, 170)  # all-in: 10 more; 70 of short raises in all, still short
    assert hand.actor == 0 and hand.raise_bounds() is None
    hand.check_or_call(0)
    assert hand.raise_bounds() is None  # p2 acted too
    hand.check_or_call(1)
    assert hand.street == 2


def test_short_all_ins_that_add_up_reopen_the_betting() -> None:
    shoe = shoe_for(["2c3d", "4c5d", "6c7d", "8c9d"], "AsKsQs8h9h")
    hand = CashHand(nl(4, sb=5, bb=10), stacks=(1000, 1000, 170, 220), shoe=shoe)
    hand.check_or_call(2)
    hand.check_or_call(3)
    hand.check_or_call(0)
    hand.check(1)
    hand.raise_to(0, 100)
    hand.check_or_call(1)
    hand.raise_to(2, 160)  # short by 40
    hand.raise_to(3, 210)  # another 50: 110 of short raises make a full raise
    assert hand.actor == 0 and hand.raise_bounds() == (310, 990)


def _river_showdown() -> CashHand:
    """Three-handed to a complete board with a side pot: the short stack (AA) is all-in on
    the flop, KK and QQ play on for a side pot. Nobody has shown yet."""
    shoe = shoe_for(["AcAd", "KcKd", "QcQd"], "2h7s9d3c4h")
    hand = CashHand(nl(3), stacks=(50, 300, 300), shoe=shoe)
    while hand.street == 0:
        hand.check_or_call(hand.actor)  # type: ignore[arg-type]
    assert hand.actor == 0
    hand.raise_to(0, 48)  # all-in
    hand.raise_to(1, 148)
    hand.check_or_call(2)
    run_out(hand)
    assert hand.phase is Phase.SHOWDOWN and len(hand.board) == 5
    return hand


def test_a_hand_beaten_in_the_main_pot_can_still_win_the_side_pot() -> None:
    # spec/holdem.md "Winning": a player who cannot win may muck; KK loses the main pot to
    # the aces but still wins the side pot against the queens, so it can win.
    hand = _river_showdown()
    assert all(hand.can_win(s) for s in range(3))  # nothing shown yet
    hand.show(0)
    hand.show(2)
    assert hand.can_win(1)
    hand.show(1)
    awards = [e for e in hand.events if isinstance(e, PotAwarded)]
    assert [a.seats for a in awards] == [(0,), (1,)]


def test_a_hand_that_wins_no_pot_cannot_win() -> None:
    hand = _river_showdown()
    hand.show(0)
    hand.show(1)
    assert not hand.can_win(2)  # QQ: beaten by AA in the main pot and by KK in the side pot
    hand.muck(2)
    assert hand.is_over and hand.stacks[2] == 300 - 150


@pytest.mark.parametrize(
    ("odd_chip", "takes"),
    [(OddChip.POSITION, 0), (OddChip.SUIT, 2)],
)
def test_odd_chip_by_position_or_by_suit(odd_chip: OddChip, takes: int) -> None:
    """spec/holdem.md "Winning": the odd chip to the first tied winner left of the button,
    or (docs/rules.md odd_chip "suit") to the one with the highest card by suit."""
    # p1 and p3 play the board's straight; p3's As outranks p1's Ac
    shoe = shoe_for(["Ac2d", "3c3d", "As2h"], "Th Jh Qd Kc 9s".replace(" ", ""))
    hand = CashHand(
        nl(3, sb=1, bb=3, odd_chip=odd_chip),
        stacks=(101, 100, 101),
        shoe=shoe,
        auto_showdown=True,
    )
    hand.raise_to(2, 101)  # all-in
    hand.check_or_call(0)  # all-in for 101
    hand.fold(1)
    assert hand.is_over
    # 101 + 101 + the folded big blind's 3 = 205: 103 and 102
    awards = [e for e in hand.events if isinstance(e, PotAwarded)]
    total = sum(sum(a.amounts) for a in awards)
    odd = [
        seat
        for a in awards
        for seat, amount in zip(a.seats, a.amounts, strict=True)
        if amount * 2 > sum(a.amounts)
    ]
    assert total % 2 == 1 and odd == [takes]


def test_a_short_all_in_left_alone_pre_flop_wins_what_it_matched_without_a_board() -> None:
    # the button calls all-in for 3 under blinds 5/10, then both blinds fold: no board is
    # dealt, and the blinds' chips the button did not match go back to them (this crashed:
    # the engine valued the hands to split that returned pot, without a board)
    hand = CashHand(nl(4, sb=5, bb=10), stacks=(100, 100, 100, 3), shoe=shoe_for(
        ["AcAd", "KcKd", "QcQd", "7h2s"], "2h7d9h3s4c"))  # fmt: skip
    hand.fold(2)
    hand.check_or_call(3)  # all-in for 3
    hand.fold(0)
    hand.fold(1)
    assert hand.is_over and hand.board == ()
    assert hand.stacks == (97, 97, 100, 9)
    awards = [e for e in hand.events if isinstance(e, PotAwarded)]
    assert [(a.seats, a.amounts) for a in awards] == [((3,), (9,)), ((0, 1), (2, 2))]
