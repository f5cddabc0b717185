"""What a player's help panel shows of a table (``GET /api/tables/{name}/help``): the return
to player of the table's own pay tables and the version of the game's software.

A regulated table shows both to players (seed 001 prints "Puntata principale totale: 99,47 %",
"Puntata principale iniziale: 97,82 %", "Puntata bonus Trips: 96,50 %" and "Versione 5.91"):
here they come from the same theory the operator's reports use
(:func:`croupier.server.floor.returns.theoretical_return`), for the table's rules as they
stand, so a table whose pay tables an operator changed shows its own figures.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from importlib.metadata import PackageNotFoundError, version
from typing import Any

__all__ = ["player_help"]

# Each theory's figures as lines of the panel: (line key, figure, its exact fraction).
_LINES = (
    ("main_total", "return_per_total_bet", "return_per_total_bet_exact"),
    ("main_initial", "return", "return_exact"),
    ("trips", "trips_return", "trips_return_exact"),
    ("bonus", "bonus_return", None),
)


def _software() -> str:
    try:
        return version("croupier")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree
        return "0"


def player_help(entry: Mapping[str, Any], figures: Mapping[str, Any]) -> dict[str, Any]:
    """The panel of table ``entry`` (its lobby entry) from its theory's ``figures``.

    ``returns`` lists the figures the theory has, each ``{"key", "value"}`` (a fraction of
    what was staked: 0.9947) with ``exact`` (a fraction's text) where it is exact and
    ``plus_minus`` (half the 95 % interval) where it was simulated; ``version`` is the
    software's and the rules' own digest, which changes with any change of the table's rules.
    """
    rules = entry.get("rules") or {}
    digest = hashlib.sha256(json.dumps(rules, sort_keys=True).encode()).hexdigest()[:12]
    lines: list[dict[str, Any]] = []
    if figures.get("status") == "ready":
        interval = figures.get("interval")
        for key, name, exact in _LINES:
            value = figures.get(name)
            if value is None:
                continue
            if key == "main_initial" and figures.get("return_per_total_bet") is None:
                key = "main"  # one figure for the main game: per Ante, no "initial" to tell
            line: dict[str, Any] = {"key": key, "value": float(value)}
            if exact is not None and figures.get(exact):
                line["exact"] = figures[exact]
            if name == "return" and interval:
                line["plus_minus"] = (float(interval[1]) - float(interval[0])) / 2
            lines.append(line)
    elif figures.get("bonus_return") is not None:
        lines.append({"key": "bonus", "value": float(figures["bonus_return"])})
    return {
        "table": entry.get("name"),
        "game": entry.get("game"),
        "method": figures.get("method", "none"),
        "status": figures.get("status", "unavailable"),
        "returns": lines,
        "rake": figures.get("rake"),
        "version": f"{entry.get('game')} {_software()} · {digest}",
    }
