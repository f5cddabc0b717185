"""Passwords: the strength rule, and argon2 run off the event loop, a bounded number at once.

Strength (issue 13): at least :data:`MIN_LENGTH` characters, and guessable ones refused by
``zxcvbn`` -- a maintained estimator carrying the common-password lists, dictionaries, names,
keyboard patterns and dates -- at score :data:`MIN_SCORE` or more out of 4, with the username
and the site's own words given to it (``croupier2024!`` is weak here). The refusal quotes the
estimator's warning and suggestions, for the person to act on.

Hashing: an argon2id hash or check takes about 100 ms of CPU and 64 MiB. Run on the event
loop, forty wrong logins at once stalled every other request for seconds; run in the
request thread pool, they took all its threads. :class:`PasswordHashing` runs them in a pool
of their own of ``workers`` threads (argon2 releases the GIL), and refuses a request (429,
``Retry-After``) rather than queue more than ``queue`` of them: other requests stay fast.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import importlib
import math
import os
import pkgutil
import re
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from croupier.errors import Param
from croupier.server.errors import InvalidRequestError, TooManyRequests

__all__ = [
    "MAX_LENGTH",
    "MIN_LENGTH",
    "MIN_SCORE",
    "SITE_WORDS",
    "PasswordHashing",
    "check_strength",
]

MIN_LENGTH = 10
MAX_LENGTH = 256
MIN_SCORE = 3
SITE_WORDS = ("croupier", "casino", "poker")
"""Words an attacker tries first against any site of ours, given to the estimator with each
game's own (:func:`game_words`)."""
_ESTIMATED = 72
"""zxcvbn estimates at most this many characters (its own limit); a longer password is
judged by its first 72, which only makes the estimate more cautious."""

T = TypeVar("T")


@functools.cache
def game_words() -> tuple[str, ...]:
    """The words of the games this site hosts: each game package's name and the words of its
    title (the first line of its docstring up to a colon, a parenthesis or "with": "Ultimate
    Texas Hold'em" gives ``ultimate``, ``texas``, ``holdem``), so a game added is a word
    added, with no list here to keep."""
    import croupier.games

    words: list[str] = []
    for package in pkgutil.iter_modules(croupier.games.__path__):
        if not package.ispkg:
            continue
        words.append(package.name)
        doc = importlib.import_module(f"{croupier.games.__name__}.{package.name}").__doc__ or ""
        title = re.split(r"[:(]| with ", doc.strip().splitlines()[0] if doc.strip() else "")[0]
        words += re.findall(r"[a-z]{4,}", title.lower().replace("'", ""))
    return tuple(dict.fromkeys(w for w in words if w not in SITE_WORDS))


def check_strength(password: object, *, username: str = "") -> str:
    """Return ``password`` if it is long enough and not guessable.

    Raises:
        InvalidRequestError: not a string, too short or long, or too easy to guess; the
            message says why and how to do better.
    """
    if not isinstance(password, str) or not MIN_LENGTH <= len(password) <= MAX_LENGTH:
        raise InvalidRequestError(
            f"a password must be {MIN_LENGTH} to {MAX_LENGTH} characters",
            reason="password_length",
            params={"min": MIN_LENGTH, "max": MAX_LENGTH},
        )
    from zxcvbn import zxcvbn

    inputs = [w for w in (username, *SITE_WORDS, *game_words()) if w]
    result = zxcvbn(password[:_ESTIMATED], user_inputs=inputs)
    score = int(result["score"])
    if score < MIN_SCORE:
        feedback = result.get("feedback") or {}
        advice = " ".join(
            part.strip()
            for part in (feedback.get("warning") or "", *(feedback.get("suggestions") or ()))
            if part and part.strip()
        )
        raise InvalidRequestError(
            f"password is too easy to guess (strength {score} of 4, {MIN_SCORE} needed)"
            + (f": {advice}" if advice else ": add more words or characters"),
            reason="password_weak",
            params=_feedback_params(score, feedback),
        )
    return password


HASHING_NICENESS = 10
"""How much lower than the server's other threads the hashing threads run (Linux: a thread is
a task with a niceness of its own)."""


def _yield_to_requests() -> None:
    """Lower the calling hashing thread's CPU priority, so that a burst of logins never takes
    the CPU from the event loop and the request threads (measured: forty wrong logins and forty
    registrations at once made a wallet request wait 0.8 s on two busy cores; niced, it
    answers in milliseconds). Where the platform cannot, the thread keeps its priority."""
    with contextlib.suppress(AttributeError, OSError):
        tid = threading.get_native_id()
        os.setpriority(
            os.PRIO_PROCESS, tid, os.getpriority(os.PRIO_PROCESS, tid) + HASHING_NICENESS
        )


# zxcvbn's feedback (English sentences) as stable names the client words in its languages
# (docs/errors.md, "password_weak"): the first prefix that matches names a sentence.
_FEEDBACK = (
    ("Use a few words", "use_few_words"),
    ("No need for symbols", "no_symbols_needed"),
    ("Add another word", "add_words"),
    ("Straight rows of keys", "keyboard_row"),
    ("Short keyboard patterns", "keyboard_short"),
    ("Use a longer keyboard pattern", "keyboard_longer"),
    ("Repeats like", "repeats"),
    ("Avoid repeated", "avoid_repeats"),
    ("Sequences like", "sequences"),
    ("Avoid sequences", "avoid_sequences"),
    ("Recent years", "recent_years"),
    ("Avoid recent years", "avoid_years"),
    ("Avoid years", "avoid_years"),
    ("Dates are often", "dates"),
    ("Avoid dates", "avoid_years"),
    ("This is a top-10", "top10"),
    ("This is a top-100", "top100"),
    ("This is a very common", "common"),
    ("This is similar to", "similar_common"),
    ("A word by itself", "single_word"),
    ("Names and surnames", "names"),
    ("Common names", "names"),
    ("Capitalization", "capitalization"),
    ("All-uppercase", "all_upper"),
    ("Reversed words", "reversed"),
    ("Predictable substitutions", "substitutions"),
)


def _feedback_name(text: str) -> str | None:
    for prefix, name in _FEEDBACK:
        if text.strip().startswith(prefix):
            return name
    return None


def _feedback_params(score: int, feedback: dict[str, Any]) -> dict[str, Param]:
    """``password_weak``'s params: the score and zxcvbn's advice as stable names."""
    warning = _feedback_name(feedback.get("warning") or "")
    suggestions = [n for s in feedback.get("suggestions") or () if (n := _feedback_name(s))]
    params: dict[str, Param] = {"score": score, "needed": MIN_SCORE, "suggestions": suggestions}
    if warning:
        params["warning"] = warning
    return params


class PasswordHashing:
    """A pool of ``workers`` threads for argon2, refusing work past ``queue`` waiting."""

    def __init__(self, *, workers: int, queue: int) -> None:
        self.workers = workers
        self.queue = queue
        self._pool: ThreadPoolExecutor | None = None
        self._pending = 0

    async def run(self, fn: Callable[..., T], /, *args: Any) -> T:
        """``fn(*args)`` in the pool.

        Raises:
            TooManyRequests: ``queue`` calls are already waiting or running.
        """
        if self._pending >= self.workers + self.queue:
            raise TooManyRequests(
                "the server is busy checking passwords: try again shortly",
                retry_after=(wait := max(1.0, math.ceil(self._pending / self.workers) * 0.2)),
                reason="server_busy",
                params={"seconds": math.ceil(wait)},
            )
        if self._pool is None:
            self._pool = ThreadPoolExecutor(
                self.workers, thread_name_prefix="argon2", initializer=_yield_to_requests
            )
        self._pending += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)
        finally:
            self._pending -= 1

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
