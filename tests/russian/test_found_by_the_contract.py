"""Bugs the engine contract walks found (tests/games/test_contract.py), each pinned here."""

from __future__ import annotations

import pytest

from croupier.cards import parse_cards
from croupier.deck import Shoe, seeded_source, shuffled
from croupier.errors import IllegalActionError
from croupier.games.russian import RussianConfig, RussianRound

# boxes 0 and 1 (seats 0 and 1), then the dealer's K-Q-9-5-4 (no qualifying hand), then
# the cards a buy draws
DECK = "Ah As Ad 7c 2h  Kh Ks 8d 8h 2c  Kd Qd 9c 5s 4h  7h 6d 3c"


def test_a_void_after_a_bought_dealers_game_returns_the_buy_fee() -> None:
    game = RussianRound(config=RussianConfig(), shoe=Shoe(parse_cards(DECK)))
    game.place_box(0, box=0, ante=100)
    game.place_box(1, box=1, ante=100)
    game.deal()
    game.bet(0, box=0)
    game.bet(1, box=1)
    game.buy_game(0, box=0)  # box 0 pays 100 for the dealer's game; box 1 still to choose
    voided = game.void("malfunction while box 1 chooses")
    # box 0: Ante 100, Bet 200, the buy 100; box 1: Ante 100, Bet 200
    assert dict(voided.returned) == {0: 400, 1: 300}


def test_a_box_that_would_leave_a_blind_box_without_its_open_box_is_refused() -> None:
    game = RussianRound(config=RussianConfig(boxes=3), shoe=Shoe(shuffled(seeded_source(1))))
    game.place_box(0, box=0, ante=100, blind=True)  # seat 0 still needs an open box
    game.place_box(1, box=1, ante=100)
    with pytest.raises(IllegalActionError, match="no free box for the open box"):
        game.place_box(1, box=2, ante=100, blind=True)  # the layout's last box
    game.place_box(0, box=2, ante=100)
    assert game.can_deal()
