"""A strategy people can use at the table, summarised from the class table."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from croupier.cards import Rank
from croupier.evaluator import HandCategory, category_of, evaluate_ids

__all__ = [
    "KINDS",
    "MADE",
    "ClassTable",
    "DecisionMap",
    "StrategyRow",
    "decision_kind",
    "decision_map",
    "describe_play",
    "exact_summary",
    "strategy_summary",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class ClassTable:
    """Every suit-isomorphic class of five cards with the EV of each option (model)."""

    codes: npt.NDArray[np.int64]
    cards: npt.NDArray[np.int64]
    """(C, 5) card ids of each class's representative, sorted."""
    weights: npt.NDArray[np.int64]
    """How many of the 2,598,960 hands each class holds."""
    evs: npt.NDArray[np.float64]
    """(C, 34) EV in Antes (fees included, Bonus excluded); columns :data:`croupier.analysis.russian.OPTIONS`."""
    decisions: npt.NDArray[np.int64]
    """The best column for each class (ties go to the lower column: fold, stand, sixth...)."""

    @property
    def expected_value(self) -> float:
        """The model's EV per Ante of the whole strategy."""
        best = self.evs[np.arange(len(self.codes)), self.decisions]
        return float((best * self.weights).sum() / self.weights.sum())


@dataclass(frozen=True, slots=True, kw_only=True)
class StrategyRow:
    """How one kind of first five cards is played (shares of all such hands)."""

    label: str
    fold: float
    stand: float
    exchange: float
    sixth: float
    typical: str
    """The most common play, in words."""


def _group(cards: list[int]) -> str:
    value = evaluate_ids(cards)
    category = category_of(value)
    ranks = sorted((c >> 2 for c in cards), reverse=True)
    if category is HandCategory.HIGH_CARD:
        return "Ace-King" if 12 in ranks and 11 in ranks else "No pair, no Ace-King"
    if category is HandCategory.PAIR:
        pair = next(r for r in ranks if ranks.count(r) == 2)
        return f"Pair of {Rank(pair).plural}"
    if category in (HandCategory.STRAIGHT_FLUSH, HandCategory.ROYAL_FLUSH):
        return "Straight flush or better"
    return category.label


def describe_play(cards: list[int], column: int) -> str:
    """A play in words: ``"stand"``, ``"exchange 3, keep Pair"``, ``"sixth card"``."""
    if column == 0:
        return "fold"
    if column == 1:
        return "stand"
    if column == 2:
        return "sixth card"
    discard = column - 2
    kept = [c for j, c in enumerate(cards) if not discard >> j & 1]
    drawn = 5 - len(kept)
    if not kept:
        return "exchange 5"
    ranks = [c >> 2 for c in kept]
    suits = {c & 3 for c in kept}
    counts = sorted((ranks.count(r) for r in set(ranks)), reverse=True)
    if counts[0] >= 2:
        shape = {
            (2,): "the pair",
            (2, 1): "the pair and a kicker",
            (2, 2): "two pair",
            (3,): "three of a kind",
            (3, 1): "three of a kind and a kicker",
            (2, 1, 1): "the pair and two kickers",
            (4,): "four of a kind",
        }.get(tuple(counts), "a pair")
    elif len(kept) >= 3 and len(suits) == 1:
        shape = f"{len(kept)} to a flush"
    elif len(kept) >= 3 and max(ranks) - min(ranks) <= 4:
        shape = f"{len(kept)} to a straight"
    else:
        shape = " ".join(Rank(r).symbol for r in sorted(ranks, reverse=True))
    return f"exchange {drawn}, keep {shape}"


def strategy_summary(classes: ClassTable) -> list[StrategyRow]:
    """Shares of fold / stand / exchange / sixth card by the kind of first five cards."""
    shares: dict[str, list[float]] = defaultdict(lambda: [0.0] * 5)
    plays: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    order: dict[str, int] = {}
    for i in range(len(classes.codes)):
        cards = [int(c) for c in classes.cards[i]]
        label = _group(cards)
        value = evaluate_ids(cards)
        order[label] = min(order.get(label, 10_000), value)
        weight = float(classes.weights[i])
        column = int(classes.decisions[i])
        kind = 0 if column == 0 else 1 if column == 1 else 3 if column == 2 else 2
        shares[label][kind] += weight
        shares[label][4] += weight
        plays[label][describe_play(cards, column)] += weight
    rows = []
    for label in sorted(shares, key=lambda name: order[name]):
        s = shares[label]
        typical = max(plays[label].items(), key=lambda item: item[1])[0]
        rows.append(
            StrategyRow(
                label=label,
                fold=s[0] / s[4],
                stand=s[1] / s[4],
                exchange=s[2] / s[4],
                sixth=s[3] / s[4],
                typical=typical,
            )
        )
    return rows


KINDS = ("fold", "stand", "sixth card", *(f"exchange {k}" for k in range(1, 6)))
"""The kinds of first decision: an option column's kind is :func:`decision_kind`."""
MADE = ("Two pair", "Three of a kind", "Straight", "Flush", "Full house", "Four of a kind",
        "Straight flush")  # fmt: skip


def decision_kind(column: int) -> int:
    """The index in :data:`KINDS` of an option column (0 fold, 1 stand, 2 sixth, 2 + d)."""
    return column if column < 3 else 2 + (column - 2).bit_count()


@dataclass(frozen=True, slots=True, kw_only=True)
class DecisionMap:
    """How often each kind of first decision is taken, by the shape of the first five."""

    no_pair: npt.NDArray[np.int64]
    """(13, 13, 8): hands without a pair, straight or flush, by highest rank, second rank."""
    pairs: npt.NDArray[np.int64]
    """(13, 13, 8): one pair, by the pair's rank and the highest other rank."""
    made: npt.NDArray[np.int64]
    """(7, 8): two pair and better (:data:`MADE`), straights and flushes included."""


def decision_map(
    cards: npt.NDArray[np.int64], weights: npt.NDArray[np.int64], choice: npt.NDArray[np.int64]
) -> DecisionMap:
    """Hands (weights) by shape and kind of first decision."""
    no_pair = np.zeros((13, 13, 8), dtype=np.int64)
    pairs = np.zeros((13, 13, 8), dtype=np.int64)
    made = np.zeros((7, 8), dtype=np.int64)
    for row, weight, column in zip(cards.tolist(), weights.tolist(), choice.tolist(), strict=True):
        kind = decision_kind(column)
        category = category_of(evaluate_ids(row))
        ranks = sorted((c >> 2 for c in row), reverse=True)
        if category is HandCategory.HIGH_CARD:
            no_pair[ranks[0], ranks[1], kind] += weight
        elif category is HandCategory.PAIR:
            pair = next(r for r in ranks if ranks.count(r) == 2)
            kicker = next(r for r in ranks if r != pair)
            pairs[pair, kicker, kind] += weight
        else:
            index = min(int(category) - 2, 6)
            made[index, kind] += weight
    return DecisionMap(no_pair=no_pair, pairs=pairs, made=made)


def exact_summary(
    cards: npt.NDArray[np.int64], weights: npt.NDArray[np.int64], choice: npt.NDArray[np.int64]
) -> list[StrategyRow]:
    """Shares of fold / stand / exchange / sixth card by the kind of first five cards, and
    the most common play, for an exact strategy (option columns per class)."""
    table = ClassTable(
        codes=np.zeros(len(cards), dtype=np.int64),
        cards=cards,
        weights=weights,
        evs=np.zeros((len(cards), 34)),
        decisions=choice,
    )
    return strategy_summary(table)
