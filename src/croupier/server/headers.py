"""Security headers on every HTTP response (issue 13): the browser runs only the app's own
scripts and styles, never inside a frame, and sends no referrer.

``Content-Security-Policy`` allows scripts, styles, fetches and WebSockets from the server's
own origin only (``'self'`` covers ``ws:``/``wss:`` to the same host in CSP Level 3), images
from it and ``data:`` (the empty favicon); no inline script or style, no ``eval``, no plugin,
no ``<base>``, no frame. The browser client is built for it: its markup has no inline script
or ``style`` attribute, and it sets styles through the CSSOM, which a policy does not block.
"""

from __future__ import annotations

from collections.abc import Iterable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["CONTENT_SECURITY_POLICY", "SECURITY_HEADERS", "SecurityHeaders"]

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)

SECURITY_HEADERS: tuple[tuple[str, str], ...] = (
    ("content-security-policy", CONTENT_SECURITY_POLICY),
    ("x-frame-options", "DENY"),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),
    ("cross-origin-opener-policy", "same-origin"),
    ("permissions-policy", "camera=(), microphone=(), geolocation=(), payment=()"),
)


class SecurityHeaders:
    """ASGI middleware adding :data:`SECURITY_HEADERS` to every HTTP response (a header
    the response already sets is left alone). Paths in ``csp_exempt`` (the API docs pages,
    when enabled, load their scripts from a CDN) get every header but the policy."""

    def __init__(
        self,
        app: ASGIApp,
        headers: Iterable[tuple[str, str]] = SECURITY_HEADERS,
        *,
        csp_exempt: Iterable[str] = (),
    ) -> None:
        self.app = app
        self.headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers]
        self.csp_exempt = frozenset(csp_exempt)
        self.without_csp = [(k, v) for k, v in self.headers if k != b"content-security-policy"]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        headers = self.without_csp if scope.get("path") in self.csp_exempt else self.headers

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in headers if k not in present]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)
