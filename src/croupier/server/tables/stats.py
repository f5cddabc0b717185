"""Operator figures per table and per game: rounds, voids, wagered, GGR, actual vs theoretical.

The theoretical return is each game's own (:meth:`croupier.server.rounds.theory.GameTheory.published_return`, from
the registry): UTH weights the published returns under optimal strategy (spec/uth.md,
"Published return to player", seed 001) by what was staked on each kind of bet, the main bets
(Ante, Blind, Play) returning 99.47 % of what they risk, Trips 96.50 %. A group holding a
round of a game without a published figure has no theoretical return.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from croupier.server.rounds.models import Round, RoundPlayer, RoundStatus, dealt
from croupier.server.tables.registry import theories

__all__ = ["operator_stats"]

_SERIES_POINTS = 500


def _group(
    rows: list[dict[str, Any]], key_of: Callable[[dict[str, Any]], str]
) -> list[dict[str, Any]]:
    groups: dict[str, dict[str, Any]] = {}
    for row in rows:
        key = key_of(row)
        group = groups.setdefault(
            key,
            {
                "key": key,
                "game": row["game"],
                "rounds": 0,
                "voided": 0,
                "open": 0,
                "wagered": 0,
                "returned": 0,
                "_theory": 0.0,
                "_known": True,
                "series": [],
            },
        )
        if row["status"] == RoundStatus.VOIDED.value:
            group["voided"] += 1
            continue
        if row["status"] == RoundStatus.OPEN.value:
            group["open"] += 1
            continue
        group["rounds"] += 1
        group["wagered"] += row["wagered"]
        group["returned"] += row["returned"]
        if row["theory"] is None:
            group["_known"] = False
        else:
            group["_theory"] += row["theory"]
        group["series"].append([group["rounds"], group["returned"] / max(1, group["wagered"])])
    out = []
    for group in groups.values():
        wagered = group["wagered"]
        group["ggr"] = wagered - group["returned"]
        group["actual"] = group["returned"] / wagered if wagered else None
        group["theoretical"] = (
            group.pop("_theory") / wagered if wagered and group["_known"] else None
        )
        group.pop("_known")
        series = group["series"]
        if len(series) > _SERIES_POINTS:
            step = len(series) / _SERIES_POINTS
            group["series"] = [series[int(i * step)] for i in range(_SERIES_POINTS)] + [series[-1]]
        out.append(group)
    return out


def operator_stats(session: Session) -> dict[str, list[dict[str, Any]]]:
    """Figures per table and per game over every round in the database."""
    staked: dict[int, tuple[int, int]] = {}
    for round_id, amount, returned in session.execute(
        select(RoundPlayer.round_id, RoundPlayer.staked, RoundPlayer.returned)
    ):
        total, back = staked.get(round_id, (0, 0))
        staked[round_id] = (total + int(amount), back + int(returned or 0))
    games = theories()
    rows = []
    for row in session.execute(
        select(Round.id, Round.table_name, Round.game, Round.status, Round.record)
        .where(dealt())  # not a cluster's next round, never played
        .order_by(Round.id)
    ):
        wagered, returned = staked.get(row.id, (0, 0))
        theory = games.get(row.game)
        rows.append(
            {
                "table": row.table_name,
                "game": row.game,
                "status": row.status,
                "wagered": wagered,
                "returned": returned,
                "theory": None if theory is None else theory.published_return(row.record, wagered),
            }
        )
    return {
        "tables": _group(rows, lambda r: str(r["table"])),
        "games": _group(rows, lambda r: str(r["game"])),
    }
