"""The exact value of every legal option at a Russian Poker decision (the table's hint).

Three decisions, each valued exactly with what the player knows then (one box; the cards
of other boxes are not known and count as unseen):

* **first** (five cards, before any exchange): fold, bet now (with the best insurance), the
  sixth card, and every exchange the table allows: the class's own exact sums
  (:func:`._classes.solve_chunk` for this one hand, every option summed);
* **bet** (the final five or six cards, the discards seen): fold, or bet with or without
  insurance, over every dealer hand of the unseen cards (:func:`._state.state_parts`);
* **buy** (the dealer's hand shown, not qualifying): take the Ante's payment or buy, over
  every card the dealer can draw.

Values are in Antes, the player's net of the whole round from the moment of the decision
(fees already paid are not counted; a fee the option costs is). Exact fractions.

>>> advise_first("As Ad Ac 7h 2d").best  # trips: two cards for a full house or four
'exchange 2d 7h'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

import numba as nb
import numpy as np

from croupier.analysis.russian._brute import _buy_numerator, buy_scale
from croupier.analysis.russian._counts import category_totals
from croupier.analysis.russian._draws import EXT
from croupier.analysis.russian._hands import FULL_DECK
from croupier.analysis.russian._kernels import multiple_of, value_of
from croupier.analysis.russian._ranks import TRIPS
from croupier.analysis.russian._state import availability, state_parts
from croupier.analysis.russian.exact import (
    EXACT_POLICY,
    ExactRules,
    _scales,
    _tables,
    exact_rules,
    option_denominators,
)
from croupier.cards import Card, parse_cards
from croupier.errors import InvalidCardsError
from croupier.games.russian.config import RussianConfig

__all__ = [
    "Advice",
    "OptionValue",
    "advice_json",
    "advise",
    "advise_bet",
    "advise_buy",
    "advise_first",
]

_WORD = 1 << 40
_EVERY_OPTION = 1e9
"""A bound margin no option can be pruned by: every option is summed exactly."""


@dataclass(frozen=True, slots=True)
class OptionValue:
    """One legal option and its exact value."""

    action: str
    """``fold``, ``bet``, ``sixth_card``, ``exchange``, ``buy``, ``decline``."""
    ev: Fraction
    """Antes, the round's net from now on."""
    discard: tuple[Card, ...] = ()
    """The cards an exchange gives up."""
    insurance: int = 0
    """The insurance a bet places (Antes)."""

    @property
    def label(self) -> str:
        """``exchange 7h 2d``, ``bet + insurance 4``, ``fold``..."""
        if self.action == "exchange":
            return "exchange " + " ".join(str(c) for c in self.discard)
        if self.action == "bet" and self.insurance:
            return f"bet + insurance {self.insurance}"
        return self.action.replace("_", " ")


@dataclass(frozen=True, slots=True)
class Advice:
    """Every legal option of one decision, best first."""

    decision: str
    """``first``, ``bet`` or ``buy``."""
    options: tuple[OptionValue, ...]

    @property
    def best(self) -> str:
        """The best option's label."""
        return self.options[0].label

    def cost(self, label: str) -> Fraction:
        """What taking option ``label`` costs against the best (Antes, >= 0).

        Raises:
            KeyError: no option of that label.
        """
        for option in self.options:
            if option.label == label:
                return self.options[0].ev - option.ev
        raise KeyError(label)


def _cards(cards: str | Iterable[Card], what: str, sizes: tuple[int, ...]) -> tuple[Card, ...]:
    out = parse_cards(cards) if isinstance(cards, str) else tuple(cards)
    if len(out) not in sizes or len({c.id for c in out}) != len(out):
        raise InvalidCardsError(f"{what}: {'/'.join(map(str, sizes))} distinct cards, got {out}")
    return out


@cache
def _prepared(rules: ExactRules) -> tuple[Any, ...]:
    return _tables(rules)


def _sorted(options: list[OptionValue], decision: str) -> Advice:
    order = {"bet": 0, "decline": 0, "sixth_card": 1, "exchange": 2, "buy": 1, "fold": 3}
    options.sort(key=lambda o: (-o.ev, order[o.action], len(o.discard)))
    return Advice(decision=decision, options=tuple(options))


@nb.njit(cache=True, nogil=True)
def _not_qualified(dead: Any, deck: Any, mt: Any) -> Any:  # pragma: no cover - compiled
    """``(not qualifying dealer hands, hands)`` of the cards outside ``dead``."""
    a = np.zeros(13, dtype=np.int64)
    suits = np.zeros(4, dtype=np.int64)
    left = availability(dead, deck, a, suits)
    totals = np.zeros(11, dtype=np.int64)
    category_totals(a, totals)
    nq = totals[8]
    for s in range(4):
        nq -= mt[1][suits[s]]
    return nq, left * (left - 1) * (left - 2) * (left - 3) * (left - 4) // 120


def _bet_options(final: tuple[Card, ...], seen: int, rules: ExactRules) -> list[OptionValue]:
    """Fold, and the Bet: with the best insurance, and (three of a kind or better) with
    the other choice of insurance, none or the most the analysis places."""
    tab, pays, _, vt, mt, ds, _ = _prepared(rules)
    ids = np.array([c.id for c in final], dtype=np.int64)
    v = value_of(ids, len(ids), tab)
    m = multiple_of(ids, len(ids), pays, rules.pair_plus)
    scale = buy_scale(FULL_DECK.bit_count() - seen.bit_count(), rebuy=rules.rebuy)
    total, hands, insurance, insured, _, _ = state_parts(
        v, m, seen, FULL_DECK, rules.array, scale, vt, mt, ds
    )
    bet = Fraction(int(total), int(hands) * scale)
    options = [OptionValue("fold", Fraction(-1)), OptionValue("bet", bet, insurance=int(insured))]
    if insured:
        options.append(OptionValue("bet", bet - Fraction(int(insurance), int(hands) * scale)))
    elif vt[0][v] >= TRIPS:
        nq, hands = _not_qualified(seen, FULL_DECK, mt)
        most = 2 * int(m)
        ev = bet + most * Fraction(2 * int(nq) - int(hands), int(hands))
        options.append(OptionValue("bet", ev, insurance=most))
    return options


def _dead(*groups: tuple[Card, ...]) -> int:
    dead = 0
    for group in groups:
        for c in group:
            if dead >> c.id & 1:
                raise InvalidCardsError(f"{c} is given twice")
            dead |= 1 << c.id
    return dead


def advise_bet(
    final: str | Iterable[Card],
    seen: str | Iterable[Card] = (),
    config: RussianConfig | None = None,
) -> Advice:
    """The Bet decision: ``final`` (5 or 6 cards), ``seen`` the player's other cards
    (discards).

    Raises:
        InvalidCardsError: not 5 or 6 distinct final cards, or a card given twice.
    """
    rules = exact_rules(config or RussianConfig())
    hand = _cards(final, "final hand", (5, 6))
    others = _cards(seen, "seen cards", tuple(range(6)))
    return _sorted(_bet_options(hand, _dead(hand, others), rules), "bet")


def advise_buy(
    final: str | Iterable[Card],
    dealer: str | Iterable[Card],
    seen: str | Iterable[Card] = (),
    config: RussianConfig | None = None,
) -> Advice:
    """Buying the dealer's game: ``final`` (5 or 6 cards) against a ``dealer`` hand that
    does not qualify; ``seen`` the player's discards. The insurance is settled on the
    dealer's first hand either way and is not counted.

    Raises:
        InvalidCardsError: not 5 or 6 final cards, not 5 dealer cards, a card given twice,
            or a dealer's hand that qualifies.
    """
    from croupier.analysis.russian._brute import qualifies

    rules = exact_rules(config or RussianConfig())
    hand = _cards(final, "final hand", (5, 6))
    others = _cards(seen, "seen cards", tuple(range(6)))
    dealt = _cards(dealer, "dealer's hand", (5,))
    dead = _dead(hand, others, dealt)
    tab, pays, *_ = _prepared(rules)
    ids = np.array([c.id for c in hand], dtype=np.int64)
    dealer_ids = np.array([c.id for c in dealt], dtype=np.int64)
    if qualifies(value_of(dealer_ids, 5, tab), dealer_ids):
        raise InvalidCardsError(f"the dealer's {' '.join(map(str, dealt))} qualifies")
    v = value_of(ids, len(ids), tab)
    win = 2 * multiple_of(ids, len(ids), pays, rules.pair_plus) + rules.ante_win
    rest = np.array([c for c in range(52) if not dead >> c & 1], dtype=np.int64)
    total, n = _buy_numerator(dealer_ids, rest, len(rest), v, win, tab, rules.array)
    buy = OptionValue("buy", Fraction(int(total), int(n)) - 1)
    return _sorted([OptionValue("decline", Fraction(1)), buy], "buy")


def advise_first(hand: str | Iterable[Card], config: RussianConfig | None = None) -> Advice:
    """The first decision for five cards: fold, bet (insurance as :func:`advise_bet`), the
    sixth card and every exchange the table allows (fees counted).

    Raises:
        InvalidCardsError: not five distinct cards.
    """
    from croupier.analysis.russian._classes import solve_chunk

    rules = exact_rules(config or RussianConfig())
    cards = sorted(_cards(hand, "first hand", (5,)), key=lambda c: c.id)
    tab, pays, m5, vt, mt, ds, kt = _prepared(rules)
    row = np.array([[c.id for c in cards]], dtype=np.int64)
    counts = np.zeros((1, 13), dtype=np.int64)
    for c in cards:
        counts[0, c.id >> 2] += 1
    words = np.zeros((1, 34, 4), dtype=np.int64)
    bounds = np.zeros((1, 34, 2))
    how = np.zeros((1, 34), dtype=np.int64)
    ext = np.zeros((1, 34, EXT), dtype=np.int64)
    deck_counts = np.full(13, 4, dtype=np.int64)
    scales = np.array(_scales(47, rules.rebuy), dtype=np.int64)
    solve_chunk(
        counts, np.array([0, 1], dtype=np.int64), row, FULL_DECK, deck_counts, tab, pays, m5,
        rules.array, scales, vt, mt, ds, kt, words, bounds, how, _EVERY_OPTION, EXACT_POLICY,
        ext, rules.allowed, np.full(1, -1, dtype=np.int64),
    )  # fmt: skip
    options = _bet_options(tuple(cards), _dead(tuple(cards)), rules)
    dens = option_denominators(FULL_DECK, rules.rebuy)
    allowed = rules.allowed
    for o in range(2, 34):
        if not allowed[o]:
            continue
        w = words[0, o]
        ev = Fraction(int(w[0]) * _WORD + int(w[1]), dens[o])
        if o == 2:
            options.append(OptionValue("sixth_card", ev))
        else:
            discard = tuple(c for j, c in enumerate(cards) if (o - 2) >> j & 1)
            options.append(OptionValue("exchange", ev, discard=discard))
    return _sorted(options, "first")


def advise(
    hand: str | Iterable[Card],
    seen: str | Iterable[Card] = (),
    dealer: str | Iterable[Card] = (),
    config: RussianConfig | None = None,
) -> Advice:
    """The decision the cards describe: buying when the ``dealer``'s hand is given, the
    first decision for five cards with nothing ``seen``, the Bet otherwise."""
    cards = _cards(hand, "hand", (5, 6))
    discards = _cards(seen, "seen cards", tuple(range(6)))
    shown = parse_cards(dealer) if isinstance(dealer, str) else tuple(dealer)
    if shown:
        return advise_buy(cards, shown, discards, config)
    if len(cards) == 5 and not discards:
        return advise_first(cards, config)
    return advise_bet(cards, discards, config)


def advice_json(
    hand: str, *, seen: str = "", dealer: str = "", config: RussianConfig | None = None
) -> dict[str, Any]:
    """:func:`advise` as the server answers it (floats and exact fractions as text)."""
    advice = advise(hand, seen, dealer, config)
    return {
        "decision": advice.decision,
        "best": advice.options[0].action,
        "best_label": advice.best,
        "options": [
            {
                "action": o.action,
                "label": o.label,
                "discard": [str(c) for c in o.discard],
                "insurance": o.insurance,
                "ev": float(o.ev),
                "ev_exact": str(o.ev),
                "cost": float(advice.options[0].ev - o.ev),
            }
            for o in advice.options
        ],
    }
