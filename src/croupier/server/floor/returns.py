"""The theoretical return of a table as its rules stand (``GET /api/operator/tables``).

Each game gives its own (:meth:`croupier.server.rounds.theory.GameTheory.table_return`, from
the registry): UTH exact for the table's pay tables (the theory cache of
:mod:`croupier.server.reports.theory`), Russian Poker the analysed figure with its 95 %
interval, Hold'em the rake; a game without a theory has no figure.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from croupier.server.reports.theory import TheoryBook
from croupier.server.tables.registry import theories

__all__ = ["theoretical_return"]


def theoretical_return(game: str, rules: Mapping[str, Any], *, book: TheoryBook) -> dict[str, Any]:
    """The figure for a table of ``game`` with ``rules`` (its factory's ``describe()``)."""
    theory = theories().get(game)
    if theory is None:
        return {"method": "none", "status": "unavailable", "reason": f"no theory for {game!r}"}
    return theory.table_return(rules, book)
