"""A full Russian Poker table never runs out of cards: the round's discards are reshuffled
(spec/russian.md "Table", Decision; issue 17 item 1)."""

from __future__ import annotations

import pytest

from croupier.cards import DECK, Card, format_cards, parse_cards
from croupier.deck import Shoe, keyed_reshuffler, seeded_source, shuffled
from croupier.errors import InvalidCardsError
from croupier.games.russian import RussianConfig, RussianRound
from croupier.games.russian.events import (
    CardsExchanged,
    DiscardsReshuffled,
    GameBought,
    SixthCardBought,
)
from croupier.games.russian.state import Phase
from croupier.history import russian as russian_history

# 6 boxes x 5 cards, then a dealer who does not qualify (Q-J-9-8-7 offsuit), so every box that
# stood may buy the dealer's game; the rest of the deck follows in id order.
TOP = (
    "2c 3c 4c 5c 6c  2d 3d 4d 5d 6d  2h 3h 4h 5h 6h  2s 3s 4s 5s 6s  7c 8c 9c Tc Jc  "
    "7d 8d 9d Td Jd  Qh Js 9h 8s 7h"
)


def stacked(text: str) -> Shoe:
    top = parse_cards(text)
    ids = {c.id for c in top}
    return Shoe(top + tuple(c for c in DECK if c.id not in ids))


def full_table(config: RussianConfig, shoe: Shoe) -> RussianRound:
    """Four players: boxes 0..3 open (seats 0..3), boxes 4 and 5 blind (seats 0 and 1)."""
    game = RussianRound(config=config, shoe=shoe)
    for seat in range(4):
        game.place_box(seat, box=seat, ante=100)
    game.place_box(0, box=4, ante=100, blind=True)
    game.place_box(1, box=5, ante=100, blind=True)
    game.deal()
    return game


def in_play(game: RussianRound) -> set[int]:
    return {c.id for b in game.boxes for c in game.cards(b)} | {c.id for c in game.dealer}


@pytest.mark.parametrize("seed", range(20))
def test_every_open_box_exchanges_five_on_shuffled_decks(seed: int) -> None:
    game = full_table(RussianConfig(), Shoe(shuffled(seeded_source(seed))))
    for box in range(4):
        before = in_play(game)
        event = game.exchange(box, box=box, discard=game.cards(box))
        assert isinstance(event, CardsExchanged)
        # nothing still in play is dealt again, and no box gets back what it threw away
        assert not {c.id for c in event.received} & before
        game.bet(box, box=box)
    while (buyer := game.to_act) is not None:
        game.buy_game(game.seat_of(buyer), box=buyer)
    assert game.phase is Phase.SETTLED
    reshuffles = [e for e in game.events if isinstance(e, DiscardsReshuffled)]
    # 35 dealt, 17 left: three exchanges of five take 15, the fourth needs the discards
    assert [len(e.discards) for e in reshuffles] == [15]
    assert sorted(c.id for c in reshuffles[0].cards) == sorted(c.id for c in reshuffles[0].discards)


def test_four_players_six_boxes_exchange_five_then_buy_the_dealers_game() -> None:
    game = full_table(RussianConfig(), stacked(TOP))
    for box in range(4):
        game.exchange(box, box=box, discard=game.cards(box))
        game.bet(box, box=box)
    assert game.phase is Phase.BUYING
    for box in range(4):
        bought = game.buy_game(box, box=box)
        assert isinstance(bought, GameBought)
        assert bought.drawn[-1].id not in {c.id for c in game.dealer}
    assert game.phase is Phase.SETTLED
    assert len(game.boxes) == 6 and all(game.settlement(b) for b in game.boxes)
    record = russian_history.record(game)
    assert russian_history.verify(record) == []
    key = format_cards(game.shoe.order, " ")
    assert russian_history.reshuffle_differences(record, key=key) == []


def test_every_open_box_buys_a_sixth_card_and_the_dealers_game() -> None:
    game = full_table(RussianConfig(), stacked(TOP))
    for box in range(4):
        assert isinstance(game.sixth_card(box, box=box), SixthCardBought)
        game.bet(box, box=box)
    for box in range(4):
        game.buy_game(box, box=box)
    assert game.phase is Phase.SETTLED


def test_two_open_boxes_each_exchange_five_and_buy() -> None:
    config = RussianConfig(open_boxes_per_player=2)
    game = RussianRound(config=config, shoe=stacked(TOP))
    for box in range(6):
        game.place_box(box // 2, box=box, ante=100)
    game.deal()
    for box in range(6):
        seat = box // 2
        game.exchange(seat, box=box, discard=game.cards(box))
        game.bet(seat, box=box)
    for box in range(6):
        game.buy_game(box // 2, box=box)
    assert game.phase is Phase.SETTLED
    reshuffles = [e for e in game.events if isinstance(e, DiscardsReshuffled)]
    assert len(reshuffles) >= 2
    assert russian_history.verify(russian_history.record(game)) == []


def test_reshuffle_order_comes_from_the_key() -> None:
    key = "00ff" * 8
    reshuffle = keyed_reshuffler(key)
    game = RussianRound(config=RussianConfig(), shoe=stacked(TOP), reshuffle=reshuffle)
    for seat in range(4):
        game.place_box(seat, box=seat, ante=100)
    game.place_box(0, box=4, ante=100, blind=True)
    game.place_box(1, box=5, ante=100, blind=True)
    game.deal()
    for box in range(4):
        game.exchange(box, box=box, discard=game.cards(box))
        game.bet(box, box=box)
    (event,) = [e for e in game.events if isinstance(e, DiscardsReshuffled)]
    assert event.cards == tuple(reshuffle(0, event.discards))
    record = russian_history.record(game)
    assert russian_history.reshuffle_differences(record, key=key) == []
    assert russian_history.reshuffle_differences(record, key="another salt") != []
    # the fourth box got the stub's last two cards, then the reshuffle's first three
    exchanged = [e for e in game.events if isinstance(e, CardsExchanged)][3]
    assert exchanged.received[2:] == event.cards[:3]


def test_a_reshuffle_that_is_not_the_discards_is_refused_before_dealing() -> None:
    def cheat(index: int, cards: tuple[Card, ...]) -> tuple[Card, ...]:
        return (*cards[1:], Card.parse("As"))

    game = RussianRound(config=RussianConfig(), shoe=stacked(TOP), reshuffle=cheat)
    for seat in range(4):
        game.place_box(seat, box=seat, ante=100)
    game.place_box(0, box=4, ante=100, blind=True)
    game.place_box(1, box=5, ante=100, blind=True)
    game.deal()
    for box in range(3):
        game.exchange(box, box=box, discard=game.cards(box))
        game.bet(box, box=box)
    before = (game.events, game.shoe.position, game.cards(3))
    with pytest.raises(InvalidCardsError, match="not an order of the discards"):
        game.exchange(3, box=3, discard=game.cards(3))
    assert (game.events, game.shoe.position, game.cards(3)) == before


def test_a_table_that_could_run_out_is_refused() -> None:
    with pytest.raises(ValueError, match="one deck has 52"):
        RussianConfig(boxes=8)
