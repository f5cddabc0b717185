"""Russian Poker options that real casinos vary (docs/rules.md, issue 17): each changes the
round or the settlement as its rule says, and the default is the seed's rule."""

from __future__ import annotations

import pytest

from croupier.cards import DECK, parse_cards
from croupier.deck import Shoe
from croupier.errors import ConfigError, IllegalActionError
from croupier.games.russian import BetKind, Draw, Outcome, RussianConfig, RussianRound, audit_box
from croupier.games.russian.events import SixthCardBought
from croupier.games.russian.state import Phase
from croupier.history import russian as russian_history


def stacked(text: str) -> Shoe:
    top = parse_cards(text)
    ids = {c.id for c in top}
    return Shoe(top + tuple(c for c in DECK if c.id not in ids))


TRIPS = parse_cards("Kh Kd Ks 7c 2h")
PAIR_OF_QUEENS = parse_cards("Qs Qd 9c 5s 3h")


@pytest.mark.parametrize(("paid", "ante_net"), [(False, 0), (True, 100)])
def test_ante_paid_when_the_player_beats_a_qualifying_dealer(paid: bool, ante_net: int) -> None:
    config = RussianConfig(ante_pays_on_win=paid)
    settled = audit_box(
        config=config,
        ante=100,
        initial=TRIPS,
        final=TRIPS,
        draw=Draw.NONE,
        folded=False,
        dealer=PAIR_OF_QUEENS,
    )
    assert settled.net_of(BetKind.ANTE) == ante_net
    assert settled.net_of(BetKind.BET) == 600  # three of a kind 3:1 on the 2x Bet
    # losing, tying and a dealer who does not qualify are the seed's rule either way
    lost = audit_box(
        config=config,
        ante=100,
        initial=PAIR_OF_QUEENS,
        final=PAIR_OF_QUEENS,
        draw=Draw.NONE,
        folded=False,
        dealer=TRIPS,
    )
    assert lost.net == -300


def test_two_open_boxes_decide_one_after_the_other() -> None:
    config = RussianConfig(open_boxes_per_player=2)
    game = RussianRound(config=config, shoe=stacked("Ah As Ad 7c 2h  Kh Kd 8c 5s 3h"))
    game.place_box(0, box=0, ante=100)
    game.place_box(0, box=1, ante=100)
    with pytest.raises(IllegalActionError, match="already has 2 open boxes"):
        game.place_box(0, box=2, ante=100)
    game.deal()
    # the second open box stays face down for its player until the first has decided
    view = game.view(0)
    assert view.boxes[0].cards is not None and view.boxes[1].cards is None
    game.exchange(0, box=0, discard=parse_cards("7c 2h"))
    assert game.view(0).boxes[1].cards is None
    game.bet(0, box=0)
    assert game.view(0).boxes[1].cards == parse_cards("Kh Kd 8c 5s 3h")
    game.fold(0, box=1)
    assert game.phase in (Phase.BUYING, Phase.SETTLED)
    with pytest.raises(IllegalActionError, match="already has an open box"):
        one = RussianRound(config=RussianConfig(), shoe=stacked("Ah"))
        one.place_box(0, box=0, ante=100)
        one.place_box(0, box=1, ante=100)


def test_exchange_limited_to_the_tables_range() -> None:
    config = RussianConfig(exchange_min=2, exchange_max=4)
    game = RussianRound(config=config, shoe=stacked("Ah As Ad 7c 2h"))
    game.place_box(0, box=0, ante=100)
    game.deal()
    before = game.events
    for discard in ("2h", "Ah As Ad 7c 2h"):
        with pytest.raises(IllegalActionError, match="an exchange is of 2 to 4"):
            game.exchange(0, box=0, discard=parse_cards(discard))
    assert game.events == before
    game.exchange(0, box=0, discard=parse_cards("7c 2h"))
    # an audit of an exchange outside the range is refused too
    with pytest.raises(IllegalActionError, match=r"outside the table's 2\.\.4"):
        audit_box(
            config=config,
            ante=100,
            initial=TRIPS,
            final=parse_cards("Kh Kd Ks 7c 3h"),
            draw=Draw.EXCHANGE,
            folded=False,
            dealer=PAIR_OF_QUEENS,
        )


def test_blind_insurance_returns_unless_the_hand_allows_it() -> None:
    config = RussianConfig(blind_insurance=True)
    # box 0 open (folds), box 1 blind with three kings, box 2 blind with a pair; the dealer
    # (J-9-7-5-3) does not qualify
    game = RussianRound(
        config=config,
        shoe=stacked("2c 3d 4h 6s 8c  Kh Kd Ks 7c 2h  Qs Qd 9c 5s 3h  Jc 9d 7d 5d 3s"),
    )
    game.place_box(0, box=0, ante=100)
    game.place_box(0, box=1, ante=100, blind=True, insurance=30_000)
    game.place_box(0, box=2, ante=100, blind=True, insurance=100)
    game.deal()
    game.fold(0, box=0)
    assert game.phase is Phase.SETTLED
    kings = next(o for o in game.settlement(1).outcomes if o.kind is BetKind.INSURANCE)
    # three kings: the insurance is good up to the box's potential win, 3 x the 200 Bet
    assert kings.outcome is Outcome.WON and kings.net == 600 and kings.stake == 30_000
    pair = next(o for o in game.settlement(2).outcomes if o.kind is BetKind.INSURANCE)
    assert pair.outcome is Outcome.PUSH and pair.net == 0
    assert russian_history.verify(russian_history.record(game)) == []


def test_blind_choices_need_the_option_and_a_blind_box() -> None:
    game = RussianRound(config=RussianConfig(), shoe=stacked("Ah"))
    game.place_box(0, box=0, ante=100)
    for kwargs, message in (
        ({"insurance": 100}, "no insurance on blind boxes"),
        ({"sixth_card": True}, "no sixth card in advance"),
    ):
        with pytest.raises(IllegalActionError, match=message):
            game.place_box(0, box=1, ante=100, blind=True, **kwargs)  # type: ignore[arg-type]
    sochi = RussianRound(config=RussianConfig(blind_sixth_card=True), shoe=stacked("Ah"))
    with pytest.raises(IllegalActionError, match="only a blind box"):
        sochi.place_box(0, box=0, ante=100, sixth_card=True)


def test_blind_sixth_card_is_dealt_after_the_deal() -> None:
    config = RussianConfig(blind_sixth_card=True)
    game = RussianRound(
        config=config, shoe=stacked("2c 3d 4h 6s 8c  Kh Kd Ks 7c 2h  Jc 9d 7d 5d 3s  Kc")
    )
    game.place_box(0, box=0, ante=100)
    placed = game.place_box(0, box=1, ante=100, blind=True, sixth_card=True)
    assert placed.fee == 100
    game.deal()
    sixth = [e for e in game.events if isinstance(e, SixthCardBought)]
    assert [(e.box, str(e.card)) for e in sixth] == [(1, "Kc")]
    game.fold(0, box=0)
    settled = game.settlement(1)
    assert settled.net_of(BetKind.FEE) == -100
    # four kings against a dealer who does not qualify: Ante 1:1, the Bet pushes
    assert settled.net_of(BetKind.ANTE) == 100 and settled.payout is not None
    assert settled.payout.multiple == 20
    assert russian_history.verify(russian_history.record(game)) == []


def test_options_are_validated() -> None:
    for kwargs, message in (
        ({"open_boxes_per_player": 0}, "outside 1..2"),
        ({"exchange_min": 3, "exchange_max": 2}, "exchange range 3..2"),
        ({"blind_insurance": 1}, "must be true or false"),
    ):
        with pytest.raises(ConfigError, match=message):
            RussianConfig(**kwargs)  # type: ignore[arg-type]
