"""``GET /api/operator/events``: the significant events, filtered, as JSON or CSV."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from fastapi.responses import PlainTextResponse

from croupier.server.deps import DB_ID_MAX, OperatorUser, SessionDep
from croupier.server.errors import InvalidRequestError
from croupier.server.significant import service
from croupier.server.significant.kinds import Kind

__all__ = ["router"]

router = APIRouter(prefix="/api/operator/events", tags=["events"])


def _moment(value: str | None, name: str) -> dt.datetime | None:
    """A day (``YYYY-MM-DD``, its start) or an ISO 8601 time; UTC unless it says."""
    if value is None or value == "":
        return None
    try:
        moment = dt.datetime.fromisoformat(value)
    except ValueError:
        raise InvalidRequestError(
            f"{name}: {value!r} is not a day (YYYY-MM-DD) or an ISO 8601 time",
            reason="event_time_invalid",
            params={"field": name},
        ) from None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=dt.UTC)


@router.get("", response_model=None)
def events(
    operator: OperatorUser,
    session: SessionDep,
    kind: Annotated[
        list[str], Query(description=f"Kinds (repeat or comma-separate): {', '.join(Kind)}")
    ] = [],  # noqa: B006 - FastAPI copies a query default
    table: Annotated[str | None, Query(max_length=64, pattern=r"^[a-z0-9][a-z0-9-]*$")] = None,
    since: Annotated[str | None, Query(max_length=40, description="From this day or time.")] = None,
    until: Annotated[
        str | None, Query(max_length=40, description="Before this day or time.")
    ] = None,
    before: Annotated[
        int | None, Query(ge=1, le=DB_ID_MAX, description="Older than this seq.")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    format: Annotated[Literal["json", "csv"], Query()] = "json",
) -> dict[str, Any] | PlainTextResponse:
    """Significant events newest first (each an audit log entry, hash-chained); ``next`` is
    the ``before`` of the following page. ``format=csv`` answers the page as CSV."""
    start, end = _moment(since, "since"), _moment(until, "until")
    if start is not None and end is not None and start >= end:
        raise InvalidRequestError(
            f"since {since} is not before until {until}",
            reason="event_time_order",
            params={"since": since, "until": until},
        )
    page = service.search(
        session,
        kinds=service.parse_kinds(kind),
        table=table,
        since=start,
        until=end,
        before=before,
        limit=limit,
    )
    if format == "csv":
        return PlainTextResponse(
            service.to_csv(page.events),
            media_type="text/csv",
            headers={"Content-Disposition": 'attachment; filename="significant-events.csv"'},
        )
    return {
        "events": [e.to_json() for e in page.events],
        "next": page.next,
        "kinds": [k.value for k in Kind],
    }
