"""Russian Poker's ``bet`` on the wire: its spots, decoded strictly once a table's game is
known (:func:`croupier.server.tables.wire.read_spots`)."""

from __future__ import annotations

from typing import Annotated, ClassVar

from msgspec import UNSET, Meta, UnsetType

from croupier.server.tables.wire import Spots, Stake

__all__ = ["RussianSpots"]

_Count = Annotated[int, Meta(ge=0, le=100, description="a number of boxes, not money")]


class RussianSpots(Spots, frozen=True, kw_only=True):
    """Russian Poker's spots (spec/russian.md "Table"): the Ante and Bonus of the open box
    (``open_boxes`` of them where the table allows more than one, each with the same Ante and
    Bonus), ``blind_boxes`` blind boxes with the same Ante (their Bet of 2x Ante placed with
    it) and Bonus ``blind_bonus``; where the table's options allow, ``blind_insurance`` on
    every blind box and ``blind_sixth`` 1 to buy each blind box its sixth card in advance."""

    game: ClassVar[str] = "russian poker"
    choices: ClassVar[frozenset[str]] = frozenset({"blind_sixth"})

    ante: Stake | UnsetType = UNSET
    bonus: Stake = 0
    open_boxes: _Count = 1
    blind_boxes: _Count = 0
    blind_bonus: Stake = 0
    blind_insurance: Stake = 0
    blind_sixth: Annotated[int, Meta(ge=0, le=1, description="1: buy the sixth cards")] = 0
