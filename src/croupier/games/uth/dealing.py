"""Where each card of a UTH round comes from in the deck: the dealing order as data.

The server commits to the deck order before the deal and reveals it after the round; with
the table's ``dealing`` setting and the number of hands dealt, :func:`deal_plan` says which
deck position (0 = the top card) went to which place, so a player can check every card
(docs/protocol.md "Fairness"). The engine deals by this plan, so the documentation and the
deal cannot disagree.

>>> plan = deal_plan(Dealing.SEED003, hands=2)
>>> plan.hands, plan.dealer, plan.burn, plan.board
(((0, 3), (1, 4)), (2, 5), 6, (7, 8, 9, 10, 11))
>>> plan = deal_plan(Dealing.SEED000, hands=2)
>>> plan.board, plan.hands, plan.dealer, plan.burn
((0, 1, 2, 3, 4), ((5, 6), (7, 8)), (9, 10), None)
"""

from __future__ import annotations

from dataclasses import dataclass

from croupier.games.uth.config import Dealing

__all__ = ["DealPlan", "deal_plan"]


@dataclass(frozen=True, slots=True, kw_only=True)
class DealPlan:
    """Deck positions of a round's cards, for ``hands`` player hands in dealing order."""

    hands: tuple[tuple[int, int], ...]
    """Each hand's two cards (boxes left to right; a live table's one shared hand)."""
    dealer: tuple[int, int]
    burn: int | None
    """The card burnt before the flop (``None``: no burn)."""
    board: tuple[int, int, int, int, int]
    """Flop (3), turn, river."""

    @property
    def size(self) -> int:
        """How many cards the round takes from the deck."""
        return 2 * len(self.hands) + 2 + 5 + (self.burn is not None)


def deal_plan(dealing: Dealing, *, hands: int) -> DealPlan:
    """The deck positions of every card for ``hands`` player hands (docs/rules.md).

    ``seed003`` (spec/uth.md "Dealing and decisions", seed 003): one card to each hand left
    to right, one to the dealer, then a second round the same way; a burn; the flop; the
    turn and river. ``seed000`` (seed 000): the five community cards first, then two cards
    to each hand left to right, the dealer's two last; no burn.
    """
    n = hands
    if dealing is Dealing.SEED003:
        first = 2 * n + 2
        return DealPlan(
            hands=tuple((i, n + 1 + i) for i in range(n)),
            dealer=(n, 2 * n + 1),
            burn=first,
            board=(first + 1, first + 2, first + 3, first + 4, first + 5),
        )
    return DealPlan(
        board=(0, 1, 2, 3, 4),
        hands=tuple((5 + 2 * i, 6 + 2 * i) for i in range(n)),
        dealer=(5 + 2 * n, 6 + 2 * n),
        burn=None,
    )
