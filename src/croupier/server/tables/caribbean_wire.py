"""Caribbean Stud's ``bet`` on the wire: its spots, decoded strictly once a table's game is
known (:func:`croupier.server.tables.wire.read_spots`)."""

from __future__ import annotations

from typing import Annotated, ClassVar

from msgspec import UNSET, Meta, UnsetType

from croupier.server.tables.wire import Spots, Stake

__all__ = ["CaribbeanSpots"]


class CaribbeanSpots(Spots, frozen=True, kw_only=True):
    """Caribbean Stud's spots: the Ante, and ``progressive`` 1 for the progressive side bet
    (the table's one amount, docs/rules.md). A seat that has bet may send only
    ``{"progressive": 1}`` to add the side bet in the same betting window."""

    game: ClassVar[str] = "Caribbean Stud"
    choices: ClassVar[frozenset[str]] = frozenset({"progressive"})

    ante: Stake | UnsetType = UNSET
    progressive: Annotated[int, Meta(ge=0, le=1, description="1: the progressive bet")] = 0
