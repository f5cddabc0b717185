"""Sessions in use on open WebSockets, so that revoking a token reaches them at once.

An HTTP request checks its token against the database every time; a table WebSocket checks
its token once, when it authenticates, and then stays open for hours. So every socket
registers here, under its token's keyed hash and its user, and:

- logging out (:meth:`LiveSessions.revoke_token`) and an operator disabling an account
  (:meth:`LiveSessions.revoke_user`) mark the sockets revoked -- the socket handler refuses
  their next request -- and close them (code 4401) on the event loop;
- a session that reaches its expiry is closed the same way, by a timer armed when it opens,
  and refused on its next request should that come first;
- a frame for one user (``notify_user``: the wallet's new balance after a cashier's credit,
  docs/protocol.md "balance") reaches every socket of theirs.

Revocations come from HTTP routes that run in worker threads: the registry takes a lock, and
closing is handed to the socket's event loop with ``call_soon_threadsafe``. One registry per
application (the tables live in the same process, so every socket of the server is here).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from croupier.server.base import utcnow
from croupier.server.errors import AuthenticationError

__all__ = ["LiveSession", "LiveSessions"]

K = TypeVar("K")
A = TypeVar("A")


class LiveSession:
    """One WebSocket's session: its token (as its keyed hash), user and expiry."""

    __slots__ = (
        "_on_frame",
        "_on_revoke",
        "_timer",
        "expires_at",
        "revoked",
        "token_hash",
        "user_id",
    )

    def __init__(
        self,
        *,
        user_id: int,
        token_hash: str,
        expires_at: dt.datetime,
        on_revoke: Callable[[str], None],
        on_frame: Callable[[Any], None] | None = None,
    ) -> None:
        self.user_id = user_id
        self.token_hash = token_hash
        self.expires_at = expires_at
        self.revoked: str | None = None
        """Why the session ended (``None`` while it is live)."""
        self._on_revoke = on_revoke
        self._on_frame = on_frame
        self._timer: asyncio.TimerHandle | None = None

    def check(self) -> None:
        """Refuse a request of a revoked or expired session.

        Raises:
            AuthenticationError: the session was revoked or has expired.
        """
        if self.revoked is None and self.expires_at <= utcnow():
            self.revoked = "the session has expired"
        if self.revoked is not None:
            raise AuthenticationError(
                f"session ended: {self.revoked}; log in again", reason="session_expired"
            )


class LiveSessions:
    """Every session open on a WebSocket of this server."""

    def __init__(self) -> None:
        self.relay: Callable[..., None] | None = None
        """A cluster's process (issue 18): told of every revocation and frame for a user made
        here, to pass on to the other processes, whose sockets may be that user's; called
        ``relay("revoke_token", token_hash=..., reason=...)``, ``relay("revoke_user",
        user_id=..., reason=...)`` or ``relay("frame", user_id=..., frame=...)``."""
        self._lock = threading.Lock()
        self._by_token: dict[str, set[LiveSession]] = {}
        self._by_user: dict[int, set[LiveSession]] = {}

    def open(
        self,
        *,
        user_id: int,
        token_hash: str,
        expires_at: dt.datetime,
        on_revoke: Callable[[str], None],
        on_frame: Callable[[Any], None] | None = None,
    ) -> LiveSession:
        """Register a socket's session (on its event loop); ``on_revoke(reason)`` is called
        on that loop when the session is revoked or expires, ``on_frame(frame)`` for a frame
        sent to its user (:meth:`notify_user`)."""
        live = LiveSession(
            user_id=user_id, token_hash=token_hash, expires_at=expires_at, on_revoke=on_revoke
        )
        loop = asyncio.get_running_loop()
        with self._lock:
            self._by_token.setdefault(token_hash, set()).add(live)
            self._by_user.setdefault(user_id, set()).add(live)
        left = (expires_at - utcnow()).total_seconds()
        live._timer = loop.call_later(max(0.0, left), self._expire, live)
        live._on_revoke = _on_loop(loop, on_revoke)
        if on_frame is not None:
            live._on_frame = _on_loop(loop, on_frame)
        return live

    def close(self, live: LiveSession) -> None:
        """Forget a socket's session (its socket closed)."""
        if live._timer is not None:
            live._timer.cancel()
        with self._lock:
            _discard(self._by_token, live.token_hash, live)
            _discard(self._by_user, live.user_id, live)

    def revoke_token(
        self, token_hash: str, reason: str = "logged out", *, relayed: bool = False
    ) -> int:
        """End every socket opened with the token of this hash; return how many (here:
        a cluster's other processes are told unless ``relayed`` from one)."""
        if self.relay is not None and not relayed:
            self.relay("revoke_token", token_hash=token_hash, reason=reason)
        with self._lock:
            sessions = list(self._by_token.get(token_hash, ()))
        return self._revoke(sessions, reason)

    def revoke_user(
        self, user_id: int, reason: str = "the account was disabled", *, relayed: bool = False
    ) -> int:
        """End every socket of ``user_id``; return how many (here)."""
        if self.relay is not None and not relayed:
            self.relay("revoke_user", user_id=user_id, reason=reason)
        with self._lock:
            sessions = list(self._by_user.get(user_id, ()))
        return self._revoke(sessions, reason)

    def notify_user(self, user_id: int, frame: Any, *, relayed: bool = False) -> int:
        """Send ``frame`` to every live socket of ``user_id`` (from any thread); return how
        many sockets here it went to."""
        if self.relay is not None and not relayed:
            self.relay("frame", user_id=user_id, frame=frame)
        with self._lock:
            sessions = list(self._by_user.get(user_id, ()))
        sent = 0
        for live in sessions:
            if live.revoked is None and live._on_frame is not None:
                live._on_frame(frame)
                sent += 1
        return sent

    def count(self) -> int:
        with self._lock:
            return sum(len(s) for s in self._by_token.values())

    def _expire(self, live: LiveSession) -> None:
        self._revoke([live], "the session has expired")

    @staticmethod
    def _revoke(sessions: list[LiveSession], reason: str) -> int:
        for live in sessions:
            if live.revoked is None:
                live.revoked = reason
                live._on_revoke(reason)
        return len(sessions)


def _on_loop(loop: asyncio.AbstractEventLoop, callback: Callable[[A], None]) -> Callable[[A], None]:
    """``callback`` run on ``loop`` whichever thread calls it."""

    def call(reason: A) -> None:
        if loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            callback(reason)
        else:
            loop.call_soon_threadsafe(callback, reason)

    return call


def _discard(index: dict[K, set[LiveSession]], key: K, live: LiveSession) -> None:
    group = index.get(key)
    if group is not None:
        group.discard(live)
        if not group:
            del index[key]
