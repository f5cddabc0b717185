"""UTH's Hint for the server, registered with the game (:mod:`.registry`):
``GET /api/games/uth/advice?hole=AsKd&board=...`` and its older path ``/api/uth/advice``
(:data:`PATH`, documented in docs/protocol.md and kept for clients that use it)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from croupier.server.errors import InvalidRequestError

__all__ = ["PATH", "advice"]

PATH = "/api/uth/advice"
"""The advisor's path before every game's advisor was ``/api/games/{game}/advice``."""

_CARDS = re.compile(r"^[2-9TJQKAtjqkacdhs ]{0,32}$")


def advice(query: Mapping[str, str]) -> dict[str, Any]:
    """The exact EV per unit Ante of each legal option (default pay tables), best first:
    ``hole`` is two cards (``AsKd``), ``board`` none, the flop, or all five.

    Raises:
        InvalidRequestError: a field that is not cards in notation.
        InvalidCardsError: cards the advisor cannot value (a card twice, a wrong count).
    """
    from croupier.analysis.uth.advisor import advise

    fields = {name: str(query.get(name, "")) for name in ("hole", "board")}
    for name, value in fields.items():
        if not _CARDS.match(value):
            raise InvalidRequestError(
                f"{name} must be cards in notation (AsKd...), not {value[:32]!r}",
                reason="field_not_cards",
                params={"field": name},
            )
    result = advise(fields["hole"], board=fields["board"] or None)
    options = sorted(result.options, key=lambda o: o.ev, reverse=True)
    return {
        "street": result.street,
        "best": result.best,
        "options": [
            {"action": o.action, "ev": float(o.ev), "ev_exact": str(o.ev)} for o in options
        ],
    }
