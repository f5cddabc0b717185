"""The Russian Poker advisor (:mod:`croupier.analysis.russian.advisor`) against outside
truths: the brute force over every dealer hand, the engine's settlement of every bought
card, and the suit symmetry of the first decision."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from croupier.analysis.russian import _brute as b
from croupier.analysis.russian.advisor import OptionValue, advise_bet, advise_buy, advise_first
from croupier.analysis.russian.exact import _tables as exact_tables
from croupier.analysis.russian.exact import exact_rules
from croupier.cards import Card, parse_cards
from croupier.errors import InvalidCardsError
from croupier.games.russian import RussianConfig
from croupier.games.russian.rules import Draw, settle_box

FULL = (1 << 52) - 1


@pytest.mark.parametrize(
    ("final", "seen"),
    [
        # The fast suite's case: three of a kind, where the insurance has two choices.
        ("As Ad Ac 7h 2d", ""),
        # Each brute force is ~10 s on a quiet core (~30 s on the shared 2-core machine):
        # the other two run in `make test-all`.
        pytest.param("Ah Kd 7c 5s 2h", "3c 4d", marks=pytest.mark.slow),
        pytest.param("Kh Kd 9c 9s 2h 3h", "", marks=pytest.mark.slow),
    ],
)
def test_the_bet_is_worth_the_brute_force(final: str, seen: str) -> None:
    """The Bet's best value (insurance included) is the brute force's over every dealer hand
    of the unseen cards (each non-qualifying one bought or not, whichever is worth more)."""
    rules = exact_rules(RussianConfig())
    tab, pays, *_ = exact_tables(rules)
    cards = parse_cards(final)
    dead = 0
    for c in (*cards, *parse_cards(seen)):
        dead |= 1 << c.id
    scale = b.buy_scale(52 - dead.bit_count(), rebuy=True)
    ids = np.array([c.id for c in cards], dtype=np.int64)
    total, hands = b.bet_total(ids, len(ids), dead, FULL, tab, pays, rules.array, scale)
    advice = advise_bet(final, seen)
    bets = [o for o in advice.options if o.action == "bet"]
    assert max(o.ev for o in bets) == Fraction(int(total), int(hands) * scale)
    assert {o.action for o in advice.options} == {"bet", "fold"}


@pytest.mark.parametrize(
    ("final", "dealer", "seen"),
    [
        ("Ah Ad 7c 5s 2h", "Kc Qd 9h 6s 3c", ""),
        ("9h 9d 9c 5s 2h", "Kc Qd Jh 6s 3c", "4c 8d"),
        ("Th Jh Qh Kh 2h 2c", "Ac Qd Jd 6s 3c", ""),
    ],
)
@pytest.mark.parametrize("failed_buy_ante", ["forfeit", "paid"])
def test_buying_is_worth_the_engines_settlement(
    final: str, dealer: str, seen: str, failed_buy_ante: str
) -> None:
    """Buying's value is the mean of the engine's settlement over every card the dealer can
    draw (the rebuy rule: not the replaced card's rank); declining is the Ante's payment."""
    config = RussianConfig(max_payout=None, failed_buy_ante=failed_buy_ante)
    player, dealt = parse_cards(final), parse_cards(dealer)
    used = {c.id for c in (*player, *dealt, *parse_cards(seen))}
    top = max(dealt, key=lambda c: c.id)
    nets = []
    for card in (Card.from_id(i) for i in range(52) if i not in used):
        if card.id >> 2 == top.id >> 2:
            continue
        settled = settle_box(
            config=config, ante=100, initial=player[:5], final=player,
            draw=Draw.SIXTH if len(player) == 6 else Draw.NONE, folded=False, dealer=dealt,
            buy=True, dealer_draws=[card],
        )  # fmt: skip
        nets.append(settled.net + (100 if len(player) == 6 else 0))  # the fee is paid
    advice = advise_buy(final, dealer, seen, config)
    values = {o.action: o.ev for o in advice.options}
    assert values["buy"] == Fraction(sum(nets), 100 * len(nets))
    assert values["decline"] == 1
    assert advice.options[0].ev == max(values.values())


def _suit_symmetric(config: RussianConfig, exchanges: int) -> None:
    """A hand and its image under a suit permutation have the same option values, discards
    mapped card by card; every allowed exchange is valued, the fold is the Ante lost."""
    one = advise_first("Ah Kh 7h 5s 2d", config)
    two = advise_first("Ac Kc 7c 5d 2h", config)  # h->c, s->d, d->h
    swap = {"h": "c", "s": "d", "d": "h", "c": "s"}

    def key(option: OptionValue, mapping: dict[str, str]) -> tuple[object, ...]:
        cards = frozenset(str(c)[0] + mapping.get(str(c)[1], str(c)[1]) for c in option.discard)
        return option.action, option.insurance, cards

    assert {key(o, swap): o.ev for o in one.options} == {key(o, {}): o.ev for o in two.options}
    assert sum(o.action == "exchange" for o in one.options) == exchanges
    assert {o.label: o.ev for o in one.options}["fold"] == -1
    assert one.cost(one.best) == 0
    assert all(one.cost(o.label) >= 0 for o in one.options)


def test_the_first_decision_is_suit_symmetric_up_to_two_cards() -> None:
    """The fast suite's version: a table that exchanges one or two cards (the 15 exchanges
    of at most two cards; the three- to five-card draws are most of the full run's time)."""
    _suit_symmetric(RussianConfig(exchange_max=2), 15)


@pytest.mark.slow
def test_the_first_decision_is_suit_symmetric() -> None:
    """Every exchange of the spec's table (31: one to five cards)."""
    _suit_symmetric(RussianConfig(), 31)


def test_the_first_decisions_bet_is_the_bet_decisions() -> None:
    """Betting at once is the Bet decision with nothing discarded."""
    first = {o.label: o.ev for o in advise_first("Qs Qd 8c 4h 3s").options}
    bet = {o.label: o.ev for o in advise_bet("Qs Qd 8c 4h 3s").options}
    assert {k: first[k] for k in bet} == bet


@pytest.mark.parametrize(
    "call",
    [
        lambda: advise_first("Ah Kh 7h 5s"),
        lambda: advise_first("Ah Ah 7h 5s 2d"),
        lambda: advise_bet("Ah Kh 7h 5s 2d", "Ah"),
        lambda: advise_buy("Ah Kh 7h 5s 2d", "As Ad Qc 5c 2c"),
    ],
)
def test_bad_cards_are_refused(call: object) -> None:
    with pytest.raises(InvalidCardsError):
        call()  # type: ignore[operator]


def test_h_at_the_terminal_shows_each_options_value() -> None:
    """`croupier russian play`: `h` at the first decision, at the Bet and at buying prints
    the advisor's values (per Ante and in chips); the round then goes on as answered."""
    from typer.testing import CliRunner

    from croupier.cli.russian import app

    # seed 3 deals Q-7-3-T-T (tests/russian/test_cli.py); the same round with hints
    answers = "h\ne\n1 2\nh\nb\nh\ny\nn\n"
    args = ["play", "--seed", "3", "--boxes", "2", "--bonus", "5"]
    result = CliRunner().invoke(app, args, input=answers)
    assert result.exit_code == 0, result.output
    assert result.output.count("Best: ") == 3
    assert "exchange 7" in result.output and "sixth card" in result.output  # first decision
    assert "decline" in result.output and "buy" in result.output  # buying
    assert "You leave with 985 chips (-15)" in result.output
