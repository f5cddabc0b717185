"""What the daily report needs from a round's record: each box's base stake and net, and the
pay tables it was played with. One function per game; records keep their own shapes
(:mod:`croupier.history.records`), so this is the one place that reads them for reports."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from croupier.analysis.uth.paytables import PayTable, from_engine
from croupier.errors import CroupierError
from croupier.games.paytables import PayTable as EnginePayTable
from croupier.games.russian import RussianConfig
from croupier.history.records import to_json

__all__ = ["RUSSIAN_ANALYSED_RULES", "BoxStake", "russian_boxes", "uth_boxes", "uth_paytables"]

RUSSIAN_ANALYSED_RULES = ("bet_paytable", "rebuy_same_rank", "duplicate_rank_straights")
"""The Russian rules the analysed figure depends on (spec values)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class BoxStake:
    """One box of one round: what it staked before any decision, and its net result."""

    ante: int
    side: int
    """UTH Trips or Russian Bonus."""
    net: int
    covered: bool = True
    """False for a box the analysis does not describe (a Russian blind box)."""


def uth_paytables(record: Mapping[str, Any]) -> tuple[PayTable, PayTable] | None:
    """The (Blind, Trips) pay tables of a UTH record, or None if it has none readable."""
    config = record.get("config") or {}
    try:
        blind = EnginePayTable.from_mapping("blind", config["blind_paytable"])
        trips = EnginePayTable.from_mapping("trips", config["trips_paytable"])
    except (KeyError, TypeError, CroupierError):
        return None
    return from_engine(blind), from_engine(trips)


def uth_boxes(record: Mapping[str, Any]) -> list[BoxStake]:
    """Every settled box of a UTH record."""
    boxes = []
    for result in record.get("results") or []:
        stakes = {b.get("bet"): int(b.get("stake", 0)) for b in result.get("bets", [])}
        boxes.append(
            BoxStake(
                ante=stakes.get("ante", 0), side=stakes.get("trips", 0), net=int(result["net"])
            )
        )
    return boxes


_RUSSIAN_DEFAULTS = {
    key: value for key, value in to_json(RussianConfig()).items() if key in RUSSIAN_ANALYSED_RULES
}


def russian_boxes(record: Mapping[str, Any]) -> list[BoxStake]:
    """Every settled box of a Russian Poker record; a box is covered by the analysed figure
    when it is open and the table's rules are those analysed."""
    rules = record.get("rules") or {}
    analysed = all(rules.get(k, v) == v for k, v in _RUSSIAN_DEFAULTS.items())
    placed = {int(e["box"]): e for e in record.get("events") or [] if e.get("kind") == "box_placed"}
    boxes = []
    for result in record.get("results") or []:
        event = placed.get(int(result["box"]), {})
        boxes.append(
            BoxStake(
                ante=int(event.get("ante", 0)),
                side=int(event.get("bonus", 0)),
                net=int(result["net"]),
                covered=analysed and not event.get("blind", False),
            )
        )
    return boxes
