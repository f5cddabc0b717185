"""What one seat may see of a Russian Poker round: :class:`RussianView`, built by
:meth:`croupier.games.russian.RussianRound.view`.

A seat sees its own open box's cards (a second open box's only once the first has decided,
docs/rules.md), its blind boxes' after the showdown, the dealer's once shown (or the upcard
where the table shows it), and never another seat's cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from croupier.cards import Card
from croupier.games.russian.box import Box, BoxView
from croupier.games.russian.phase import Phase

__all__ = ["RussianView", "round_view", "waits_for_earlier_box"]


@dataclass(frozen=True, slots=True, kw_only=True)
class RussianView:
    """What one seat may see of the round (``seat`` ``None``: a spectator)."""

    seat: int | None
    phase: Phase
    boxes: tuple[BoxView, ...]
    dealer: tuple[Card | None, ...]
    """The dealer's five cards, ``None`` for a card face down."""
    to_act: int | None


def round_view(
    seat: int | None,
    *,
    phase: Phase,
    boxes: Mapping[int, Box],
    dealer: tuple[Card, ...],
    upcard: bool,
    to_act: int | None,
) -> RussianView:
    """The projection of a round's ``boxes`` and ``dealer`` that ``seat`` may see."""
    settled = phase is Phase.SETTLED
    shown = settled or phase is Phase.BUYING
    views = []
    for index in sorted(boxes):
        b = boxes[index]
        own = seat is not None and b.seat == seat
        visible = own and (not b.blind or settled) and not waits_for_earlier_box(boxes, index)
        views.append(b.view(index, visible=visible, own=own))
    if not dealer:
        seen: tuple[Card | None, ...] = ()
    elif shown:
        seen = dealer
    elif upcard:
        seen = (None, None, None, None, dealer[-1])
    else:
        seen = (None,) * 5
    return RussianView(seat=seat, phase=phase, boxes=tuple(views), dealer=seen, to_act=to_act)


def waits_for_earlier_box(boxes: Mapping[int, Box], box: int) -> bool:
    """Whether an earlier open box of the same seat is still deciding: a player looks at
    a second open box only after deciding the first (docs/rules.md, Aragon, Corona)."""
    target = boxes[box]
    return not target.blind and any(
        index < box and b.seat == target.seat and not b.blind and b.undecided
        for index, b in boxes.items()
    )
