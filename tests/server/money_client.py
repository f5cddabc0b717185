"""A table socket for the money model (issue 26, deliverable 7) that keeps within the rate
limits docs/protocol.md gives every socket ("Limits"), as a well-behaved client does.

A message past its bucket closes the socket (4429), so the model waits for a token before it
sends; a ``resync`` (2 a second, bursts of 4) it would have to wait for is replaced by a
reconnect, whose first ``state`` is as fresh.
"""

from __future__ import annotations

import time
from typing import Any

from server_testkit import Seat

__all__ = ["RATES", "Socket"]

RATES: dict[str, tuple[float, int]] = {
    "join": (1, 6),
    "leave": (1, 6),
    "bet": (5, 20),
    "act": (10, 30),
    "buy_in": (2, 10),
    "resync": (2, 4),
    "ping": (5, 20),
    "*": (30, 60),
}
"""kind -> (per second, burst), as docs/protocol.md documents them."""
MARGIN = 0.8
"""The share of each rate the model uses (the server's clock and ours are not the same)."""


class _Bucket:
    def __init__(self, per_second: float, burst: int) -> None:
        self.rate = per_second * MARGIN
        self.burst = burst - 1
        self.tokens = float(self.burst)
        self.at = time.monotonic()

    def wait(self) -> float:
        """Seconds until a token is there (0: there is one)."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) / self.rate

    def take(self) -> None:
        self.tokens -= 1


class Socket:
    """One authenticated socket to a table (``client.websocket_connect``, a TestClient's or
    a remote one's), its frames kept in ``seat`` (:class:`server_testkit.Seat`)."""

    def __init__(self, client: Any, table: str, token: str) -> None:
        self._opened = client.websocket_connect(f"/ws/tables/{table}")
        ws = self._opened.__enter__()
        self._buckets: dict[str, _Bucket] = {}
        ws.send_json({"type": "auth", "token": token})
        self.seat = Seat(ws)
        self.seat.welcome()
        self.first_state: dict[str, Any] = next(
            f for f in reversed(self.seat.frames) if f["type"] == "state"
        )

    def close(self) -> None:
        self._opened.__exit__(None, None, None)

    def _bucket(self, kind: str) -> _Bucket:
        if kind not in self._buckets:
            self._buckets[kind] = _Bucket(*RATES.get(kind, (1, 6)))
        return self._buckets[kind]

    def may(self, kind: str) -> bool:
        """Whether a ``kind`` message may go now without waiting."""
        return self._bucket(kind).wait() == 0 and self._bucket("*").wait() == 0

    def _spend(self, kind: str) -> None:
        for bucket in (self._bucket(kind), self._bucket("*")):
            while (seconds := bucket.wait()) > 0:
                time.sleep(seconds)
            bucket.take()

    def send(self, frame: dict[str, Any]) -> None:
        self._spend(frame["type"])
        self.seat.send(frame)

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send (a fresh ``id``); the ``ack``, ``error`` or ``pong`` that answers it."""
        self._spend(message["type"])
        return self.seat.request(message)

    def resynced(self) -> dict[str, Any] | None:
        """The table's ``state`` now, by a ``resync``; None when the bucket is empty."""
        if not self.may("resync"):
            return None
        self._spend("resync")
        start = len(self.seat.frames)
        self.seat.send({"type": "resync", "last_seq": 0})
        state: dict[str, Any] = self.seat.after(
            start, lambda f: f["type"] == "state" and f.get("resynced")
        )
        return state
