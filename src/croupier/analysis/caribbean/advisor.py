"""The strategy advisor: the exact EV of raising and of folding a hand against an up card.

The Raise's EV is counted on the spot over the dealer's 163,185 possible other four cards
(the cards the player and the up card leave), by the same rules as the exact analysis; the
fold's is minus one Ante. Under the rules' pay table the shipped decision table
(:mod:`croupier.analysis.caribbean.strategy`) is read as well and must agree.

>>> advice = advise("AsKdQh9c7d", "Ac")
>>> advice.best, advice.table
('raise', 'raise')
>>> advice = advise("AsQd9h7c5d", "Kc")
>>> advice.best, round(float(advice.options[0].ev), 4), advice.dealer_hands
('fold', -1.6093, 163185)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from croupier.analysis.caribbean import _kernels as kernels
from croupier.analysis.caribbean.exact import pay_units
from croupier.analysis.caribbean.strategy import decision
from croupier.cards import Card, check_distinct, parse_cards
from croupier.errors import InvalidCardsError
from croupier.evaluator import category_of, evaluate_ids, lookup_tables
from croupier.games.caribbean.config import DEFAULT_RAISE
from croupier.games.caribbean.rules import qualify_min
from croupier.games.paytables import PayTable

__all__ = ["Advice", "Option", "advise"]

_DECK = np.arange(52, dtype=np.int64)


@dataclass(frozen=True, slots=True)
class Option:
    """One decision and its exact EV per unit Ante."""

    action: str
    """``"raise"`` or ``"fold"``."""
    ev: Fraction


@dataclass(frozen=True, slots=True, kw_only=True)
class Advice:
    """Both decisions for one hand against one up card, and the counts behind the Raise."""

    options: tuple[Option, Option]
    """The Raise, then the fold."""
    not_qualified: int
    """Of the dealer's possible hands: those that do not qualify."""
    wins: int
    ties: int
    losses: int
    table: str | None
    """The shipped table's decision (the rules' pay table only; else ``None``)."""

    @property
    def best(self) -> str:
        """The better decision; an exact tie folds (risking less), as the analysis does."""
        raised, folded = self.options
        return "raise" if raised.ev > folded.ev else "fold"

    @property
    def dealer_hands(self) -> int:
        """How many dealer hands the counts cover (163,185 with a full deck)."""
        return self.not_qualified + self.wins + self.ties + self.losses


def _cards(cards: str | Iterable[Card]) -> tuple[Card, ...]:
    return parse_cards(cards) if isinstance(cards, str) else tuple(cards)


def advise(
    hand: str | Iterable[Card],
    upcard: str | Card,
    *,
    paytable: PayTable = DEFAULT_RAISE,
    multiple: int = 2,
) -> Advice:
    """The exact EV of raising and of folding ``hand`` (five cards) against ``upcard``.

    Raises:
        InvalidCardsError: not five player cards and one up card, or a card twice.
        ConfigError: a pay table that does not pay every category.
    """
    cards = _cards(hand)
    up = _cards(upcard) if isinstance(upcard, str) else (upcard,)
    if len(cards) != 5 or len(up) != 1:
        raise InvalidCardsError(
            f"need five player cards and one up card, not {len(cards)} and {len(up)}"
        )
    check_distinct(cards + up)
    scale, odds = pay_units(paytable)
    t = lookup_tables()
    pv = evaluate_ids([c.id for c in cards])
    counts = np.zeros(4, dtype=np.int64)
    kernels.direct_counts(
        np.array([c.id for c in cards], dtype=np.int64),
        up[0].id,
        _DECK,
        t.card_keys,
        t.low_hash[0],
        t.high_hash,
        t.nonflush[0],
        t.flush,
        qualify_min(),
        pv,
        counts,
    )
    nq, win, tie, lose = (int(x) for x in counts)
    pay = odds[category_of(pv)]
    raised = nq * scale + win * (scale + multiple * pay) - lose * (1 + multiple) * scale
    dealer = nq + win + tie + lose
    standard = multiple == 2 and paytable.to_mapping() == DEFAULT_RAISE.to_mapping()
    table = None
    if standard:
        table = "raise" if decision(cards, up[0]) else "fold"
    return Advice(
        options=(Option("raise", Fraction(raised, dealer * scale)), Option("fold", Fraction(-1))),
        not_qualified=nq,
        wins=win,
        ties=tie,
        losses=lose,
        table=table,
    )
