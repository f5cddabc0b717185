"""Per-connection rate limits on table sockets: a token bucket for each kind of message.

A client that sends faster than a person or an honest bot would (20,000 ``sit_out`` in a
row, a ``resync`` every 2 ms) is told so with an ``error`` frame (``rate_limited``) and its
socket is closed (code 4429); the messages past the limit never reach the table. The buckets
are generous for play: a seat bets once a round and decides a few times.

>>> clock = iter([0.0, 0.0, 0.0, 0.5]).__next__
>>> limiter = RateLimiter({"ping": Rate(per_second=2, burst=2)}, clock=clock)
>>> limiter.wait("ping"), limiter.wait("ping"), limiter.wait("ping") > 0, limiter.wait("ping")
(0.0, 0.0, True, 0.0)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

__all__ = ["DEFAULT_RATES", "Rate", "RateLimiter"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Rate:
    """``burst`` messages at once, refilled at ``per_second``."""

    per_second: float
    burst: int


DEFAULT_RATES: Mapping[str, Rate] = {
    # Seats: taking one, leaving it, sitting out or in is a person's click.
    "join": Rate(per_second=1, burst=6),
    "leave": Rate(per_second=1, burst=6),
    "sit_out": Rate(per_second=1, burst=6),
    "sit_in": Rate(per_second=1, burst=6),
    # Money and decisions: one bet a round, a few decisions, buy-ins between hands.
    "bet": Rate(per_second=5, burst=20),
    "act": Rate(per_second=10, burst=30),
    "buy_in": Rate(per_second=2, burst=10),
    # A resync sends up to the table's whole event log: after a reconnect or a gap only.
    "resync": Rate(per_second=2, burst=4),
    "ping": Rate(per_second=5, burst=20),
    # Frames the server refuses unread (not JSON, an unknown type, too deep).
    "invalid": Rate(per_second=2, burst=10),
    # Everything together.
    "*": Rate(per_second=30, burst=60),
}


class RateLimiter:
    """The token buckets of one connection."""

    __slots__ = ("_clock", "_levels", "_rates")

    def __init__(
        self,
        rates: Mapping[str, Rate] = DEFAULT_RATES,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._rates = rates
        self._clock = clock
        self._levels: dict[str, tuple[float, float]] = {}
        """kind -> (tokens left, when counted)."""

    def wait(self, kind: str) -> float:
        """Take a token for ``kind`` (and one of the overall bucket): ``0.0`` if there was
        one, else the seconds until there will be (nothing is taken then)."""
        now = self._clock()
        waits = [self._peek(k, now) for k in (kind, "*") if k in self._rates]
        longest = max(waits, default=0.0)
        if longest > 0:
            return longest
        for k in (kind, "*"):
            if k in self._rates:
                tokens, _ = self._levels[k]
                self._levels[k] = (tokens - 1, now)
        return 0.0

    def _peek(self, kind: str, now: float) -> float:
        rate = self._rates[kind]
        tokens, then = self._levels.get(kind, (float(rate.burst), now))
        tokens = min(float(rate.burst), tokens + (now - then) * rate.per_second)
        self._levels[kind] = (tokens, now)
        if tokens >= 1:
            return 0.0
        return (1 - tokens) / rate.per_second
