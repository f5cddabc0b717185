"""UTH's ``bet`` on the wire: its spots, decoded strictly once a table's game is known
(:func:`croupier.server.tables.wire.read_spots`)."""

from __future__ import annotations

from typing import ClassVar

from msgspec import UNSET, UnsetType

from croupier.server.tables.wire import Spots, Stake

__all__ = ["UthSpots"]


class UthSpots(Spots, frozen=True, kw_only=True):
    """UTH's spots (spec/uth.md "Betting"): the Ante, the Blind placed with it (equal to it;
    it may be left out) and the optional Trips. Once a seat's Ante is accepted, a ``bet``
    with only ``trips`` adds Trips in the same betting window (seed 001)."""

    game: ClassVar[str] = "UTH"

    ante: Stake | UnsetType = UNSET
    blind: Stake | UnsetType = UNSET
    trips: Stake | UnsetType = UNSET

    @property
    def trips_only(self) -> bool:
        """Only Trips sent: Trips added by a seat that has bet."""
        return self.ante is UNSET and self.blind is UNSET and self.trips is not UNSET
