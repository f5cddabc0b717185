"""The WebSocket endpoint of the tables, the lobby and round recall."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, WebSocket, WebSocketDisconnect

from croupier.errors import CroupierError
from croupier.server.accounts.service import user_for_token
from croupier.server.deps import CurrentUser, OperatorUser, SessionDep, TableManagerDep
from croupier.server.errors import InvalidRequestError, NotFoundError, error_frame
from croupier.server.metrics import Metrics
from croupier.server.tables import rounds
from croupier.server.tables.connection import Connection, SharedFrame
from croupier.server.tables.manager import TableManager
from croupier.server.tables.protocol import parse_client_message, ref_of
from croupier.server.tables.stats import operator_stats

__all__ = ["router"]

router = APIRouter(tags=["tables"])

# Close codes (application range 4000-4999), mirroring the HTTP statuses.
CLOSE_UNAUTHENTICATED = 4401
CLOSE_NOT_FOUND = 4404


@router.get("/api/tables")
def lobby(tables: TableManagerDep) -> list[dict[str, Any]]:
    """Every table: game, limits, timers, seats taken; unavailable ones say why."""
    return tables.lobby()


@router.get("/api/rounds")
def my_rounds(
    user: CurrentUser,
    session: SessionDep,
    limit: Annotated[int, Query(ge=1, le=10)] = 10,
) -> list[dict[str, Any]]:
    """The caller's last rounds (at most 10), deck revealed, newest first."""
    return [r.to_json() for r in rounds.recent_rounds(session, user=user, limit=limit)]


@router.get("/api/rounds/{round_id}")
def recall_round(
    round_id: Annotated[int, Path(ge=1)], user: CurrentUser, session: SessionDep
) -> dict[str, Any]:
    """One round: a player one of their last 10, an operator any."""
    return rounds.recall(session, user=user, round_id=round_id).to_json()


@router.get("/api/operator/stats")
def stats(operator: OperatorUser, session: SessionDep) -> dict[str, list[dict[str, Any]]]:
    """Per table and per game: rounds, voids, wagered, GGR, actual and theoretical return."""
    return operator_stats(session)


async def _pump(websocket: WebSocket, conn: Connection, sent: Any) -> None:
    while True:
        frame = await conn.outbox.get()
        if frame is None:
            with contextlib.suppress(Exception):
                await websocket.close()
            return
        if isinstance(frame, SharedFrame):
            await websocket.send_text(frame.text)
        else:
            await websocket.send_json(frame)
        sent.inc()


@router.websocket("/ws/tables/{name}")
async def table_socket(websocket: WebSocket, name: str, token: str = "") -> None:
    """One seat's (or spectator's) connection to a table; see docs/protocol.md."""
    manager: TableManager = websocket.app.state.tables
    db = websocket.app.state.db
    secret = websocket.app.state.settings.secret_key.get_secret_value()
    await websocket.accept()
    try:
        table = manager.get(name)

        def who() -> tuple[int, str]:
            with db.session() as session:
                user = user_for_token(session, token=token, secret=secret)
                return user.id, user.username

        user_id, username = await asyncio.to_thread(who)
    except CroupierError as exc:
        await websocket.send_json(error_frame(exc))
        code = CLOSE_NOT_FOUND if isinstance(exc, NotFoundError) else CLOSE_UNAUTHENTICATED
        await websocket.close(code=code)
        return
    metrics: Metrics = websocket.app.state.metrics
    conn = table.connect(user_id=user_id, username=username)
    sockets = metrics.sockets.labels(table=name)
    sockets.inc()
    writer = asyncio.create_task(_pump(websocket, conn, metrics.frames.labels(table=name)))
    try:
        while not conn.closed:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            raw = message.get("text")
            if raw is None:
                raw = message.get("bytes") or b""
            try:
                parsed = parse_client_message(raw)
            except InvalidRequestError as exc:
                conn.send(error_frame(exc, ref=ref_of(raw)))
                continue
            started = time.perf_counter()
            await table.submit(conn, parsed)
            latency = time.perf_counter() - started
            metrics.ack_latency.labels(type=parsed.type).observe(latency)
    except WebSocketDisconnect:
        pass
    finally:
        sockets.dec()
        table.disconnect(conn)
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(writer, timeout=5)
