"""The analysis kernels against the rules layer and brute force."""

from __future__ import annotations

import numpy as np
import pytest

from croupier.analysis.russian import _kernels as k
from croupier.analysis.russian import _nq_rank_sets, _tables, bonus_return, describe_play
from croupier.analysis.russian import _simulate as s
from croupier.cards import DECK, parse_cards
from croupier.deck import seeded_source, shuffled
from croupier.evaluator import evaluate_batch, evaluate_ids
from croupier.games.russian import BetPaytable, DuplicateRankStraights, two_combination_pay
from croupier.games.russian.rules import dealer_qualifies

PAYS = np.array(BetPaytable().as_tuple(), dtype=np.int64)


def _hands(count: int, size: int, seed: int) -> list[tuple[int, ...]]:
    source = seeded_source(seed)
    return [tuple(c.id for c in shuffled(source)[:size]) for _ in range(count)]


@pytest.mark.parametrize("pair_plus", [False, True])
def test_kernel_multiple_matches_the_rules(pair_plus: bool) -> None:
    option = (
        DuplicateRankStraights.STRAIGHT_PLUS_PAIR
        if pair_plus
        else DuplicateRankStraights.TWO_STRAIGHTS
    )
    special = [
        tuple(c.id for c in parse_cards(h))
        for h in (
            "Ah Kh Qh Jh Th 9h",
            "Kh Qs Jd Tc 9h 9s",
            "Kh Qh Jh Th 9h 9s",
            "Ah As Ad Kh 8s 8c",
        )
    ]
    # six-card hands rich in combinations: from a 20-card slice of high ranks
    rich = [h for h in _hands(3000, 6, 5) if sum(c >= 28 for c in h) >= 4][:300]
    for hand in special + _hands(400, 6, 1) + _hands(400, 5, 2) + rich:
        expected = two_combination_pay(
            [DECK[c] for c in hand], duplicate_rank_straights=option
        ).multiple
        got = k.multiple_of(np.array(hand, dtype=np.int64), len(hand), PAYS, pair_plus)
        assert got == expected, hand


def test_kernel_values_match_the_evaluator() -> None:
    tab = _tables()
    for hand in _hands(300, 6, 3) + _hands(300, 5, 4):
        assert k.value_of(np.array(hand, dtype=np.int64), len(hand), tab) == evaluate_ids(hand)


def test_non_qualifying_rank_sets() -> None:
    sets = _nq_rank_sets()
    # 1,287 rank sets - 10 straights - 165 holding A and K + A-K-Q-J-T counted twice
    assert len(sets) == 1113


def test_p_not_qualified_against_brute_force() -> None:
    nq_sets = np.array(_nq_rank_sets(), dtype=np.int64)
    order = shuffled(seeded_source(11))
    seen_cards = order[:20]
    seen = 0
    for c in seen_cards:
        seen |= 1 << c.id
    rest = np.array([c.id for c in order[20:]], dtype=np.int64)
    from itertools import combinations

    combos = np.array(list(combinations(rest.tolist(), 5)), dtype=np.int64)
    values = evaluate_batch(combos)
    ranks = combos >> 2
    ace_king = (ranks == 12).any(axis=1) & (ranks == 11).any(axis=1)
    not_qualified = (values <= 1277) & ~ace_king
    assert s.p_not_qualified(np.int64(seen), nq_sets) == pytest.approx(
        not_qualified.mean(), abs=1e-12
    )
    # the full deck: 1,113 rank sets x 1,020 non-flush suitings
    assert s.p_not_qualified(np.int64(0), nq_sets) == pytest.approx(1113 * 1020 / 2598960)


def test_dealer_qualification_agrees_with_the_rules() -> None:
    nq_sets = np.array(_nq_rank_sets(), dtype=np.int64)
    del nq_sets
    for hand in _hands(500, 5, 9):
        cards = [DECK[c] for c in hand]
        ranks = {c >> 2 for c in hand}
        expected = evaluate_ids(hand) > 1277 or {11, 12} <= ranks
        assert dealer_qualifies(cards) == expected


def test_bonus_return_is_exact() -> None:
    # Aragon's table: 4x1000 + 36x500 + 624x200 + 3744x70 + 5108x50 + 10200x40 won,
    # the other 2,579,244 hands lose
    assert bonus_return() == pytest.approx((1_072_280 - 2_579_244) / 2_598_960, abs=1e-15)


def test_describe_play() -> None:
    hand = [c.id for c in sorted(parse_cards("2c 5d 6d Qh Kh"))]
    assert describe_play(hand, 2 + 0b00111) == "exchange 3, keep K Q"
    pair = [c.id for c in sorted(parse_cards("2c 5d 9d 9h Kh"))]
    assert describe_play(pair, 2 + 0b10011) == "exchange 3, keep the pair"
    assert describe_play(pair, 1) == "stand"


@pytest.mark.parametrize(
    ("ante_pays", "failed_buy"),
    [(False, "forfeit"), (False, "paid"), (True, "paid")],
    ids=["spec", "failed-buy-paid", "ante-paid"],
)
def test_simulated_rounds_settle_as_the_engine_does(ante_pays: bool, failed_buy: str) -> None:
    """The simulation kernel's round, replayed action by action in RussianRound (also under
    the option ``ante_pays_on_win``, where a win against a qualifying dealer pays the Ante,
    and ``failed_buy_ante = "paid"``; the spec's "forfeit" failed before the kernel knew it:
    it paid the Ante after every failed buy)."""
    from math import comb

    from croupier.deck import Shoe
    from croupier.games.russian import BetKind, RussianConfig
    from croupier.games.russian.state import Phase, RussianRound

    tab = _tables()
    m5, qual = k.value_tables(tab, PAYS, False)
    rng = np.random.default_rng(5)
    decisions = rng.integers(0, 34, size=2_598_960).astype(np.int8)
    binom = np.array([[comb(n, r) for r in range(6)] for n in range(52)], dtype=np.int64)
    pw = np.zeros(7463)
    pl = rng.random(7463)  # the model's stand EV: 0.3 - 3 pl; folds after a draw when < -1
    gain = np.zeros((7463, 201))
    nq_sets = np.array(_nq_rank_sets(), dtype=np.int64)
    config = RussianConfig.from_dict(
        {"max_payout": None, "ante_pays_on_win": ante_pays, "failed_buy_ante": failed_buy}
    )
    failed = int(failed_buy == "paid")
    failed_buys = 0
    out = np.empty(s.R_FIELDS, dtype=np.int64)
    seen_paths: set[tuple[int, int, int, int]] = set()
    for seed in range(1500):
        order = shuffled(seeded_source(seed))
        deck = np.array([c.id for c in order], dtype=np.int64)
        s.play_round(
            deck,
            out,
            decisions,
            binom,
            tab,
            m5,
            qual,
            pw,
            pl,
            0.3,
            gain,
            PAYS,
            False,
            True,
            200,
            nq_sets,
            int(ante_pays),
            failed,
        )
        game = RussianRound(config=config, shoe=Shoe(order))
        game.place_box(0, box=0, ante=100)
        game.deal()
        hand = sorted(game.cards(0))
        code = int(out[s.R_CODE])
        if code == 0:
            game.fold(0, box=0)
        else:
            if code == 2:
                game.sixth_card(0, box=0)
            elif code >= 3:
                discard = [hand[j] for j in range(5) if (code - 2) >> j & 1]
                game.exchange(0, box=0, discard=discard)
            if out[s.R_STOOD]:
                game.bet(0, box=0, insurance=100 * int(out[s.R_INSURED]))
            else:
                game.fold(0, box=0)
        if game.phase is Phase.BUYING:
            if out[s.R_BOUGHT]:
                game.buy_game(0, box=0)
                failed_buys += out[s.R_ANTE] == failed and out[s.R_BET] == 0
            else:
                game.decline_buy(0, box=0)
        settled = game.settlement(0)
        expected = [
            settled.net_of(BetKind.ANTE),
            settled.net_of(BetKind.BET),
            settled.net_of(BetKind.FEE),
            settled.net_of(BetKind.INSURANCE),
            settled.net_of(BetKind.BUY),
        ]
        got = [100 * int(x) for x in out[[s.R_ANTE, s.R_BET, s.R_FEE, s.R_INS, s.R_BUY]]]
        assert got == expected, (seed, code)
        seen_paths.add((min(code, 3), int(out[s.R_STOOD]), int(out[s.R_NQ]), int(out[s.R_BOUGHT])))
    # folds, stands, exchanges, sixth cards; dealer qualifying or not; games bought
    assert len(seen_paths) >= 10
    assert failed_buys > 0  # bought games that still did not qualify


def test_value_tables() -> None:
    m5, qual = k.value_tables(_tables(), PAYS, False)
    for text, multiple, qualifies in [
        ("Ah Kd 7c 5s 3h", 1, True),
        ("Qh Jd 7c 5s 3h", 0, False),
        ("Kh Ks Ac 8d 5h", 2, True),
        ("Ah As Ad Ac Kh", 21, True),
        ("Ah Kh Qh Jh Th", 100, True),
    ]:
        v = evaluate_ids([c.id for c in parse_cards(text)])
        assert (m5[v], bool(qual[v])) == (multiple, qualifies)


def test_exact_stand_ev_of_a_hand_that_cannot_win() -> None:
    # 7-5-4-3-2 loses to every qualifying dealer and never buys: EV = P(no game) - 3 P(game)
    _, qual = k.value_tables(_tables(), PAYS, False)
    hand = np.array([c.id for c in parse_cards("2c 3d 4h 5s 7c")], dtype=np.int64)
    seen = 0
    for c in hand:
        seen |= 1 << int(c)
    p = s.p_not_qualified(np.int64(seen), np.array(_nq_rank_sets(), dtype=np.int64))
    ev = k.exact_stand_ev(hand, 5, 0, _tables(), qual, True, 0)
    assert ev == pytest.approx(p - 3 * (1 - p), abs=1e-12)


def test_exact_stand_ev_with_the_ante_paid_on_a_win() -> None:
    """Option ante_pays_on_win: against dealers who all qualify (no buying), standing gains
    exactly P(the dealer is lower), counted by brute force over every dealer hand from the 47
    unseen cards."""
    from itertools import combinations

    _, qual = k.value_tables(_tables(), PAYS, False)
    always = np.ones_like(qual)
    cards = parse_cards("Kh Kd 8c 5s 3h")
    hand = np.array([c.id for c in cards], dtype=np.int64)
    mine = evaluate_ids([c.id for c in cards])
    rest = [c for c in range(52) if c not in set(hand.tolist())]
    values = evaluate_batch(np.array(list(combinations(rest, 5)), dtype=np.int64))
    p_lower = float((values < mine).mean())
    plain = k.exact_stand_ev(hand, 5, 1, _tables(), always, True, 0)
    paid = k.exact_stand_ev(hand, 5, 1, _tables(), always, True, 1)
    assert paid - plain == pytest.approx(p_lower, abs=1e-12)
    assert p_lower > 0.4


def test_the_strategy_keeps_to_the_tables_exchange_range() -> None:
    from croupier.analysis.russian import OPTIONS, _allowed
    from croupier.games.russian import RussianConfig

    corona = _allowed(RussianConfig(exchange_min=2))
    for column, name in enumerate(OPTIONS):
        if name.startswith("exchange:"):
            size = int(name.split(":")[1]).bit_count()
            assert corona[column] == (size >= 2), name
        else:
            assert corona[column]
    assert _allowed(RussianConfig()).all()
