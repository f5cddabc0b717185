"""No request can freeze the tables (issue 27): :class:`BodyLimits`, an ASGI middleware that
bounds every HTTP request's body by what its route can need, and by time; and
:func:`bounded_http`, the HTTP protocol ``croupier serve`` runs, which bounds a request's head
(its request line and headers) the same way before the application sees it.

- A body whose ``Content-Length`` is above its route's limit is refused with 413 before a
  byte of it is read; the connection is closed (the rest is never read). ``croupier serve``
  does it in its HTTP protocol, before the application is called (:func:`bounded_http`).
  A refusal for size comes :data:`REFUSAL_DELAY` after the request, nothing more of it read
  meanwhile: it slows a flood, never a client of the API (none sends such a request).
- A body without a length (``Transfer-Encoding: chunked``) is counted as it streams in and
  cut off with 413 once it passes the limit: never buffered whole, never parsed.
- A body that has not arrived whole within ``seconds`` of the request (a client sending a
  byte now and then, holding a worker's attention) is refused with 408.

The limits: ``default`` for every route (the JSON bodies of the API are a few hundred bytes:
credentials, an amount, a limit), and larger ones for the routes that take an operator's
table rules (a table's whole configuration with its pay tables). Both are settings
(``http_body_max_bytes``, ``http_rules_body_max_bytes``, ``http_read_seconds``). WebSockets
are bounded by the server itself (a frame above 16 KB closes the socket, see
:data:`croupier.server.tables.wire.MAX_FRAME_BYTES`).

The head: ``uvicorn``'s parser (``httptools``) takes a request line and headers of any size,
joining the pieces as they come (a 16 MB URL or header block is read, copied and parsed on
the event loop); :func:`bounded_http` answers 431 and closes the connection once a head passes
``http_head_max_bytes``, and closes one whose head has not arrived whole within
``http_read_seconds`` (a client trickling headers to hold a connection open).

Refusals are the API's error bodies (``{"error": {"code", "message", "reason", "params"}}``)
with ``reason`` ``body_too_large`` (``params`` ``limit``) or ``body_too_slow`` (``seconds``).
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from croupier.server.errors import error_body
from croupier.server.headers import SECURITY_HEADERS
from croupier.server.settings import Settings

REFUSAL_DELAY = 0.5
"""Seconds before a body or head refused for its size is answered and its connection closed,
nothing more of it read meanwhile. No client of the API sends one; a flood does, and each of
its connections then takes at least this long, so a client sending one request at a time
costs the server a few connections a second, not thousands (the work of accepting and
refusing a connection, about 0.1 ms of the event loop each, is what a flood still costs)."""

__all__ = ["BodyLimits", "RouteLimit", "RouteLimits", "bounded_http", "route_limits"]


@dataclass(frozen=True, slots=True)
class RouteLimit:
    """A route whose bodies may be larger than the default: its method, its path (``{x}``
    stands for one path segment) and its limit in bytes."""

    method: str
    path: str
    max_bytes: int

    def pattern(self) -> re.Pattern[str]:
        parts = [re.escape(p) if not p.startswith("{") else "[^/]+" for p in self.path.split("/")]
        return re.compile("/".join(parts) + "/?")


class RouteLimits:
    """The most bytes a request body may have: ``default``, or a route's own."""

    def __init__(self, *, default: int, routes: Sequence[RouteLimit] = ()) -> None:
        self.default = default
        self.routes = [(r.method.upper(), r.pattern(), r.max_bytes) for r in routes]

    def limit(self, method: str, path: str) -> int:
        """The most bytes a body of ``method`` ``path`` may have."""
        for route_method, pattern, max_bytes in self.routes:
            if route_method == method and pattern.fullmatch(path):
                return max_bytes
        return self.default


def route_limits(settings: Settings) -> RouteLimits:
    """The server's limits: ``http_body_max_bytes`` for every route but the operator's table
    rules (opening a table, changing one), which take ``http_rules_body_max_bytes``."""
    rules = settings.http_rules_body_max_bytes
    return RouteLimits(
        default=settings.http_body_max_bytes,
        routes=(
            RouteLimit("POST", "/api/operator/tables", rules),
            RouteLimit("PATCH", "/api/operator/tables/{name}", rules),
        ),
    )


class _Refused(HTTPException):
    """A body refused while it streams in (an ``HTTPException``: the framework lets it pass
    as it is, and the middleware answers in the API's own words)."""


@dataclass(slots=True)
class _Body:
    limit: int
    deadline: float
    received: int = 0
    complete: bool = False
    refusal: tuple[int, bytes] | None = None
    answered: bool = False


class BodyLimits:
    """ASGI middleware: each HTTP request's body within its route's limit and in time."""

    def __init__(self, app: ASGIApp, *, limits: RouteLimits, seconds: float) -> None:
        self.app = app
        self.limits = limits
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limits.limit(scope["method"], scope["path"])
        length = _content_length(scope)
        if length is not None and length > limit:
            await _answer(send, *_too_large(limit), delay=True)
            return
        loop = asyncio.get_running_loop()
        body = _Body(limit, loop.time() + self.seconds)

        async def bounded_receive() -> Message:
            if body.complete:
                return await receive()  # the body is in: what comes is a disconnect
            try:
                message = await asyncio.wait_for(receive(), max(0.0, body.deadline - loop.time()))
            except TimeoutError:
                body.refusal = _too_slow(self.seconds)
                raise _Refused(408) from None
            if message["type"] == "http.request":
                body.received += len(message.get("body", b""))
                body.complete = not message.get("more_body", False)
                if body.received > body.limit:
                    body.refusal = _too_large(body.limit)
                    raise _Refused(413)
            return message

        async def answering_send(message: Message) -> None:
            if body.refusal is None:
                await send(message)
            elif not body.answered:  # the app's answer to the refusal, in the API's words
                body.answered = True
                await _answer(send, *body.refusal, delay=True)

        try:
            await self.app(scope, bounded_receive, answering_send)
        except _Refused:
            if not body.answered and body.refusal is not None:
                body.answered = True
                await _answer(send, *body.refusal, delay=True)


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def _too_large(limit: int) -> tuple[int, bytes]:
    body = error_body("payload_too_large", f"the request body is above {limit} bytes")
    body["error"].update(reason="body_too_large", params={"limit": limit})
    return 413, json.dumps(body).encode()


def _too_slow(seconds: float) -> tuple[int, bytes]:
    body = error_body(
        "request_timeout", f"the request body did not arrive within {seconds:g} seconds"
    )
    body["error"].update(reason="body_too_slow", params={"seconds": seconds})
    return 408, json.dumps(body).encode()


async def _answer(send: Send, status: int, content: bytes, *, delay: bool = False) -> None:
    """A JSON error, and the connection closed after it (the rest of the body is not read);
    ``delay``: after :data:`REFUSAL_DELAY`."""
    if delay:
        await asyncio.sleep(REFUSAL_DELAY)
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(content)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": content})


def bounded_http(*, head_bytes: int, seconds: float, limits: RouteLimits | None = None) -> Any:
    """The HTTP protocol class for uvicorn (its ``http`` option): ``httptools``' protocol,
    with a request's head bounded to ``head_bytes`` (431 past it) and to ``seconds`` (the
    connection closed), and, with the app's ``limits``, a body whose ``Content-Length`` is
    above its route's limit answered 413 as soon as the head is read, before the application
    is called and before any of the body is taken in (the flood of the issue costs a head's
    parsing); ``"h11"`` (its own 16 KB bound on a head) where ``httptools`` is missing."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # pragma: no cover - uvicorn without httptools
        return "h11"
    bounds = {"head_bytes": head_bytes, "head_seconds": seconds, "body_limits": limits}
    return type("BoundedHttpTools", (_BoundedHead, HttpToolsProtocol), bounds)


class _BoundedHead:
    """What :func:`bounded_http` adds to uvicorn's ``httptools`` protocol (the methods it
    overrides call it through ``super()``): a request's head counted as the parser hands it
    over, and timed from its first byte (or the connection's start) to its end."""

    head_bytes: int
    head_seconds: float
    body_limits: RouteLimits | None
    loop: asyncio.AbstractEventLoop
    transport: Any
    parser: Any
    url: bytes
    headers: list[tuple[bytes, bytes]]
    _head = 0
    _refused: bytes | None = None
    """The answer to write before closing (the request is refused)."""
    _timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)  # type: ignore[misc]
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)  # type: ignore[misc]

    def _arm(self) -> None:
        self._disarm()
        self._timer = self.loop.call_later(self.head_seconds, self._head_too_slow)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _head_too_slow(self) -> None:
        self._timer = None
        if not self.transport.is_closing():
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        if self._refused is not None:
            return
        super().data_received(data)  # type: ignore[misc]
        if self._refused is not None:
            # Nothing more is read; the answer comes a moment later (see REFUSAL_DELAY).
            self._disarm()
            self.transport.pause_reading()
            self._timer = self.loop.call_later(REFUSAL_DELAY, self._answer_refused)

    def _answer_refused(self) -> None:
        self._timer = None
        if self._refused is not None and not self.transport.is_closing():
            self.transport.write(self._refused)
            self.transport.close()

    def on_message_begin(self) -> None:
        self._head = 0
        if self._timer is None:
            self._arm()
        super().on_message_begin()  # type: ignore[misc]

    def on_url(self, url: bytes) -> None:
        self._count(len(url))
        if self._refused is None:
            super().on_url(url)  # type: ignore[misc]

    def on_header(self, name: bytes, value: bytes) -> None:
        self._count(len(name) + len(value) + 4)
        if self._refused is None:
            super().on_header(name, value)  # type: ignore[misc]

    def _count(self, size: int) -> None:
        self._head += size
        if self._head > self.head_bytes and self._refused is None:
            self._refused = _head_too_large(self.head_bytes)

    def on_headers_complete(self) -> None:
        self._disarm()
        if self._refused is None:
            self._refused = self._body_too_large()
        if self._refused is None:
            super().on_headers_complete()  # type: ignore[misc]

    def _body_too_large(self) -> bytes | None:
        """413 for a body announced above its route's limit (else ``None``)."""
        limits = self.body_limits
        length = next((v for k, v in self.headers if k == b"content-length"), None)
        if limits is None or length is None or not length.isdigit():
            return None
        from urllib.parse import unquote

        import httptools

        path = httptools.parse_url(self.url).path.decode("latin-1")
        limit = limits.limit(self.parser.get_method().decode("latin-1"), unquote(path))
        if int(length) <= limit:
            return None
        return _raw(b"413 Request Entity Too Large", _too_large(limit)[1])

    def on_body(self, body: bytes) -> None:
        if self._refused is None:
            super().on_body(body)  # type: ignore[misc]

    def on_message_complete(self) -> None:
        if self._refused is None:
            super().on_message_complete()  # type: ignore[misc]


def _head_too_large(limit: int) -> bytes:
    body = error_body(
        "headers_too_large", f"the request's line and headers are above {limit} bytes"
    )
    body["error"].update(reason="head_too_large", params={"limit": limit})
    return _raw(b"431 Request Header Fields Too Large", json.dumps(body).encode())


def _raw(status: bytes, content: bytes) -> bytes:
    """An HTTP response written by the protocol itself (the application never saw the
    request), with the headers every response of the server carries."""
    lines = [b"HTTP/1.1 " + status, b"content-type: application/json"]
    lines.append(b"content-length: %d" % len(content))
    lines.append(b"connection: close")
    lines += [k.encode("latin-1") + b": " + v.encode("latin-1") for k, v in SECURITY_HEADERS]
    return b"\r\n".join(lines) + b"\r\n\r\n" + content
