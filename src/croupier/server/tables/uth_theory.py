"""UTH's figures in the server's theory cache (:class:`croupier.server.reports.theory.TheoryBook`):
the exact analysis for a table's Blind pay table (Trips moments follow from the same outcomes
for any Trips table at once). The spec's Blind table ships with the package; any other takes
a full exact run (15-60 s on two cores), which the book runs in its worker process."""

from __future__ import annotations

import functools
from typing import Any, Protocol

from croupier.analysis.uth.moments import (
    UthOutcomes,
    blind_key,
    exact_outcomes,
    load_default_outcomes,
)
from croupier.analysis.uth.paytables import PayTable
from croupier.errors import CroupierError
from croupier.server.rounds.theory import TheoryLookup

__all__ = ["blind_lookup"]


class _Book(Protocol):
    def lookup(self, key: Any, compute: Any) -> TheoryLookup: ...


@functools.cache
def _default() -> UthOutcomes:
    return load_default_outcomes()


def blind_lookup(book: _Book, blind: PayTable) -> TheoryLookup:
    """The exact outcomes for ``blind`` (:class:`UthOutcomes` in ``outcomes`` when
    ``ready``); starts computing them in ``book`` if nobody has yet, ``unavailable`` with the
    reason for a table the analysis refuses."""
    try:
        key = blind_key(blind)
    except CroupierError as exc:
        return TheoryLookup("unavailable", reason=str(exc))
    default = _default()
    if key == default.blind:
        return TheoryLookup("ready", default)
    return book.lookup(key, exact_outcomes)
