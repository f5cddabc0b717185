"""``GET /api/uth/advice``: the strategy advisor's exact EVs for a hand (the client's hint);
``GET /api/games/{game}/advice``: any game's advisor the registry names."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from croupier.errors import ConfigError
from croupier.server.deps import CurrentUser, RoundId, SessionDep
from croupier.server.errors import InvalidRequestError, NotFoundError

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


@router.get("/api/rounds/{round_id}/costs")
def round_costs(round_id: RoundId, user: CurrentUser, session: SessionDep) -> dict[str, Any]:
    """What each of the caller's decisions in a recalled round cost against the best one
    (Antes and money), for the games whose registry entry values decisions (UTH on the
    default pay tables, Russian Poker); ``costs`` is null for the others."""
    from croupier.server.rounds import store
    from croupier.server.tables.registry import decision_costs, recall_views

    recalled = store.recall(session, user=user, round_id=round_id, views=recall_views())
    seats = {p["seat"] for p in recalled.players if p["user_id"] == user.id}
    record = recalled.record if isinstance(recalled.record, dict) else None
    valued = decision_costs().get(recalled.game)
    costs = None
    try:
        if record is not None and valued is not None:
            costs = valued(record, seats)
    except ConfigError:
        costs = None  # rules the exact advisor does not cover
    return {"round_id": round_id, "game": recalled.game, "costs": costs}


@router.get("/api/games/{game}/advice")
def game_advice(user: CurrentUser, game: str, request: Request) -> dict[str, Any]:
    """The game's strategy advisor (its Hint) from the registry: the query's fields (at
    most 8, each at most 64 characters) to the exact EV of each option, best first."""
    from croupier.server.tables.registry import advisors

    known = advisors()
    advisor = known.get(game)
    if advisor is None:
        raise NotFoundError(
            f"the game {game[:32]!r} has no advisor",
            reason="game_unknown",
            params={"game": game[:32], "games": sorted(known)},
        )
    query = request.query_params
    if len(query) > 8 or any(len(v) > 64 for v in query.values()):
        raise InvalidRequestError(
            "too many or too long query fields", reason="field_invalid", params={"field": "query"}
        )
    return advisor(dict(query))
