"""No log line ever holds a session token: a filter that scrubs tokens from log records.

The protocol keeps tokens out of URLs (a socket authenticates with its first frame), but a
client may still put one in a query string, and uvicorn writes every request line -- with its
query string -- to its access log, and every WebSocket's path to its error log. So the
server's loggers and their handlers carry :class:`TokenScrubber`, which rewrites
``token=...``, ``access_token=...`` and ``Bearer ...`` in a record's message and arguments
before any handler formats it.

>>> scrub("GET /ws/tables/uth?token=abc.DEF-123&x=1 HTTP/1.1")
'GET /ws/tables/uth?token=[redacted]&x=1 HTTP/1.1'
>>> scrub("Authorization: Bearer abc.DEF-123")
'Authorization: Bearer [redacted]'
"""

from __future__ import annotations

import logging
import re
from typing import Any

__all__ = ["LOGGERS", "TokenScrubber", "install_token_scrubber", "scrub"]

_SECRET = re.compile(r"(?i)((?:access_)?token=|bearer\s+)[^\s&\"';,]+")

LOGGERS = ("", "uvicorn", "uvicorn.error", "uvicorn.access", "websockets", "croupier")
"""The loggers (and their handlers) the scrubber is put on: the root, uvicorn's and ours."""


def scrub(text: str) -> str:
    """``text`` with every token value replaced by ``[redacted]``."""
    return _SECRET.sub(r"\1[redacted]", text)


def _scrubbed(value: Any) -> Any:
    return scrub(value) if isinstance(value, str) else value


class TokenScrubber(logging.Filter):
    """Rewrites tokens out of a record's message and its string arguments (keeping their
    number and order, which uvicorn's access formatter relies on)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = scrub(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_scrubbed(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _scrubbed(v) for k, v in record.args.items()}
        return True


def install_token_scrubber(names: tuple[str, ...] = LOGGERS) -> None:
    """Put one :class:`TokenScrubber` on each logger named and each of its handlers (once)."""
    for name in names:
        logger = logging.getLogger(name)
        for target in (logger, *logger.handlers):
            if not any(isinstance(f, TokenScrubber) for f in target.filters):
                target.addFilter(TokenScrubber())
