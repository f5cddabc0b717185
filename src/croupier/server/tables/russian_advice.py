"""Russian Poker's Hint and decision costs for the server (issue 32), registered with the
game (:mod:`.registry`): ``GET /api/games/russian/advice`` and ``GET /api/rounds/{id}/costs``."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from croupier.server.errors import InvalidRequestError

__all__ = ["advice", "costs"]

_CARDS = re.compile(r"^[2-9TJQKAtjqkacdhs ]{0,32}$")


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

    fields = {name: str(query.get(name, "")) for name in ("hand", "seen", "dealer")}
    for name, value in fields.items():
        if not _CARDS.match(value):
            raise InvalidRequestError(
                f"{name} must be cards in notation (AsKd...), not {value[:32]!r}",
                reason="field_not_cards",
                params={"field": name},
            )
    return advice_json(fields["hand"], seen=fields["seen"], dealer=fields["dealer"])


def costs(record: Mapping[str, Any], seats: set[int]) -> list[dict[str, Any]]:
    """What each decision of the given seats in a recorded round cost against the best one."""
    from croupier.analysis.russian.costs import decision_costs

    return [c.to_json() for c in decision_costs(dict(record)) if c.seat in seats]
