"""The strategy advisor: the exact EV of every legal option at any decision point.

Pre-flop EVs come from the exact table (shipped for the default pay tables, or from an
:class:`ExactResult` passed in); the flop (2x or check, then the best river action) and the
river (1x or fold) are enumerated on the spot over every turn, river and dealer hand.

>>> advice = advise("AsKs")
>>> advice.best, [o.action for o in advice.options]
('4x', ['4x', '3x', 'check'])
>>> advise("7c2d", board="AhKhQh 3s 4s").best
'fold'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from croupier.analysis.uth import _play
from croupier.analysis.uth._symmetry import class_name, hand_class
from croupier.analysis.uth.exact import _QUALIFY_MIN, ExactResult, PreflopEntry
from croupier.analysis.uth.paytables import DEFAULT_BLIND, PayTable, check_paytable, units
from croupier.analysis.uth.strategy import load_preflop
from croupier.cards import Card, check_distinct, parse_cards
from croupier.errors import ConfigError, InvalidCardsError
from croupier.evaluator import categories, lookup_tables

__all__ = ["Advice", "Option", "advise"]


@dataclass(frozen=True, slots=True)
class Option:
    """One legal action and its exact EV per unit Ante (Blind = Ante), optimal play after."""

    action: str
    """``"4x"``, ``"3x"``, ``"2x"``, ``"1x"``, ``"check"`` or ``"fold"``."""
    ev: Fraction


@dataclass(frozen=True, slots=True, kw_only=True)
class Advice:
    """The options at one decision point, best first."""

    street: str
    """``"preflop"``, ``"flop"`` or ``"river"``."""
    options: tuple[Option, ...]

    @property
    def best(self) -> str:
        """The action with the highest EV (ties: the first listed, bets before checks)."""
        return max(self.options, key=lambda o: o.ev).action


def _cards(cards: str | Iterable[Card] | None) -> tuple[Card, ...]:
    if cards is None:
        return ()
    return parse_cards(cards) if isinstance(cards, str) else tuple(cards)


def _tables() -> tuple[object, ...]:
    t = lookup_tables()
    return (t.low_hash[2], t.nonflush[2], (t.card_keys, t.high_hash, t.flush))


def advise(
    hole: str | Iterable[Card],
    board: str | Iterable[Card] | None = None,
    *,
    blind: PayTable = DEFAULT_BLIND,
    exact: ExactResult | None = None,
    preflop: Sequence[PreflopEntry] | None = None,
) -> Advice:
    """The exact EV of each legal option for ``hole`` with ``board`` of 0, 3 or 5 cards.

    Args:
        hole: the player's two cards (``"AsKd"`` or Cards).
        board: none (pre-flop), the flop, or flop + turn + river.
        blind: the Blind pay table for the flop and river; the pre-flop table comes from
            ``preflop`` or ``exact`` when given, else the shipped table (default pay tables
            only).

    Raises:
        InvalidCardsError: not two hole cards, a board of 1, 2 or 4 cards, repeated cards.
        ConfigError: a pre-flop question with other pay tables and no ``exact`` result.
    """
    hand = _cards(hole)
    shown = _cards(board)
    if len(hand) != 2:
        raise InvalidCardsError(f"the player holds 2 cards, not {len(hand)}")
    if len(shown) not in (0, 3, 5):
        raise InvalidCardsError(f"a board shows 0, 3 or 5 cards, not {len(shown)}")
    check_distinct(hand + shown)
    check_paytable(blind, name="blind")
    if not shown:
        entries = tuple(preflop) if preflop is not None else None
        return _preflop(hand, blind=blind, exact=exact, entries=entries)
    scale, blind_units = units(blind)
    low7, nf7, tb = _tables()
    category = categories(np.arange(0, 7463).clip(1)).astype(np.int64)
    hole_ids = np.array([c.id for c in hand], dtype=np.int64)
    board_ids = np.array([c.id for c in shown], dtype=np.int64)
    bu = np.array(blind_units, dtype=np.int64)
    if len(shown) == 3:
        out = np.zeros(2, dtype=np.int64)
        _play.flop_sums(hole_ids, board_ids, low7, nf7, tb, category, bu, scale, _QUALIFY_MIN, out)
        den = scale * 1081 * 990
        return Advice(
            street="flop",
            options=(
                Option("2x", Fraction(int(out[0]), den)),
                Option("check", Fraction(int(out[1]), den)),
            ),
        )
    counts = np.zeros(6, dtype=np.int64)
    work = np.zeros(7, dtype=np.int64)
    pv = _play.river_counts(hole_ids, board_ids, low7, nf7, tb, _QUALIFY_MIN, counts, work)
    ev1 = int(_play.river_ev1(counts, int(category[pv]), bu, scale))
    return Advice(
        street="river",
        options=(Option("1x", Fraction(ev1, scale * 990)), Option("fold", Fraction(-2))),
    )


def _preflop(
    hand: tuple[Card, ...],
    *,
    blind: PayTable,
    exact: ExactResult | None,
    entries: tuple[PreflopEntry, ...] | None = None,
) -> Advice:
    if entries is None and exact is not None:
        entries = exact.preflop
    if entries is None and dict(blind) == dict(DEFAULT_BLIND):
        entries = load_preflop()
    if entries is None:
        raise ConfigError("pre-flop advice for other pay tables needs their exact analysis")
    name = class_name(hand_class(hand[0].id, hand[1].id))
    entry = next((e for e in entries if e.hand == name), None)
    if entry is None:
        raise ConfigError(f"the pre-flop table has no entry for {name}")
    return Advice(
        street="preflop",
        options=(
            Option("4x", entry.ev_4x),
            Option("3x", entry.ev_3x),
            Option("check", entry.ev_check),
        ),
    )
