"""``GET /api/uth/advice``: the strategy advisor's exact EVs for a hand (the client's hint)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from croupier.server.deps import CurrentUser, RoundId, SessionDep

__all__ = ["router"]

router = APIRouter(tags=["tables"])

Cards = Annotated[str, Query(max_length=32, pattern=r"^[2-9TJQKAtjqkacdhs ]*$")]


@router.get("/api/uth/advice")
def uth_advice(user: CurrentUser, hole: Cards, board: Cards = "") -> dict[str, Any]:
    """The exact EV per unit Ante of each legal option (default pay tables), best first.

    ``hole`` is two cards (``AsKd``); ``board`` none, the flop, or all five.
    """
    from croupier.analysis.uth.advisor import advise

    advice = advise(hole, board=board or None)
    options = sorted(advice.options, key=lambda o: o.ev, reverse=True)
    return {
        "street": advice.street,
        "best": advice.best,
        "options": [
            {"action": o.action, "ev": float(o.ev), "ev_exact": str(o.ev)} for o in options
        ],
    }


@router.get("/api/russian/advice")
def russian_advice(
    user: CurrentUser, hand: Cards, seen: Cards = "", dealer: Cards = ""
) -> dict[str, Any]:
    """The exact EV per Ante of each legal option at a Russian Poker decision (the spec's
    default rules), best first: the first decision for five cards with nothing ``seen``;
    the Bet with the final cards and the discards ``seen``; buying when the ``dealer``'s
    hand is given. See :mod:`croupier.analysis.russian.advisor`."""
    from croupier.analysis.russian.advisor import advice_json

    return advice_json(hand, seen=seen, dealer=dealer)


@router.get("/api/rounds/{round_id}/costs")
def round_costs(round_id: RoundId, user: CurrentUser, session: SessionDep) -> dict[str, Any]:
    """What each decision of a recalled round cost against the best one (Antes and money),
    for the games whose exact advisor exists (Russian Poker); the round as ``GET
    /api/rounds/{id}`` lets the caller see it."""
    from croupier.analysis.russian.costs import decision_costs
    from croupier.server.tables import rounds
    from croupier.server.tables.registry import recall_views

    recalled = rounds.recall(session, user=user, round_id=round_id, views=recall_views())
    record = recalled.record
    if recalled.game != "russian" or not isinstance(record, dict):
        return {"round_id": round_id, "game": recalled.game, "costs": None}
    costs = [c.to_json() for c in decision_costs(record)]
    return {"round_id": round_id, "game": recalled.game, "costs": costs}
