"""HTTP routes of the operator's reports, and the theory cache the server starts with."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal, Protocol

from fastapi import APIRouter, Query, Request
from fastapi.responses import PlainTextResponse

from croupier.errors import CroupierError
from croupier.server.base import utcnow
from croupier.server.deps import OperatorUser, SessionDep
from croupier.server.reports import daily, rng
from croupier.server.reports.theory import TheoryBook
from croupier.server.rounds.theory import GameTheory

__all__ = ["router", "start_theory"]

router = APIRouter(prefix="/api/operator/reports", tags=["reports"])


class _Table(Protocol):
    """What the theory cache needs of a table's configuration."""

    @property
    def game(self) -> str: ...

    @property
    def rules(self) -> Mapping[str, Any]: ...


def start_theory(configs: Sequence[_Table], games: Mapping[str, GameTheory]) -> TheoryBook:
    """A theory cache already computing what every table's game needs (UTH: the figures of
    each table's Blind pay table); ``games``: each game's theory by name (the app hands over
    the tables' registry)."""
    book = TheoryBook()
    for config in configs:
        theory = games.get(config.game)
        if theory is not None:
            theory.warm(config.rules, book)
    return book


@router.get("/daily", response_model=None)
def daily_report(
    request: Request,
    operator: OperatorUser,
    session: SessionDep,
    date: Annotated[str, Query(description="The UTC day, YYYY-MM-DD.")],
    format: Annotated[Literal["json", "csv"], Query()] = "json",
) -> dict[str, Any] | PlainTextResponse:
    """Per table: rounds, players, wagered, paid, GGR, hold, and the return against theory
    (``theory.status`` is ``computing`` while the exact analysis of a pay table runs)."""
    day = daily.parse_day(date, today=utcnow().date())
    state = request.app.state
    rules = {c.name: c.rules for c in getattr(state, "table_configs", ())}
    rows = daily.daily_report(
        session, day=day, book=state.theory, games=state.game_theories, rules=rules
    )
    if format == "csv":
        return PlainTextResponse(
            daily.to_csv(rows),
            media_type="text/csv",
            headers={"Content-Disposition": f'attachment; filename="daily-{day}.csv"'},
        )
    return daily.to_json(rows, day=day)


@router.get("/rng")
def rng_audit(
    operator: OperatorUser,
    session: SessionDep,
    since: Annotated[str | None, Query(description="Rounds from this UTC day.")] = None,
    until: Annotated[str | None, Query(description="Rounds before this UTC day.")] = None,
    table: Annotated[str | None, Query(max_length=64)] = None,
    game: Annotated[str | None, Query(max_length=16)] = None,
) -> dict[str, Any]:
    """The RNG battery over the closed rounds' decks, as ``croupier rng audit --json``; a
    failure is recorded as a significant event."""
    today = utcnow().date()

    def moment(value: str | None, name: str) -> dt.datetime | None:
        if value is None:
            return None
        try:
            day = daily.parse_day(value, today=today + dt.timedelta(days=1))
        except CroupierError as exc:
            raise type(exc)(f"{name}: {exc}") from None
        return dt.datetime.combine(day, dt.time(), tzinfo=dt.UTC)

    report = rng.audit_json(
        session,
        since=moment(since, "since"),
        until=moment(until, "until"),
        table=table,
        game=game,
    )
    scope = {"since": since, "until": until, "table": table, "game": game}
    if rng.record_failure(session, report, actor=operator.username, scope=scope):
        session.commit()
    return report
