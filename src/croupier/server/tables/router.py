"""The WebSocket endpoint of the tables, the lobby and round recall."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, WebSocket, WebSocketDisconnect

from croupier.errors import CroupierError
from croupier.server.accounts.service import session_for_token
from croupier.server.accounts.sessions import LiveSession, LiveSessions
from croupier.server.cluster.access import TableAccess
from croupier.server.deps import (
    DB_ID_MAX,
    CurrentUser,
    OperatorUser,
    RoundId,
    SessionDep,
    TableManagerDep,
)
from croupier.server.errors import AuthenticationError, InvalidRequestError, NotFoundError
from croupier.server.floor.returns import theoretical_return
from croupier.server.metrics import Metrics
from croupier.server.rounds import store as rounds
from croupier.server.tables.connection import Connection
from croupier.server.tables.help import player_help
from croupier.server.tables.ratelimit import RateLimiter
from croupier.server.tables.registry import recall_views
from croupier.server.tables.stats import operator_stats
from croupier.server.tables.wire import (
    ClientMessage,
    Shared,
    encode,
    error_frame,
    parse_auth_message,
    parse_client_message,
    ref_of,
)

__all__ = ["router"]

router = APIRouter(tags=["tables"])

# Close codes (application range 4000-4999), mirroring the HTTP statuses.
CLOSE_UNAUTHENTICATED = 4401
CLOSE_NOT_FOUND = 4404
CLOSE_RATE_LIMITED = 4429
CLOSE_UNAVAILABLE = 4503


@router.get("/api/tables")
def lobby(tables: TableManagerDep) -> list[dict[str, Any]]:
    """Every table: game, limits, timers, seats taken; unavailable ones say why."""
    return tables.lobby()


@router.get("/api/tables/{name}/help")
def table_help(name: str, request: Request, tables: TableManagerDep) -> dict[str, Any]:
    """What a player's help panel shows of a table: the return to player of the table's own
    pay tables as the server's theory has it (UTH exact; Russian Poker the analysed figure
    with its interval; Hold'em the rake) and the version of the game's software."""
    entry = next((t for t in tables.lobby() if t["name"] == name), None)
    if entry is None:
        raise NotFoundError(f"table {name!r} does not exist", reason="table_not_found")
    figures = theoretical_return(
        entry["game"], entry.get("rules") or {}, book=request.app.state.theory
    )
    return player_help(entry, figures)


@router.websocket("/ws/lobby")
async def lobby_socket(websocket: WebSocket) -> None:
    """The lobby's push: ``{"type": "table_changed", "table": <lobby entry>}`` each time an
    operator changes a table (limits, pay tables, closed or opened). Public, like the lobby;
    anything the client sends is ignored."""
    tables = websocket.app.state.tables
    await websocket.accept()
    changes: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=256)
    tables.lobby_watchers.add(changes)

    async def push() -> None:
        while True:
            entry = await changes.get()
            await websocket.send_text(json.dumps({"type": "table_changed", "table": entry}))

    writer = asyncio.create_task(push())
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
    except WebSocketDisconnect:
        return
    finally:
        tables.lobby_watchers.discard(changes)
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer


@router.get("/api/rounds")
def my_rounds(
    user: CurrentUser,
    session: SessionDep,
    limit: Annotated[int, Query(ge=1, le=10)] = 10,
    before: Annotated[int | None, Query(ge=1, le=DB_ID_MAX)] = None,
) -> list[dict[str, Any]]:
    """The caller's own rounds, at most 10, deck revealed, newest first; ``before`` (a round
    id) pages back through older ones. A player sees only their own rows."""
    found = rounds.recent_rounds(
        session, user=user, views=recall_views(), limit=limit, before=before
    )
    return [r.to_json() for r in found]


@router.get("/api/rounds/{round_id}")
def recall_round(round_id: RoundId, user: CurrentUser, session: SessionDep) -> dict[str, Any]:
    """One round: a player one of their last 10, an operator any."""
    return rounds.recall(session, user=user, round_id=round_id, views=recall_views()).to_json()


@router.get("/api/operator/stats")
def stats(operator: OperatorUser, session: SessionDep) -> dict[str, list[dict[str, Any]]]:
    """Per table and per game: rounds, voids, wagered, GGR, actual and theoretical return."""
    return operator_stats(session)


BATCH_MOST = 64
"""The most frames one message of a batching socket carries."""


async def _pump(websocket: WebSocket, conn: Connection, sent: Any, *, batch: bool) -> None:
    """Write the socket's frames as they come. A socket that asked for ``batch`` gets the
    frames already waiting sent together, as one JSON array of frames: a live table's burst
    (betting closed, cards dealt, decisions open...) is one message and one write, not six.
    Each frame's text is joined as it was encoded (once per audience), never re-encoded."""
    outbox = conn.outbox
    while True:
        frame = await outbox.get()
        texts: list[str] = []
        while frame is not None:
            texts.append(frame.text if isinstance(frame, Shared) else encode(frame))
            if not batch or len(texts) >= BATCH_MOST or outbox.empty():
                break
            frame = outbox.get_nowait()
        if texts:
            if len(texts) == 1:
                await websocket.send_text(texts[0])
            else:
                await websocket.send_text("[" + ",".join(texts) + "]")
            sent.inc(len(texts))
        if frame is None:
            with contextlib.suppress(Exception):
                await websocket.close(code=conn.close_code)
            return


async def _refuse(websocket: WebSocket, exc: CroupierError, code: int) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_text(encode(error_frame(exc)))
        await websocket.close(code=code)


def _text(message: Mapping[str, Any]) -> str | bytes:
    raw: str | bytes | None = message.get("text")
    return raw if raw is not None else message.get("bytes") or b""


async def _authenticate(websocket: WebSocket) -> tuple[int, str, str, Any, bool] | None:
    """Read the socket's first frame, ``{"type": "auth", "token": ...}``, within
    ``ws_auth_seconds``; return (user id, username, token hash, expiry, whether frames are to
    be batched), or ``None`` once the socket has been refused and closed."""
    settings = websocket.app.state.settings
    db = websocket.app.state.db
    secret = settings.secret_key.get_secret_value()
    try:
        message = await asyncio.wait_for(websocket.receive(), timeout=settings.ws_auth_seconds)
    except TimeoutError:
        await _refuse(
            websocket,
            AuthenticationError(
                f"no auth frame within {settings.ws_auth_seconds:g} s: send "
                "{'type': 'auth', 'token': ...} first",
                reason="session_missing",
            ),
            CLOSE_UNAUTHENTICATED,
        )
        return None
    if message["type"] == "websocket.disconnect":
        return None
    try:
        auth = parse_auth_message(_text(message))

        def who() -> tuple[int, str, str, Any, bool]:
            with db.session() as session:
                user, row = session_for_token(session, token=auth.token, secret=secret)
                return user.id, user.username, row.token_hash, row.expires_at, auth.batch

        return await asyncio.to_thread(who)
    except CroupierError as exc:
        await _refuse(websocket, exc, CLOSE_UNAUTHENTICATED)
        return None


async def _note_channel(websocket: WebSocket, user_id: int) -> None:
    """The player's channel (browser or API) for the return monitor (issue 30)."""
    book = getattr(websocket.app.state, "channels", None)
    if book is not None:
        await book.note(user_id, websocket.headers)


@router.websocket("/ws/tables/{name}")
async def table_socket(websocket: WebSocket, name: str) -> None:
    """One seat's (or spectator's) connection to a table; see docs/protocol.md."""
    access: TableAccess = websocket.app.state.access
    live: LiveSessions = websocket.app.state.live_sessions
    await websocket.accept()
    if "token" in websocket.query_params or "access_token" in websocket.query_params:
        # A token in a URL ends up in access logs and proxies' logs: never accepted there.
        await _refuse(
            websocket,
            AuthenticationError(
                "a token in the URL is refused: send {'type': 'auth', 'token': ...} as the "
                "first frame",
                reason="session_missing",
            ),
            CLOSE_UNAUTHENTICATED,
        )
        return
    try:
        access.check(name)
    except NotFoundError as exc:
        await _refuse(websocket, exc, CLOSE_NOT_FOUND)
        return
    who = await _authenticate(websocket)
    if who is None:
        return
    user_id, username, token_hash, expires_at, batch = who
    await _note_channel(websocket, user_id)
    try:
        conn = await access.connect(name, user_id=user_id, username=username)
    except CroupierError as exc:  # a cluster whose bus is down
        await _refuse(websocket, exc, CLOSE_UNAVAILABLE)
        return

    def revoked(reason: str) -> None:
        conn.close(
            CLOSE_UNAUTHENTICATED,
            last=error_frame(code="unauthenticated", message=f"session ended: {reason}"),
        )

    session = live.open(
        user_id=user_id,
        token_hash=token_hash,
        expires_at=expires_at,
        on_revoke=revoked,
        on_frame=conn.send,  # a `balance` frame after a cashier's credit (server/cashier)
    )
    metrics: Metrics = websocket.app.state.metrics
    sockets = metrics.sockets.labels(table=name)
    sockets.inc()
    writer = asyncio.create_task(_pump(websocket, conn, metrics.frames.child(name), batch=batch))
    try:
        await _serve(websocket, access, conn, session, metrics)
    except WebSocketDisconnect:
        pass
    finally:
        sockets.dec()
        live.close(session)
        access.disconnect(conn)
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(writer, timeout=5)


async def _serve(
    websocket: WebSocket,
    access: TableAccess,
    conn: Connection,
    session: LiveSession,
    metrics: Metrics,
) -> None:
    """Hand the socket's requests to the table, one at a time, while the session lives and
    the client keeps within its rate limits."""
    limiter = RateLimiter()
    while not conn.closed:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        raw = _text(message)
        try:
            parsed = parse_client_message(raw)
        except InvalidRequestError as exc:
            parsed, refusal = None, exc
        try:
            session.check()
        except AuthenticationError as exc:
            conn.close(CLOSE_UNAUTHENTICATED, last=error_frame(exc, ref=_ref(parsed, raw)))
            return
        wait = limiter.wait("invalid" if parsed is None else parsed.type)
        if wait > 0:
            kind = "invalid frames" if parsed is None else f"{parsed.type!r} messages"
            frame = error_frame(
                code="rate_limited",
                message=f"too many {kind}: closing (retry after {wait:.1f} s)",
                ref=_ref(parsed, raw),
                retry_after=wait,
            )
            conn.close(CLOSE_RATE_LIMITED, last=frame)
            return
        if parsed is None:
            conn.send(error_frame(refusal, ref=ref_of(raw)))
            continue
        started = time.perf_counter()
        await access.submit(conn, parsed, raw)
        metrics.ack_latency.labels(type=parsed.type).observe(time.perf_counter() - started)


def _ref(parsed: ClientMessage | None, raw: str | bytes) -> str | int | None:
    return parsed.id if parsed is not None else ref_of(raw)
