"""The RussianRound state machine: flows, views, voids, and refused actions that change nothing."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from croupier.cards import DECK, parse_cards
from croupier.deck import Shoe, seeded_source, shuffled
from croupier.errors import IllegalActionError
from croupier.games.russian import BetKind, RussianConfig
from croupier.games.russian.events import (
    BoxSettled,
    CardsExchanged,
    DealerRevealed,
    GameBought,
    RoundVoided,
)
from croupier.games.russian.state import BoxStatus, Phase, RussianRound


def stacked_shoe(text: str) -> Shoe:
    """A shoe whose top cards are ``text``, followed by the rest of the deck in id order."""
    top = parse_cards(text)
    ids = {c.id for c in top}
    return Shoe(top + tuple(c for c in DECK if c.id not in ids))


# box 0 (seat 0, open): trips; box 1 (seat 0, blind); box 2 (seat 1, open); dealer
SHOE = "Ah As Ad 7c 2h  9h 9s 4c 3d 2c  Kh Qh Jh Th 3s  Qd Jc 9c 5s 3h  Jd 9d"


def round_with(shoe: str = SHOE, config: RussianConfig | None = None) -> RussianRound:
    game = RussianRound(config=config or RussianConfig(), shoe=stacked_shoe(shoe))
    game.place_box(0, box=0, ante=100, bonus=100)
    game.place_box(0, box=1, ante=100, blind=True)
    game.place_box(1, box=2, ante=200)
    game.deal()
    return game


def snapshot(game: RussianRound) -> object:
    return (
        game.events,
        game.phase,
        game.to_act,
        tuple(game.cards(b) for b in game.boxes),
        game.view(0),
        game.view(1),
    )


def test_full_round_with_exchange_and_buy() -> None:
    game = round_with()
    assert game.phase is Phase.DECIDING and game.to_act == 0
    game.bet(0, box=0, insurance=100)
    assert game.to_act == 2
    event = game.exchange(1, box=2, discard=parse_cards("3s"))
    assert isinstance(event, CardsExchanged) and str(event.received[0]) == "Jd"
    game.bet(1, box=2)
    assert game.phase is Phase.BUYING and game.to_act == 0
    assert isinstance(game.events[-1], DealerRevealed)
    game.decline_buy(0, box=0)
    bought = game.buy_game(1, box=2)
    assert isinstance(bought, GameBought) and str(bought.drawn[0]) == "9d"
    assert game.phase is Phase.SETTLED
    # box 0: ante +100, insurance +100, bonus -100 (trips)
    assert game.settlement(0).net == 100
    # box 1 (blind 9-9): dealer does not qualify: ante +100, bet pushes
    assert game.settlement(1).net == 100
    # box 2: K-Q-J-T-J = pair of jacks vs the bought J-9-9-5-3: the pair wins
    s2 = game.settlement(2)
    assert s2.net_of(BetKind.FEE) == -200 and s2.net_of(BetKind.BUY) == -200
    assert s2.net_of(BetKind.BET) == 400 and s2.net == 0
    assert sum(isinstance(e, BoxSettled) for e in game.events) == 3


def test_dealer_qualifies_settles_without_buying() -> None:
    game = round_with("Ah As Ad 7c 2h  9h 9s 4c 3d 2c  Kh Qh Jh Th 3s  Qd Qc 9c 5s 3h")
    game.bet(0, box=0)
    game.fold(1, box=2)
    assert game.phase is Phase.SETTLED
    assert game.settlement(0).net_of(BetKind.BET) == 600
    assert game.settlement(1).net == -300  # blind 9-9 loses to Q-Q
    assert game.settlement(2).net == -200


def test_sixth_card() -> None:
    game = round_with()
    game.sixth_card(0, box=0)
    assert len(game.cards(0)) == 6
    game.fold(0, box=0)
    assert game.view(0).boxes[0].status is BoxStatus.FOLDED
    game.fold(1, box=2)
    assert game.phase is Phase.SETTLED  # the dealer does not qualify but nobody stood
    # fee, ante and the Bonus (trips, below a straight) lost
    assert game.settlement(0).net == -300


def test_views_hide_other_cards_and_the_dealer() -> None:
    game = round_with()
    mine = game.view(0)
    assert mine.boxes[0].cards is not None and mine.boxes[1].cards is None  # blind
    assert mine.boxes[2].cards is None  # another seat's box
    assert mine.dealer == (None,) * 5
    theirs = game.view(1)
    assert theirs.boxes[0].cards is None and theirs.boxes[2].cards is not None
    game.bet(0, box=0)
    game.bet(1, box=2)
    assert game.view(1).dealer == parse_cards("Qd Jc 9c 5s 3h")
    game.decline_buy(0, box=0)
    game.decline_buy(1, box=2)
    final = game.view(0)
    assert final.boxes[1].cards is not None  # own blind box after the showdown
    assert final.boxes[2].cards is None and final.boxes[2].net is None
    assert final.boxes[0].net is not None


def test_dealer_upcard_option() -> None:
    game = round_with(config=RussianConfig(dealer_upcard=True))
    dealer = game.view(0).dealer
    assert dealer[:4] == (None,) * 4 and str(dealer[4]) == "3h"


def test_void_returns_every_stake() -> None:
    game = round_with()
    game.exchange(0, box=0, discard=parse_cards("7c 2h"))
    event = game.void("misdeal")
    assert isinstance(event, RoundVoided)
    # box 0: ante 100 + bonus 100 + fee 100; box 1: ante 100 + bet 200; box 2: ante 200
    assert event.returned == ((0, 300), (1, 300), (2, 200))
    assert game.phase is Phase.VOIDED
    with pytest.raises(IllegalActionError):
        game.bet(0, box=0)
    assert not game.can_void()


Refusal = Callable[[RussianRound], object]


@pytest.mark.parametrize(
    "action",
    [
        pytest.param(lambda g: g.bet(1, box=2), id="not-your-turn"),
        pytest.param(lambda g: g.bet(1, box=0), id="another-seats-box"),
        pytest.param(lambda g: g.bet(0, box=1), id="blind-box-bets"),
        pytest.param(lambda g: g.fold(0, box=1), id="blind-box-folds"),
        pytest.param(lambda g: g.sixth_card(0, box=1), id="blind-box-sixth"),
        pytest.param(lambda g: g.bet(7, box=0), id="unknown-seat"),
        pytest.param(lambda g: g.bet(0, box=5), id="unknown-box"),
        pytest.param(lambda g: g.bet(0, box=0, insurance=-1), id="negative-insurance"),
        pytest.param(lambda g: g.exchange(0, box=0, discard=()), id="exchange-nothing"),
        pytest.param(lambda g: g.exchange(0, box=0, discard=parse_cards("Kd")), id="not-my-card"),
        pytest.param(lambda g: g.exchange(0, box=0, discard=parse_cards("7c 7c")), id="same-card"),
        pytest.param(lambda g: g.buy_game(0, box=0), id="buy-in-wrong-phase"),
        pytest.param(lambda g: g.decline_buy(0, box=0), id="decline-in-wrong-phase"),
        pytest.param(lambda g: g.place_box(2, box=3, ante=100), id="place-after-deal"),
        pytest.param(lambda g: g.deal(), id="second-deal"),
    ],
)
def test_refused_actions_change_nothing(action: Refusal) -> None:
    game = round_with()
    before = snapshot(game)
    with pytest.raises(IllegalActionError):
        action(game)
    assert snapshot(game) == before


def test_second_draw_and_both_draws_are_refused() -> None:
    game = round_with()
    game.exchange(0, box=0, discard=parse_cards("7c"))
    before = snapshot(game)
    assert not game.can_exchange(0, box=0, discard=parse_cards("2h"))
    assert not game.can_sixth_card(0, box=0)
    with pytest.raises(IllegalActionError, match="already drawn"):
        game.exchange(0, box=0, discard=parse_cards("2h"))
    with pytest.raises(IllegalActionError, match="already drawn"):
        game.sixth_card(0, box=0)
    assert snapshot(game) == before
    assert game.can_bet(0, box=0) and game.can_fold(0, box=0)


def test_exchange_after_sixth_card_is_refused() -> None:
    game = round_with()
    game.sixth_card(0, box=0)
    before = snapshot(game)
    with pytest.raises(IllegalActionError):
        game.exchange(0, box=0, discard=parse_cards("7c"))
    assert snapshot(game) == before


def test_insurance_without_three_of_a_kind_is_refused() -> None:
    game = round_with()
    game.bet(0, box=0)
    before = snapshot(game)
    assert game.insurance_limits(2) is None
    with pytest.raises(IllegalActionError, match="three of a kind"):
        game.bet(1, box=2, insurance=200)
    assert snapshot(game) == before


def test_insurance_outside_its_limits_is_refused() -> None:
    game = round_with()
    assert game.insurance_limits(0) == (100, 600)
    assert not game.can_bet(0, box=0, insurance=601)
    assert not game.can_bet(0, box=0, insurance=99)
    assert game.can_bet(0, box=0, insurance=600)


def test_buying_out_of_turn_and_settlement_before_the_end_are_refused() -> None:
    game = round_with()
    game.bet(0, box=0)
    game.bet(1, box=2)
    before = snapshot(game)
    with pytest.raises(IllegalActionError):
        game.buy_game(1, box=2)  # box 0 chooses first
    with pytest.raises(IllegalActionError):
        game.buy_game(0, box=1)  # blind
    with pytest.raises(IllegalActionError):
        game.settlement(0)
    assert snapshot(game) == before


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"seat": 4, "box": 0, "ante": 100}, "not a seat"),
        ({"seat": 0, "box": 6, "ante": 100}, "not on the layout"),
        ({"seat": 0, "box": 0, "ante": 99}, "outside the table limits"),
        ({"seat": 0, "box": 0, "ante": 10_001}, "outside the table limits"),
        ({"seat": 0, "box": 0, "ante": 100, "bonus": 50}, "outside the table limits"),
        ({"seat": 0, "box": 0, "ante": 100, "bonus": 3_000}, "outside the table limits"),
    ],
)
def test_bets_outside_limits_are_refused(kwargs: dict[str, int], match: str) -> None:
    game = RussianRound(config=RussianConfig(), shoe=Shoe(shuffled(seeded_source(1))))
    seat = kwargs.pop("seat")
    with pytest.raises(IllegalActionError, match=match):
        game.place_box(seat, **kwargs)  # type: ignore[arg-type]
    assert game.events == ()


def test_box_rules_before_the_deal() -> None:
    game = RussianRound(config=RussianConfig(), shoe=Shoe(shuffled(seeded_source(1))))
    assert not game.can_deal()  # no box
    game.place_box(0, box=0, ante=100, blind=True)
    assert not game.can_deal()  # a blind box needs an open box of the same seat
    game.place_box(0, box=1, ante=100)
    assert not game.can_place_box(0, box=2, ante=100)  # a second open box
    assert not game.can_place_box(1, box=1, ante=100)  # taken
    assert game.can_deal()
    game.deal()
    assert game.to_act == 1
    assert game.view(0).boxes[0].status is BoxStatus.BLIND


def test_random_rounds_conserve_cards_and_settle() -> None:
    for seed in range(200):
        shoe = Shoe(shuffled(seeded_source(seed)))
        game = RussianRound(config=RussianConfig(), shoe=shoe)
        game.place_box(0, box=0, ante=100, bonus=100)
        game.place_box(1, box=1, ante=100)
        game.place_box(1, box=2, ante=100, blind=True)
        game.deal()
        for box in (0, 1):
            seat = game.seat_of(box)
            if seed % 3 == 0:
                game.exchange(seat, box=box, discard=game.cards(box)[: 1 + seed % 5])
            elif seed % 3 == 1:
                game.sixth_card(seat, box=box)
            limits = game.insurance_limits(box)
            if seed % 7 == 0:
                game.fold(seat, box=box)
            else:
                game.bet(seat, box=box, insurance=limits[0] if limits else 0)
        while game.to_act is not None:
            box = game.to_act
            if seed % 2:
                game.buy_game(game.seat_of(box), box=box)
            else:
                game.decline_buy(game.seat_of(box), box=box)
        assert game.phase is Phase.SETTLED
        dealt = [c.id for b in game.boxes for c in game.cards(b)] + [c.id for c in game.dealer]
        assert len(dealt) == len(set(dealt))


def test_a_box_shows_its_own_discards_to_its_owner_only() -> None:
    """After an exchange the owner's view names the cards exchanged away (a reloaded client
    and the advisor need them); another seat and a spectator never see them."""
    game = round_with()
    game.bet(0, box=0)
    game.exchange(1, box=2, discard=parse_cards("3s Th"))
    own = game.view(1).boxes[2]
    assert own.discarded == parse_cards("Th 3s") and len(own.cards or ()) == 5
    assert not set(own.discarded) & set(own.cards or ())
    for other in (game.view(0), game.view(None)):
        assert other.boxes[2].cards is None and other.boxes[2].discarded is None
    # a box that exchanged nothing has no discards; its owner sees an empty list
    assert game.view(0).boxes[0].discarded == ()
