"""Operations endpoints: ``/healthz`` for load balancers and orchestrators, ``/metrics`` for
Prometheus. Neither needs a login; neither says anything secret (put ``/metrics`` behind the
proxy's own access rules if its counts should stay private, or set
``CROUPIER_METRICS_ENABLED=false``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from sqlalchemy import text

from croupier.server.metrics import CONTENT_TYPE_LATEST

__all__ = ["router"]

router = APIRouter(tags=["meta"])


def _database_ok(request: Request) -> str | None:
    db = getattr(request.app.state, "db", None)
    if db is None:
        return "database: not opened"
    try:
        with db.engine.connect() as connection:
            connection.execute(text("SELECT 1"))
    except Exception as exc:  # any driver error: unreachable, refused, timed out
        return f"database: unreachable ({type(exc).__name__})"
    return None


@router.get("/healthz")
def healthz(request: Request) -> JSONResponse:
    """200 when the database answers and every open table's task runs; 503 naming what
    failed otherwise."""
    failed: list[str] = []
    problem = _database_ok(request)
    if problem:
        failed.append(problem)
    manager = getattr(request.app.state, "tables", None)
    tables: dict[str, Any] = {}
    if manager is None:
        failed.append("tables: not started")
    else:
        for name, alive in manager.running().items():
            tables[name] = "running" if alive else "stopped"
            if not alive:
                failed.append(f"table {name}: stopped")
    node = getattr(request.app.state, "node", None)
    if node is not None:
        # A cluster's process (issue 18): every table, run here or by whichever process
        # holds its lease (a process owning none is still a healthy gateway).
        for name in manager.openable() if manager is not None else ():
            tables.setdefault(name, "elsewhere")
    body = {
        "status": "ok" if not failed else "failing",
        "database": "ok" if problem is None else "unreachable",
        "tables": tables,
        "failed": failed,
    }
    return JSONResponse(body, status_code=200 if not failed else 503)


@router.get("/metrics", include_in_schema=False)
def metrics(request: Request) -> Response:
    """The Prometheus text format."""
    settings = request.app.state.settings
    if not settings.metrics_enabled:
        return Response("metrics are disabled\n", status_code=404, media_type="text/plain")
    return Response(request.app.state.metrics.render(), media_type=CONTENT_TYPE_LATEST)
