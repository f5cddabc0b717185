"""Russian Poker's ``bet`` on the wire: its spots, decoded strictly once a table's game is
known (:func:`croupier.server.tables.wire.read_spots`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, ClassVar

from msgspec import UNSET, Meta, UnsetType

from croupier.games.russian import PlaceBox
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

    @property
    def count(self) -> int:
        """The boxes the bet places, open and blind."""
        return self.open_boxes + self.blind_boxes

    def boxes(self, seat: int, where: Sequence[int]) -> list[PlaceBox]:
        """The bet as the engine's boxes on the layout's boxes ``where`` (:attr:`count` of
        them): its open boxes (the Ante and Bonus), then its blind boxes (the Ante, Bonus
        ``blind_bonus``, the insurance and the sixth card). The Ante must have been given."""
        assert self.ante is not UNSET, "a bet without an Ante places no box"
        ante, opens = self.ante, self.open_boxes
        return [
            PlaceBox(seat=seat, box=box, ante=ante, bonus=self.bonus) for box in where[:opens]
        ] + [
            PlaceBox(
                seat=seat,
                box=box,
                ante=ante,
                bonus=self.blind_bonus,
                blind=True,
                insurance=self.blind_insurance,
                sixth_card=bool(self.blind_sixth),
            )
            for box in where[opens : self.count]
        ]
