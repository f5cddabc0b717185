"""The engine's fast paths give what the plain code gives: records built through slot setters,
pots cut at live players' levels, hands valued on a shared board, remembered raise bounds."""

from __future__ import annotations

import random

import pytest

from croupier.cards import DECK, Card
from croupier.deck import Shoe, seeded_source, shuffled
from croupier.errors import IllegalActionError, InvalidCardsError
from croupier.evaluator import evaluate_ids, evaluate_on_board
from croupier.games.holdem import BettingStructure, CashHand, HoldemConfig
from croupier.games.holdem import _build as build
from croupier.games.holdem.betting import Options
from croupier.games.holdem.events import (
    BetReturned,
    BlindPosted,
    BoardDealt,
    Called,
    CardBurned,
    Checked,
    Folded,
    HoleDealt,
    PotAwarded,
    Raised,
    Shown,
)
from croupier.games.holdem.pots import Pot, build_pots
from croupier.games.holdem.showdown import settle, settle_simple


def test_builders_make_the_records_the_classes_make() -> None:
    cards = (DECK[3], DECK[40])
    pairs = [
        (build.options(1, 2, 3, 4, 5, 6, 7, 8), Options(1, 2, 3, 4, 5, 6, 7, 8)),
        (build.options(1, 0, None, None, 5, 6, 7, 1), Options(1, 0, None, None, 5, 6, 7)),
        (build.folded(3), Folded(3)),
        (build.checked(2), Checked(2)),
        (build.called(1, 5, True), Called(1, 5, True)),
        (build.raised(1, 9, 8, False, True), Raised(1, 9, 8, False, True)),
        (build.blind_posted(0, 1), BlindPosted(0, 1)),
        (build.bet_returned(4, 7), BetReturned(4, 7)),
        (build.hole_dealt(2, cards), HoleDealt(2, cards)),
        (build.hole_dealt(2, None), HoleDealt(2, None)),
        (build.shown(5, cards), Shown(5, cards)),
        (build.card_burned(DECK[7]), CardBurned(DECK[7])),
        (build.board_dealt(1, cards), BoardDealt(1, cards)),
        (build.pot_awarded(1, (0, 2), (5, 4), 99), PotAwarded(1, (0, 2), (5, 4), 99)),
    ]
    for fast, plain in pairs:
        assert type(fast) is type(plain)
        assert fast == plain and repr(fast) == repr(plain) and hash(fast) == hash(plain)


def _pots_by_every_level(
    put_in: list[int], antes: list[int], live: list[bool], trimming: bool
) -> list[Pot]:
    """build_pots' general loop: a pot per distinct level, merged when the seats repeat."""
    n = len(put_in)
    levels = list(put_in) if trimming else [t - a for t, a in zip(put_in, antes, strict=True)]
    amount = 0 if trimming else sum(antes)
    pots: list[Pot] = []
    previous = 0
    for level in sorted(set(levels)):
        contributors = [i for i in range(n) if levels[i] >= level]
        amount += (level - previous) * len(contributors)
        seats = tuple(i for i in contributors if live[i]) or tuple(contributors)
        while pots and pots[-1].seats == seats:
            amount += pots.pop().amount
        if amount:
            pots.append(Pot(amount, seats))
        amount = 0
        previous = level
    return pots


def test_pots_cut_at_live_levels_are_the_pots_of_every_level() -> None:
    rng = random.Random(19)
    for _ in range(20_000):
        n = rng.randint(2, 10)
        put_in = [rng.choice([0, 1, 2, 5, 50, rng.randint(0, 300)]) for _ in range(n)]
        antes = [rng.choice([0, 0, min(total, rng.randint(0, 3))]) for total in put_in]
        live = [rng.random() < 0.5 for _ in range(n)]
        live[rng.randrange(n)] = True
        trimming = rng.random() < 0.2
        expected = _pots_by_every_level(put_in, antes, live, trimming)
        assert build_pots(put_in, antes, live, ante_trimming=trimming) == expected


def test_hands_on_a_shared_board_are_valued_as_seven_cards() -> None:
    rng = random.Random(7)
    for _ in range(5_000):
        cards = rng.sample(range(52), 17)
        board = cards[:5]
        holes: list[tuple[int, int] | None] = [
            (cards[5 + 2 * i], cards[6 + 2 * i]) for i in range(6)
        ]
        holes[rng.randrange(6)] = None
        expected = [0 if h is None else evaluate_ids([*h, *board]) for h in holes]
        assert evaluate_on_board(board, holes) == expected
    with pytest.raises(InvalidCardsError, match="more than once"):
        evaluate_on_board([0, 1, 2, 3, 4], [(4, 5)])
    with pytest.raises(InvalidCardsError, match="outside"):
        evaluate_on_board([0, 1, 2, 3, 4], [(52, 5)])
    with pytest.raises(InvalidCardsError, match="5 cards"):
        evaluate_on_board([0, 1, 2, 3], [(8, 5)])


def test_remembered_raise_bounds_belong_to_one_decision() -> None:
    config = HoldemConfig.cash(players=3, small_blind=1, big_blind=2)
    hand = CashHand(config, stacks=(100, 100, 100), shoe=Shoe(shuffled(seeded_source(3))))
    options = hand.options()
    assert options is not None and options.seat == 2 and options.min_raise_to == 4
    hand.raise_to(2, 10)
    # the next player's bounds are worked out afresh: 10 + 8 = 18 at least
    with pytest.raises(IllegalActionError, match="below the minimum raise to 18"):
        hand.raise_to(0, 12)
    with pytest.raises(IllegalActionError, match="it is player 1's turn, not player 2's"):
        hand.raise_to(1, 30)
    hand.options()
    with pytest.raises(IllegalActionError, match="it is player 1's turn, not player 2's"):
        hand.raise_to(1, 30)  # bounds remembered for position 0 do not let position 1 act
    assert hand.raise_to(0, 18).to == 18


def test_each_config_keeps_its_own_rules() -> None:
    stacks = (100, 100)
    for _ in range(3):
        for structure, low, high in (
            (BettingStructure.NO_LIMIT, 4, 100),
            (BettingStructure.FIXED_LIMIT, 4, 4),
            (BettingStructure.POT_LIMIT, 4, 6),
        ):
            config = HoldemConfig.cash(players=2, small_blind=1, big_blind=2, structure=structure)
            hand = CashHand(config, stacks=stacks, shoe=Shoe(shuffled(seeded_source(1))))
            assert hand.raise_bounds() == (low, high)


def test_direct_settlement_pays_what_the_general_settlement_pays() -> None:
    # showdown.settle_simple (whole shares, odd chip by position, no rake, no ante trimming)
    # against showdown.settle on random end-of-hand amounts, ties and side pots included
    rng = random.Random(2019)
    config = HoldemConfig.cash(players=10, small_blind=1, big_blind=2)
    used = 0
    for _ in range(20_000):
        n = rng.randint(2, 10)
        cards = rng.sample(DECK, 5 + 2 * n)
        board = cards[:5]
        # few distinct ranks make ties (split pots, odd chips) common
        holes: list[tuple[Card, ...] | None] = [
            (cards[5 + 2 * i], cards[6 + 2 * i]) for i in range(n)
        ]
        if rng.random() < 0.3:
            board = [DECK[48], DECK[49], DECK[44], DECK[45], DECK[0]]  # aces and kings up
            pool = [c for c in DECK if c not in board]
            rng.shuffle(pool)
            holes = [(pool[2 * i], pool[2 * i + 1]) for i in range(n)]
        put_in = [rng.choice([1, 2, 5, 50, 51, rng.randint(1, 300)]) for _ in range(n)]
        antes = [rng.choice([0, 0, min(total, rng.randint(0, 3))]) for total in put_in]
        live = [rng.random() < 0.6 for _ in range(n)]
        live[rng.randrange(n)] = True
        if rng.random() < 0.5:  # the usual end: the live players put in the most
            top = max(put_in)
            put_in = [top if alive else total for total, alive in zip(put_in, live, strict=True)]
        fast = settle_simple(put_in, antes, live, holes, board)
        if fast is None:
            continue
        used += 1
        rake, awards = settle(
            config, put_in=put_in, antes=antes, live=live, holes=holes, board=board
        )
        assert rake == 0 and fast == awards, (put_in, antes, live)
    assert used > 10_000
