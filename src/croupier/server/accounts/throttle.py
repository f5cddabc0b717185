"""Login throttling, per account and per client address, with a growing back-off (issue 13).

Each key -- an account (its normalised username, known or not, so probing names gains
nothing) and a client address -- has a budget of ``free`` attempts. An attempt takes one
unit while it runs and keeps it if it fails; a success gives the account's units back (not
the address's: one's own account is no way to reset a guessing address). With the budget
spent, one more attempt is allowed after a back-off that doubles with each failure,
``base_seconds * 2 ** (failures - free)`` up to ``max_seconds``; anything sooner is refused
with 429 and ``Retry-After``, without checking the password. Failures are forgotten
``forget_seconds`` after the last one.

So thirty wrong passwords in a row cost the attacker hours, not seconds, and forty sent at
once get ``free`` checks and thirty-odd refusals: the in-flight attempts count as failures
until they end. Registration uses the same per-address budget for attempts in flight only.

>>> t = [0.0]
>>> throttle = LoginThrottle(free_per_account=2, free_per_address=10, clock=lambda: t[0])
>>> for _ in range(2):
...     throttle.end(throttle.begin(account="bob", address="a"), success=False)
>>> try:
...     throttle.begin(account="bob", address="b")
... except TooManyRequests as exc:
...     print(exc.retry_after)
1.0
>>> t[0] = 1.0
>>> throttle.end(throttle.begin(account="bob", address="b"), success=False)
>>> try:
...     throttle.begin(account="bob", address="b")
... except TooManyRequests as exc:
...     print(exc.retry_after)
2.0
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from croupier.server.errors import TooManyRequests

__all__ = ["Attempt", "LoginThrottle"]


@dataclass(slots=True)
class _Budget:
    failures: int = 0
    in_flight: int = 0
    last_failure: float = float("-inf")


@dataclass(frozen=True, slots=True)
class Attempt:
    """An attempt under way: hand it back to :meth:`LoginThrottle.end`."""

    keys: tuple[str, ...]
    account: str | None


class LoginThrottle:
    """Budgets of attempts per account and per client address (in memory: one process)."""

    def __init__(
        self,
        *,
        free_per_account: int = 5,
        free_per_address: int = 20,
        base_seconds: float = 1.0,
        max_seconds: float = 900.0,
        forget_seconds: float = 3600.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.free_per_account = free_per_account
        self.free_per_address = free_per_address
        self.base_seconds = base_seconds
        self.max_seconds = max_seconds
        self.forget_seconds = forget_seconds
        self._clock = clock
        self._budgets: dict[str, _Budget] = {}

    def begin(self, *, account: str | None, address: str) -> Attempt:
        """Start an attempt, or refuse it.

        Raises:
            TooManyRequests: the account's or the address's budget is spent and its back-off
                has not run out; ``retry_after`` says when to try again.
        """
        now = self._clock()
        keys = [(f"ip:{address}", self.free_per_address)]
        if account is not None:
            keys.append((f"user:{account}", self.free_per_account))
        wait = max(self._wait(key, free, now) for key, free in keys)
        if wait > 0:
            what = "this account" if account is not None else "registrations"
            raise TooManyRequests(
                f"too many attempts for {what} from here: try again in {math.ceil(wait)} s",
                retry_after=float(math.ceil(wait)),
                reason="login_throttled",
                params={"seconds": math.ceil(wait)},
            )
        for key, _ in keys:
            self._budgets.setdefault(key, _Budget()).in_flight += 1
        return Attempt(tuple(key for key, _ in keys), account)

    def end(self, attempt: Attempt, *, success: bool) -> None:
        """Close an attempt: a failure is counted, a success clears the account's failures."""
        now = self._clock()
        for key in attempt.keys:
            budget = self._budgets.get(key)
            if budget is None:  # pragma: no cover - forgotten while in flight
                continue
            budget.in_flight = max(0, budget.in_flight - 1)
            if not success:
                budget.failures += 1
                budget.last_failure = now
            elif key.startswith("user:"):
                budget.failures = 0
            if budget.failures == 0 and budget.in_flight == 0:
                del self._budgets[key]
        if len(self._budgets) > 100_000:
            self._forget(now)

    def _wait(self, key: str, free: int, now: float) -> float:
        budget = self._budgets.get(key)
        if budget is None:
            return 0.0
        if budget.in_flight == 0 and now - budget.last_failure > self.forget_seconds:
            budget.failures = 0
        used = budget.failures + budget.in_flight
        if used < free:
            return 0.0
        if budget.in_flight:
            return 1.0  # one attempt past the budget at a time
        doublings = min(budget.failures - free, 40)
        delay = min(self.max_seconds, math.ldexp(self.base_seconds, doublings))
        return max(0.0, budget.last_failure + delay - now)

    def _forget(self, now: float) -> None:
        stale = [
            key
            for key, b in self._budgets.items()
            if b.in_flight == 0 and now - b.last_failure > self.forget_seconds
        ]
        for key in stale:
            del self._budgets[key]
