"""The advisors' card queries (a table's Hint, ``GET /api/games/{game}/advice``): each field
is cards in notation (``AsKd``, spaces allowed), checked the same way for every game before
its advisor values them. Nothing here names a game."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from croupier.server.errors import InvalidRequestError

__all__ = ["card_fields"]

_CARDS = re.compile(r"^[2-9TJQKAtjqkacdhs ]{0,32}$")
"""Ranks and suits in notation and spaces, at most 32 characters (a query is short: the
advisor counts the cards and refuses a card twice, ``InvalidCardsError``)."""


def card_fields(
    query: Mapping[str, str], names: Iterable[str], *, required: Iterable[str] = ()
) -> dict[str, str]:
    """The query's fields ``names`` as text (an absent one empty), each cards in notation;
    the ``required`` ones not empty.

    Raises:
        InvalidRequestError: a field that is not cards in notation, or a required one
            missing (``field_not_cards``, ``params.field`` naming it).
    """
    needed = set(required)
    fields = {name: str(query.get(name, "")) for name in names}
    for name, value in fields.items():
        if not _CARDS.match(value) or (name in needed and len(value.strip()) < 2):
            raise InvalidRequestError(
                f"{name} must be cards in notation (AsKd...), not {value[:32]!r}",
                reason="field_not_cards",
                params={"field": name},
            )
    return fields
