"""What each decision of an Ultimate Texas Hold'em round cost against the best one.

Each seat's decisions in order (pre-flop, then the flop after a check, then the river after
two checks), valued by :func:`.advisor.advise` with the cards the seat saw then; the cost is
the best option's exact EV minus the EV of the option taken, per Ante and in money (the
seat's Ante times the cost, rounded to the minor unit). The default pay tables only (the
advisor's pre-flop table).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from croupier.analysis.costs import CostOption, DecisionCost
from croupier.analysis.uth.advisor import advise
from croupier.cards import Card
from croupier.errors import RecordError

__all__ = ["decision_costs"]

_STREETS = (("preflop", 0), ("flop", 3), ("river", 5))


def decision_costs(
    hole: Mapping[int, tuple[Card, ...]],
    board: tuple[Card, ...],
    actions: Iterable[tuple[int, str]],
    antes: Mapping[int, int],
) -> list[dict[str, Any]]:
    """The cost of every action of the seats in ``hole`` (``actions``: (seat, action) in
    the order taken, as a UTH record lists them; ``board``: the five community cards).

    Raises:
        RecordError: an action the seat could not take at that point.
    """
    street = dict.fromkeys(hole, 0)
    out = []
    for seat, action in actions:
        if seat not in hole:
            continue
        if street[seat] >= len(_STREETS):
            raise RecordError(f"seat {seat} acts after the river")
        name, shown = _STREETS[street[seat]]
        advice = advise(hole[seat], board[:shown] or None)
        options = {o.action: o.ev for o in advice.options}
        if action not in options:
            raise RecordError(f"{action!r} is not an option of seat {seat} at the {name}")
        best = max(advice.options, key=lambda o: o.ev)
        out.append(
            DecisionCost(
                box=seat,
                seat=seat,
                decision=name,
                taken=action,
                taken_ev=options[action],
                best=best.action,
                best_ev=best.ev,
                ante=antes.get(seat, 0),
                taken_option=CostOption(action),
                best_option=CostOption(best.action),
            ).to_json()
        )
        street[seat] = street[seat] + 1 if action == "check" else len(_STREETS)
    return out
