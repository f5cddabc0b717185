"""Where each card of a Caribbean Stud round comes from in the deck: the dealing order as data.

The server commits to the deck order before the deal and reveals it after the round; with
the table's ``dealing`` and the number of boxes, :func:`deal_plan` says which deck position
(0 = the top card) went where, so a player can check every card. The engine deals by this
plan, so the documentation and the deal cannot disagree. The dealer's up card is the last
card the dealer is dealt.

>>> plan = deal_plan(Dealing.ONE_AT_A_TIME, boxes=2)
>>> plan.hands, plan.dealer, plan.size
(((0, 3, 6, 9, 12), (1, 4, 7, 10, 13)), (2, 5, 8, 11, 14), 15)
>>> deal_plan(Dealing.HANDS, boxes=2).dealer
(10, 11, 12, 13, 14)
"""

from __future__ import annotations

from dataclasses import dataclass

from croupier.games.caribbean.config import Dealing

__all__ = ["DealPlan", "deal_plan"]


@dataclass(frozen=True, slots=True, kw_only=True)
class DealPlan:
    """Deck positions of a round's cards, for the boxes in dealing order (left to right)."""

    hands: tuple[tuple[int, ...], ...]
    dealer: tuple[int, ...]
    """The dealer's five, in the order dealt; the last is turned face up."""

    @property
    def size(self) -> int:
        """How many cards the round takes from the deck."""
        return 5 * (len(self.hands) + 1)


def deal_plan(dealing: Dealing, *, boxes: int) -> DealPlan:
    """The deck positions of every card for ``boxes`` boxes (docs/rules.md)."""
    if dealing is Dealing.ONE_AT_A_TIME:
        # one card to each box left to right, the dealer last; five times round
        width = boxes + 1
        return DealPlan(
            hands=tuple(tuple(k * width + i for k in range(5)) for i in range(boxes)),
            dealer=tuple(k * width + boxes for k in range(5)),
        )
    return DealPlan(
        hands=tuple(tuple(range(5 * i, 5 * i + 5)) for i in range(boxes)),
        dealer=tuple(range(5 * boxes, 5 * boxes + 5)),
    )
