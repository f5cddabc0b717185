"""``GET /api/games``: every game's descriptor (:mod:`.descriptor`: its title, its table
settings with their kinds, bounds and defaults, its theory, whether it has an advisor), what
the operator's console builds its forms from; ``GET /api/games/{game}/advice``: any game's
advisor the registry names (the client's Hint), also at the older path a game's descriptor
keeps (``advice_path``);
``GET /api/rounds/{id}/costs``: what each decision of a recalled round cost."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request

from croupier.errors import ConfigError
from croupier.server.deps import CurrentUser, RoundId, SessionDep
from croupier.server.errors import InvalidRequestError, NotFoundError

__all__ = ["router"]

router = APIRouter(tags=["tables"])


@router.get("/api/games")
def games() -> list[dict[str, Any]]:
    """Every game the server hosts, as its descriptor says (public: the rules of a game are
    no secret)."""
    from croupier.server.tables.registry import descriptors_json

    return descriptors_json()


@router.get("/api/rounds/{round_id}/costs")
def round_costs(round_id: RoundId, user: CurrentUser, session: SessionDep) -> dict[str, Any]:
    """What each of the caller's decisions in a recalled round cost against the best one
    (Antes and money), for the games whose registry entry values decisions (UTH on the
    default pay tables, Russian Poker, Caribbean Stud without a payout cap); ``costs`` is null
    for the others."""
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
    return _advise(game, request)


def _advise(game: str, request: Request) -> dict[str, Any]:
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


def _older_path(game: str) -> Callable[..., dict[str, Any]]:
    def advice(user: CurrentUser, request: Request) -> dict[str, Any]:
        return _advise(game, request)

    advice.__doc__ = f"The {game} advisor at its older path (``/api/games/{game}/advice``)."
    return advice


def _add_older_paths() -> None:
    from croupier.server.tables.registry import advice_paths

    for game, path in advice_paths().items():
        router.add_api_route(path, _older_path(game), methods=["GET"])


_add_older_paths()
