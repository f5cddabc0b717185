"""HTTP routes of the live return monitor: its streams and design, the alerts, the
investigations."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select

from croupier.server.deps import DB_ID_MAX, OperatorUser, SessionDep
from croupier.server.monitor import service
from croupier.server.monitor.models import RtpAlert, RtpStream

__all__ = ["router"]

router = APIRouter(prefix="/api/operator", tags=["monitor"])

AlertId = Annotated[int, Path(ge=1, le=DB_ID_MAX, description="an alert id")]


class Investigation(BaseModel):
    """An operator's investigation of an alert."""

    model_config = ConfigDict(extra="forbid")

    outcome: Literal["in_progress", "fault_found", "no_fault", "inconclusive"]
    note: str = Field(min_length=1, max_length=2000)


@router.get("/monitor")
def monitor(
    request: Request,
    operator: OperatorUser,
    session: SessionDep,
    table: Annotated[str | None, Query(max_length=64)] = None,
) -> dict[str, Any]:
    """Every stream (or ``table``'s) with its return, theory and evidence, and the design."""
    design = request.app.state.monitor_design
    query = select(RtpStream).order_by(RtpStream.table_name, RtpStream.kind, RtpStream.key)
    if table is not None:
        query = query.where(RtpStream.table_name == table)
    rows = session.scalars(query)
    return {
        "design": design,
        "streams": [service.stream_json(row, threshold=design["threshold"]) for row in rows],
        "open_alerts": session.query(RtpAlert).filter(RtpAlert.status == "open").count(),
        "process": _status(request),
    }


def _status(request: Request) -> dict[str, Any] | None:
    """The monitor's own process (whether it runs, its crashes), ``None`` when it is off."""
    status = getattr(request.app.state, "monitor_status", None)
    return None if status is None else status()


@router.get("/alerts")
def alerts(
    operator: OperatorUser,
    session: SessionDep,
    status: Annotated[Literal["open", "closed", "all"], Query()] = "open",
    table: Annotated[str | None, Query(max_length=64)] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> dict[str, Any]:
    """The monitor's alerts, newest first."""
    query = select(RtpAlert).order_by(RtpAlert.id.desc()).limit(limit)
    if status != "all":
        query = query.where(RtpAlert.status == status)
    if table is not None:
        query = query.where(RtpAlert.table_name == table)
    return {"alerts": [service.alert_json(a) for a in session.scalars(query)]}


@router.post("/alerts/{alert_id}/investigation")
def investigation(
    alert_id: AlertId, body: Investigation, operator: OperatorUser, session: SessionDep
) -> dict[str, Any]:
    """Record a note and what was found; any outcome but ``in_progress`` closes the alert."""
    alert = service.investigate(
        session, alert_id, by=operator.username, outcome=body.outcome, note=body.note
    )
    session.commit()
    return alert


@router.get("/integrity")
def integrity(request: Request, operator: OperatorUser) -> dict[str, Any]:
    """The last check of the installed files and the tables' pay tables (``croupier
    verify``): ``checked`` false where the check is off."""
    state: dict[str, Any] = dict(getattr(request.app.state, "integrity", {}) or {})
    state.setdefault("checked", False)
    return state
