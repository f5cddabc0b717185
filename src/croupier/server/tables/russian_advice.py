"""Russian Poker's Hint and decision costs for the server (issue 32), registered with the
game (:mod:`.registry`): ``GET /api/games/russian/advice`` and ``GET /api/rounds/{id}/costs``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from croupier.server.tables.card_query import card_fields

__all__ = ["advice", "costs"]


def advice(query: Mapping[str, str]) -> dict[str, Any]:
    """The exact EV per Ante of each legal option at a Russian Poker decision (the spec's
    default rules), best first: the first decision for five cards with nothing ``seen``;
    the Bet with the final cards and the discards ``seen``; buying when the ``dealer``'s
    hand is given. See :mod:`croupier.analysis.russian.advisor`.

    Raises:
        InvalidRequestError: a field that is not cards in notation.
        InvalidCardsError: cards the advisor cannot value (a card twice, a wrong count).
    """
    from croupier.analysis.russian.advisor import advice_json

    fields = card_fields(query, ("hand", "seen", "dealer"))
    return advice_json(fields["hand"], seen=fields["seen"], dealer=fields["dealer"])


def costs(record: Mapping[str, Any], seats: set[int]) -> list[dict[str, Any]]:
    """What each decision of the given seats in a recorded round cost against the best one."""
    from croupier.analysis.russian.costs import decision_costs

    return [c.to_json() for c in decision_costs(dict(record)) if c.seat in seats]
