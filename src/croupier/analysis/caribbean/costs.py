"""What each decision of a Caribbean Stud round cost against the best one (issue 32).

Each box decides once, raise or fold, knowing its five cards and the dealer's up card. Both
options are valued exactly by :func:`.advisor.advise` (over the dealer's 163,185 possible
other four cards) under the table's Raise pay table and multiple; the cost is the better
option's EV minus the EV of the option taken, per Ante and in the round's money (the box's
Ante times the cost, rounded to the minor unit).

A folded hand also forfeits its progressive bet's prize (docs/rules.md "The progressive"):
for a box that folded a hand its progressive pays, the prize it gave up -- what the
progressive would have paid it in the same round, the other boxes as they played
(:func:`croupier.games.caribbean.rules.progressive_results`) -- is added to the fold's cost,
in money and in Antes. The progressive bet itself is lost either way and costs nothing.

A table with a payout cap (``max_payout``) is not valued: the advisor does not model it.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from croupier.analysis.caribbean.advisor import advise
from croupier.analysis.costs import CostOption, DecisionCost
from croupier.evaluator import category_of, evaluate_ids
from croupier.games.caribbean import CaribbeanRound
from croupier.games.caribbean.rules import progressive_results

__all__ = ["DecisionCost", "decision_costs"]


def _forfeited(rnd: CaribbeanRound, seat: int, folded: dict[int, bool]) -> int:
    """The progressive prize ``seat`` gives up by folding: its result staying minus its
    result folding, the other boxes as they played."""
    config = rnd.config
    if not rnd.box(seat).progressive or config.progressive_bet is None:
        return 0
    order = sorted((s for s in rnd.seats if rnd.box(s).progressive), reverse=True)
    categories = {s: category_of(evaluate_ids([c.id for c in rnd.hand(s)])) for s in order}

    def net(stayed: bool) -> int:
        boxes = [(s, categories[s], not stayed if s == seat else folded[s]) for s in order]
        paid, _ = progressive_results(
            boxes,
            bet=config.progressive_bet or 0,
            table=config.progressive_paytable,
            jackpot=rnd.jackpot,
        )
        return paid[seat].net

    return net(True) - net(False)


def decision_costs(rnd: CaribbeanRound, seats: Iterable[int]) -> list[DecisionCost] | None:
    """The cost of the decision of each of ``seats`` that decided in ``rnd`` (a round
    replayed from its record); ``None`` at a table with a payout cap. A round voided
    before the deal has no decisions (an empty list)."""
    config = rnd.config
    if config.max_payout is not None:
        return None
    upcard = rnd.upcard
    if upcard is None:
        return []
    folded = {s: rnd.box(s).folded for s in rnd.seats}
    out = []
    for seat in sorted(set(seats) & set(rnd.seats)):
        box = rnd.box(seat)
        if not box.decided:
            continue
        advice = advise(
            rnd.hand(seat), upcard, paytable=config.raise_paytable, multiple=config.raise_multiple
        )
        raised, fold = advice.options
        forfeited = _forfeited(rnd, seat, folded)
        # what a fold is worth, per Ante: the Ante lost and the prize given up with it
        fold_ev = fold.ev - Fraction(forfeited, box.ante)
        values = {"raise": raised.ev, "fold": fold_ev}
        taken = "fold" if box.folded else "raise"
        # an exact tie folds, as the advisor and the analysis do (risking less)
        best = "raise" if values["raise"] > values["fold"] else "fold"
        out.append(
            DecisionCost(
                box=seat,
                seat=seat,
                decision="raise_or_fold",
                taken=taken,
                taken_ev=values[taken],
                best=best,
                best_ev=values[best],
                ante=int(box.ante),
                taken_option=CostOption(taken),
                best_option=CostOption(best),
            )
        )
    return out
