"""One decision of a round valued against the best one (issue 32): the record every game's
decision costs share (``GET /api/rounds/{id}/costs``)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

__all__ = ["DecisionCost"]


@dataclass(frozen=True, slots=True)
class DecisionCost:
    """One decision of one box, valued."""

    box: int
    seat: int
    decision: str
    """Which decision of the round (a game's own word: ``first``, ``bet``, ``raise_or_fold``)."""
    taken: str
    """The option taken."""
    taken_ev: Fraction
    """Its exact value per Ante."""
    best: str
    best_ev: Fraction
    ante: int
    """The box's Ante (minor units)."""

    @property
    def cost(self) -> Fraction:
        """Antes lost against the best option (0 when the best was taken)."""
        return self.best_ev - self.taken_ev

    @property
    def cost_money(self) -> int:
        """The cost in the round's money (minor units)."""
        return round(self.cost * self.ante)

    def to_json(self) -> dict[str, Any]:
        return {
            "box": self.box,
            "seat": self.seat,
            "decision": self.decision,
            "taken": self.taken,
            "taken_ev": float(self.taken_ev),
            "best": self.best,
            "best_ev": float(self.best_ev),
            "cost": float(self.cost),
            "cost_exact": str(self.cost),
            "cost_money": self.cost_money,
        }
