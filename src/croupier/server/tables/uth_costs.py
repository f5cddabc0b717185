"""UTH's decision costs for the server (issue 32), registered with the game
(:mod:`.registry`): ``GET /api/rounds/{id}/costs``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["costs"]


def costs(record: Mapping[str, Any], seats: set[int]) -> list[dict[str, Any]] | None:
    """What each decision of the given seats cost against the best one (a casino table
    on the default pay tables); ``None`` for a live table or a round voided before the river."""
    from croupier.analysis.uth.costs import decision_costs
    from croupier.history import uth

    if record.get("config", {}).get("shared_hand"):
        return None
    rnd = uth.replay(dict(record))
    if len(rnd.board) != 5:
        return None  # a round voided before the river
    bets = {int(b["seat"]): int(b["ante"]) for b in record.get("bets", [])}
    hole = {s: rnd.hole_cards(s) for s in seats if s in bets}
    actions = [(int(a["seat"]), str(a["action"])) for a in record.get("actions", [])]
    return decision_costs(hole, rnd.board, actions, bets)
