"""The optimal decision for every player hand against every up card, shipped as package data.

``data/decisions.npz`` holds, for the up card of each rank in clubs (the lowest suit id), one
bit per player hand of the other 51 cards in colex order (13 x 2,349,060 bits, compressed
to about 140 kB); every other up card is the same situation under a change of suits
(:func:`hand_index`). ``data/summary.json`` holds the exact figures. Both are written by
:func:`write_strategy_data` from a full :func:`~croupier.analysis.caribbean.analyze_exact`
run (``croupier caribbean analyze --exact --write-data``); a slow test checks they match a
fresh run.

>>> from croupier.cards import parse_cards
>>> decision(parse_cards("2c2d7h9sJd"), parse_cards("Ah")[0]), decision(parse_cards(
...     "AsKdQh9c7d"), parse_cards("Ac")[0]), decision(parse_cards("AsQd9h7c5d"), parse_cards("Kc")[0])
(True, True, False)
"""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from functools import cache
from importlib import resources
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from croupier.analysis.caribbean.exact import FULL_DECK, ExactResult
from croupier.cards import Card, check_distinct
from croupier.errors import ConfigError, InvalidCardsError
from croupier.games.caribbean.config import DEFAULT_RAISE

__all__ = [
    "DATA_DIR",
    "decision",
    "hand_index",
    "load_decisions",
    "load_summary",
    "write_strategy_data",
]

DATA_DIR = Path(__file__).resolve().parent / "data"
"""Where the package data lives in a source checkout."""

_HANDS = comb(51, 5)


def hand_index(hand: Sequence[int], up: int) -> tuple[int, int]:
    """Where the decision for player card ids ``hand`` against up card id ``up`` is kept: the
    up card's rank, and the colex rank of the hand, its suits changed so that the up card is a
    club, over the 51 cards other than that club.

    >>> hand_index([1, 2, 3, 4, 5], 0), hand_index([0, 1, 2, 3, 4], 51)
    ((0, 0), (12, 21))

    Raises:
        InvalidCardsError: not five cards and an up card, distinct, of a full deck.
    """
    ids = [int(c) for c in (*hand, up)]
    if len(ids) != 6 or len(set(ids)) != 6 or any(not 0 <= c < 52 for c in ids):
        raise InvalidCardsError(f"need five distinct player cards and an up card, not {ids}")
    suit, rank = up & 3, up >> 2
    club = 4 * rank

    def relabel(card: int) -> int:  # swap the up card's suit with clubs
        s = card & 3
        s = 0 if s == suit else suit if s == 0 else s
        return (card & ~3) | s

    positions = sorted(c - (c > club) for c in (relabel(c) for c in hand))
    return rank, sum(comb(p, k) for k, p in enumerate(positions, 1))


def write_strategy_data(result: ExactResult, directory: Path = DATA_DIR) -> list[Path]:
    """Write the decisions and the summary of a full-deck optimal run; returns the paths.

    Raises:
        ConfigError: not a full-deck optimal run under the rules' pay table and multiple.
    """
    if (
        result.deck != FULL_DECK
        or result.strategy != "optimal"
        or result.multiple != 2
        or result.paytable.to_mapping() != DEFAULT_RAISE.to_mapping()
    ):
        raise ConfigError("the shipped strategy comes from a full-deck optimal run of the rules")
    directory.mkdir(parents=True, exist_ok=True)
    npz_path = directory / "decisions.npz"
    np.savez_compressed(npz_path, bits=np.packbits(result.decisions, axis=1))
    json_path = directory / "summary.json"
    json_path.write_text(json.dumps(result.to_json(), indent=1) + "\n", encoding="utf-8")
    return [npz_path, json_path]


def _data(name: str) -> bytes:
    return resources.files("croupier.analysis.caribbean").joinpath("data", name).read_bytes()


@cache
def load_summary() -> dict[str, Any]:
    """The shipped exact figures (:meth:`ExactResult.to_json` of the full run)."""
    loaded: dict[str, Any] = json.loads(_data("summary.json"))
    return loaded


@cache
def load_decisions() -> npt.NDArray[np.uint8]:
    """Shape (13, 2,349,060): 1 where the hand raises (see :func:`hand_index`)."""
    with np.load(io.BytesIO(_data("decisions.npz"))) as data:
        bits = data["bits"]
    return np.unpackbits(bits, axis=1)[:, :_HANDS]


def decision(hand: Sequence[Card], up: Card) -> bool:
    """Whether the optimal strategy raises with ``hand`` against the dealer's ``up`` card (the
    rules' pay table and a Raise of two Antes).

    Raises:
        InvalidCardsError: not five player cards, or a card twice.
    """
    if len(hand) != 5:
        raise InvalidCardsError(f"a player hand has 5 cards, not {len(hand)}")
    check_distinct((*hand, up))
    rank, index = hand_index([c.id for c in hand], up.id)
    return bool(load_decisions()[rank, index])
