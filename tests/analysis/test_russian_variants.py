"""The shipped exact figures of Russian Poker's options (``data/exact_variants.json``) against
themselves, against the default rules' figures and against independent computations with the
option on: sampled classes valued one draw at a time (:mod:`._option`) and by the brute force
(:mod:`._brute`), and reduced decks solved with the option and valued by the brute force.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from croupier.analysis.russian import _brute as b
from croupier.analysis.russian import _option as op
from croupier.analysis.russian._hands import FULL_DECK
from croupier.analysis.russian.exact import OPTION_NAMES, _claim, exact_rules, solve
from croupier.analysis.russian.exact import _tables as exact_tables
from croupier.analysis.russian.results import summarize
from croupier.analysis.russian.strategy import load_exact_figures
from croupier.analysis.russian.variants import (
    ExactVariant,
    exact_figures_for,
    load_exact_variants,
)
from croupier.cards import parse_cards
from croupier.errors import ConfigError
from croupier.games.russian import RussianConfig

VARIANTS = load_exact_variants()
ANALYSED = (
    "failed_buy_ante",
    "ante_pays_on_win",
    "rebuy_same_rank",
    "duplicate_rank_straights",
    "bet_paytable",
    "exchange_min",
    "exchange_max",
    "dealer_upcard",
)


def _name(variant: ExactVariant) -> str:
    return f"{variant.option}={variant.value}"


def _value(config: RussianConfig, hand: str, option: str) -> Fraction:
    """One first-round option of one hand (full deck), valued one draw at a time by
    :mod:`._option` (the sixth card, an exchange) or by the brute force over every dealer
    hand and bought card (standing)."""
    rules = exact_rules(config)
    tab, pays, m5, vt, mt, ds, _ = exact_tables(rules)
    ids = np.array(sorted(c.id for c in parse_cards(hand)), dtype=np.int64)
    o = OPTION_NAMES.index(option)
    drawn = 0 if o == 1 else 1 if o == 2 else (o - 2).bit_count()
    scale = b.buy_scale(47 - drawn, rebuy=rules.rebuy)
    if o == 1:
        total, draws, hands = b.option_total(ids, 1, FULL_DECK, tab, pays, rules.array, scale)
        return Fraction(total, draws * hands * scale)
    acc = np.zeros(2, dtype=np.int64)
    if o == 2:
        draws, hands = op.sixth_sums(ids, FULL_DECK, tab, pays, rules.array, scale, vt, mt, ds, acc)
    else:
        draws, hands = op.exchange_sums(
            ids, o - 2, FULL_DECK, tab, m5, rules.array, scale, vt, mt, ds, acc
        )
    return Fraction(int(acc[0]) * (1 << 40) + int(acc[1]), draws * hands * scale)


def _cheap(option: str) -> bool:
    """Options valued in well under a second (the sixth card, exchanges of up to 3 cards)."""
    o = OPTION_NAMES.index(option)
    return o == 2 or (o >= 3 and (o - 2).bit_count() <= 3)


def test_the_shipped_variants_are_the_options_of_the_issue() -> None:
    """The paid failed buy, the Ante paid on a win and Corona's exchange range are shipped
    (the runs that finished) and each changes exactly one analysed rule of the spec's."""
    default = RussianConfig().to_dict()
    assert {v.option for v in VARIANTS} >= {"exchange_min"}
    for variant in VARIANTS:
        rules = variant.figures.rules
        changed = [k for k in ANALYSED if rules[k] != default[k]]
        assert changed == [variant.option], _name(variant)
        assert variant.command.startswith("croupier russian analyze --exact --rule ")
        if isinstance(variant.value, dict):  # a pay table: the lines changed
            assert {k: rules[variant.option][k] for k in variant.value} == variant.value
            for line, pays in variant.value.items():
                assert f"--rule {variant.option}.{line}={pays} " in variant.command
            continue
        assert rules[variant.option] == variant.value
        word = str(variant.value).lower() if isinstance(variant.value, bool) else variant.value
        assert f"--rule {variant.option}={word} " in variant.command


@pytest.mark.parametrize("variant", VARIANTS, ids=_name)
def test_each_variant_is_exact_and_adds_up(variant: ExactVariant) -> None:
    """The bounds met; the edge per total bet is the edge over the money wagered; the first
    decisions' shares add up to all hands and their contributions to the EV."""
    figures = variant.figures
    f = figures.figures
    assert figures.exact and figures.ev_upper == f["EV per Ante (player)"]
    assert figures.house_edge == -f["EV per Ante (player)"]
    assert (
        f["house edge per total bet"] == figures.house_edge / f["money wagered per round (Antes)"]
    )
    assert sum(share for share, _ in figures.decisions.values()) == 1
    assert sum(value for _, value in figures.decisions.values()) == f["EV per Ante (player)"]
    fees = -sum(
        share for name, (share, _) in figures.decisions.items() if name not in {"fold", "stand"}
    )
    assert f["exchange and sixth-card fees per round (Antes)"] == fees
    assert len(variant.samples) >= 3


def test_the_options_move_the_edge_the_right_way() -> None:
    """Rules that pay the player more can only raise the optimal return, rules that pay less
    or allow fewer choices only lower it: a paid failed buy and the Ante paid on a win beat
    the spec's rules; a narrower exchange range or a straight and a pair paid for
    K-Q-J-T-9-9 cannot (the same-rank rebuy has no such order: it gives up the drawn card)."""
    base = load_exact_figures().house_edge
    for variant in VARIANTS:
        edge = variant.figures.house_edge
        if variant.option in {"failed_buy_ante", "ante_pays_on_win"}:
            assert edge < base, _name(variant)
        elif variant.option in {"exchange_min", "exchange_max", "duplicate_rank_straights"}:
            assert edge >= base, _name(variant)


@pytest.mark.parametrize("variant", VARIANTS, ids=_name)
def test_sampled_classes_are_worth_the_shipped_values(variant: ExactVariant) -> None:
    """The shipped classes' chosen sixth card or exchange of up to three cards, valued again
    one draw at a time with the option on, is worth exactly the shipped value, and no less
    than standing."""
    config = variant.config
    checked = 0
    for sample in variant.samples:
        value, stand = Fraction(sample["value"]), Fraction(sample["stand"])
        assert value >= stand
        if _cheap(sample["choice"]):
            assert _value(config, sample["hand"], sample["choice"]) == value, sample
            checked += 1
    assert checked >= 2


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=_name)
def test_every_sampled_class_by_the_brute_force(variant: ExactVariant) -> None:
    """Every shipped class: its chosen option valued independently (exchanges of four cards
    included) and standing valued by the brute force over every dealer hand and bought card
    of the full deck, with the option on."""
    config = variant.config
    for sample in variant.samples:
        assert _value(config, sample["hand"], sample["choice"]) == Fraction(sample["value"])
        assert max(Fraction(-1), _value(config, sample["hand"], "stand")) == Fraction(
            sample["stand"]
        )


def test_a_table_finds_its_figures() -> None:
    """The default rules and each shipped option find their own figures (limits, the cap and
    the Bonus do not matter); a range holding every exchange size the strategy uses finds the
    same figures; other rules, a range without the exchanges the strategy needs, and a dealer
    upcard find none."""
    default = load_exact_figures()
    assert exact_figures_for(RussianConfig()) == default
    assert exact_figures_for(RussianConfig(ante_max=50_000, max_payout=None)) == default
    for variant in VARIANTS:
        found = exact_figures_for(variant.config)
        assert found is not None and found.figures == variant.figures.figures
    for lo, hi in [(2, 5), (1, 4), (2, 4)]:
        found = exact_figures_for(RussianConfig(exchange_min=lo, exchange_max=hi))
        assert found is not None and found.house_edge == default.house_edge
    assert exact_figures_for(RussianConfig(exchange_max=3)) is None
    assert exact_figures_for(RussianConfig(exchange_min=3)) is None
    assert exact_figures_for(RussianConfig(dealer_upcard=True)) is None
    assert exact_figures_for(RussianConfig(failed_buy_ante="paid", rebuy_same_rank=False)) is None
    assert exact_figures_for(RussianConfig(bet_multiple=3)) is None


def test_a_workdir_serves_a_narrower_exchange_range_only(tmp_path: Path) -> None:
    """A run directory of the full range serves a table of 2-5 (its chunks summed over every
    option stay valid) and keeps its stamp; a wider range or other rules are refused, as is
    the exact analysis of a table whose dealer shows a card."""
    wide = np.ones(34, dtype=bool)
    narrow = exact_rules(RussianConfig(exchange_min=2)).allowed
    stamp = {"rules": exact_rules(RussianConfig()).key, "deck": FULL_DECK}
    assert (_claim(tmp_path, {**stamp, "allowed": wide.tolist()}, wide) == wide).all()
    before = (tmp_path / "rules.json").read_text()
    assert (_claim(tmp_path, {**stamp, "allowed": narrow.tolist()}, narrow) == wide).all()
    assert (tmp_path / "rules.json").read_text() == before
    other = tmp_path / "other"
    _claim(other, {**stamp, "allowed": narrow.tolist()}, narrow)
    with pytest.raises(ConfigError, match="other rules"):
        _claim(other, {**stamp, "allowed": wide.tolist()}, wide)
    paid = {"rules": exact_rules(RussianConfig(failed_buy_ante="paid")).key, "deck": FULL_DECK}
    with pytest.raises(ConfigError, match="other rules"):
        _claim(tmp_path, {**paid, "allowed": narrow.tolist()}, narrow)
    with pytest.raises(ConfigError, match="dealer_upcard"):
        solve(RussianConfig(dealer_upcard=True), deck=0)


def _deck(ranks: range, suits: tuple[int, ...]) -> int:
    return sum(1 << (4 * r + s) for r in ranks for s in suits)


@pytest.mark.slow
@pytest.mark.parametrize(
    "changes",
    [
        {"failed_buy_ante": "paid"},
        {"ante_pays_on_win": True},
        {"exchange_min": 2},
        {"exchange_max": 3},
        {"rebuy_same_rank": False},
        {"duplicate_rank_straights": "straight_plus_pair"},
        {"bet_paytable": {"pair": 2}},
    ],
    ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()),
)
def test_a_reduced_deck_with_the_option_equals_the_brute_force(
    changes: dict[str, object], tmp_path: Path
) -> None:
    """A seven-rank (eight to Ace), three-suit deck with the option on: the analysis is exact;
    for sampled classes every allowed option the analysis summed equals the brute force, every
    other option's bounds hold it, and the class's chosen option is the brute force's best; an
    exchange range is also summarised from a run directory of the full range where that run
    can serve it."""
    config = RussianConfig.from_dict(changes)
    deck = _deck(range(6, 13), (0, 1, 3))
    solution = solve(config, deck=deck, chunks=2)
    result = summarize(solution)
    assert result.exact
    rules = exact_rules(config)
    tab, pays, *_ = exact_tables(rules)
    rng = np.random.default_rng(32)
    for c in rng.choice(len(solution.classes.cards), 4, replace=False).tolist():
        hand = solution.classes.cards[c]
        values = {}
        for option in np.flatnonzero(rules.allowed).tolist():
            if option == 0:
                continue
            drawn = 0 if option == 1 else 1 if option == 2 else (option - 2).bit_count()
            scale = b.buy_scale(deck.bit_count() - 5 - drawn, rebuy=rules.rebuy)
            t, d, h = b.option_total(hand, option, deck, tab, pays, rules.array, scale)
            values[option] = Fraction(t, d * h * scale)
            if solution.how[c, option] == 2:
                assert solution.total(c, option) == values[option], (c, option)
            else:
                low, high = solution.bounds[c, option]
                assert low - 1e-12 <= float(values[option]) <= high + 1e-12, (c, option)
        best = max(Fraction(-1), *values.values())
        chosen = int(result.choice[c])
        assert (Fraction(-1) if chosen == 0 else values[chosen]) == best, (c, chosen)
    if "exchange_min" in changes or "exchange_max" in changes:
        solve(RussianConfig(), deck=deck, chunks=2, workdir=tmp_path)
        try:
            reused = summarize(solve(config, deck=deck, chunks=2, workdir=tmp_path))
        except ValueError:
            return  # the wider run pruned an option this range needs: it says so
        assert reused.ev == result.ev


@pytest.mark.parametrize("variant", VARIANTS, ids=_name)
def test_each_variant_ships_its_strategy_for_every_class(variant: ExactVariant) -> None:
    """The shipped strategy of an option takes each sampled class's shipped choice, and its
    choices, weighted by the classes' sizes, are the shares of hands of the exact figures'
    first decisions (fold, stand, sixth card, each exchange size) to the last hand."""
    strategy = variant.strategy()
    assert len(strategy.choice) == 134_459 and strategy.rules
    for sample in variant.samples:
        assert (
            OPTION_NAMES[int(strategy.choice[strategy.index(sample["hand"])])] == sample["choice"]
        )
    total = int(strategy.weights.sum())
    shares: dict[str, int] = {}
    for column, weight in zip(strategy.choice.tolist(), strategy.weights.tolist(), strict=True):
        kind = (
            ("fold", "stand", "sixth card")[column]
            if column < 3
            else (f"exchange {(column - 2).bit_count()}")
        )
        shares[kind] = shares.get(kind, 0) + weight
    expected = {k: share for k, (share, _) in variant.figures.decisions.items() if share}
    assert {k: Fraction(n, total) for k, n in shares.items()} == expected
