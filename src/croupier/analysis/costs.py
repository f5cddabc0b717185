"""One decision of a round valued against the best one (issue 32): the record every game's
decision costs share (``GET /api/rounds/{id}/costs``).

Each option is named twice: by its English label (``exchange 7h 2d``, ``bet + insurance 3``,
kept for the clients that read it) and by a :class:`CostOption`, the action with its cards
and its insurance, which a client words in the player's language.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

__all__ = ["CostOption", "DecisionCost"]


@dataclass(frozen=True, slots=True)
class CostOption:
    """One option of a decision, as data: what a client words in the player's language."""

    action: str
    """The game's action (``check``, ``4x``, ``raise``, ``fold``, ``exchange``, ``bet``,
    ``sixth_card``, ``buy``, ``decline``...)."""
    cards: tuple[str, ...] = ()
    """The cards it names: those an exchange gives up, in the label's order."""
    insurance: int = 0
    """The insurance a Bet places (minor units; 0 for none)."""

    def __post_init__(self) -> None:
        if not self.action:
            raise ValueError("an option needs an action")
        if self.insurance < 0:
            raise ValueError(f"insurance must not be negative, got {self.insurance}")

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action, "cards": list(self.cards), "insurance": self.insurance}


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
    taken_option: CostOption
    """The option taken, as data (``taken`` is its English label)."""
    best_option: CostOption

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
            "taken_option": self.taken_option.to_json(),
            "taken_ev": float(self.taken_ev),
            "best": self.best,
            "best_option": self.best_option.to_json(),
            "best_ev": float(self.best_ev),
            "cost": float(self.cost),
            "cost_exact": str(self.cost),
            "cost_money": self.cost_money,
        }
