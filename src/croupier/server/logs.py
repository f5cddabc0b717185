"""Logging: plain text or one JSON object per line, and never a secret in either.

The protocol keeps tokens out of URLs (a socket authenticates with its first frame), but a
client may still put one in a query string, and uvicorn writes every request line -- with its
query string -- to its access log, and every WebSocket's path to its error log. So every
handler carries :class:`RedactFilter`, which rewrites a record's message and its string
arguments before any formatter sees them: a session token in a URL (``?token=...``), a bearer
header, a password, secret or token field.

:func:`log_config` is the ``logging.config.dictConfig`` that ``croupier serve`` hands to
uvicorn; :func:`install_redaction` puts the filter on loggers configured by someone else (an
app served by a test's uvicorn).

>>> redact("GET /ws/tables/uth?token=abc.DEF-123&x=1 HTTP/1.1")
'GET /ws/tables/uth?token=[redacted]&x=1 HTTP/1.1'
>>> redact("Authorization: Bearer abc.DEF-123")
'Authorization: Bearer [redacted]'
>>> redact('{"username": "bob", "password": "hunter22"}')
'{"username": "bob", "password": "[redacted]"}'
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import re
from typing import Any

__all__ = ["LOGGERS", "JsonFormatter", "RedactFilter", "install_redaction", "log_config", "redact"]

_PATTERNS = (
    (re.compile(r"((?:access_)?token=)[^\s&\"';,]+", re.IGNORECASE), r"\1[redacted]"),
    (re.compile(r"(bearer\s+)[^\s&\"';,]+", re.IGNORECASE), r"\1[redacted]"),
    (
        re.compile(
            r"""(["']?(?:password|passwd|secret|secret_key|access_token|token)["']?\s*[:=]\s*["']?)"""
            r"""[^"',&\s}]+""",
            re.IGNORECASE,
        ),
        r"\1[redacted]",
    ),
)
_STANDARD = set(logging.makeLogRecord({}).__dict__) | {"message", "asctime"}

LOGGERS = ("", "uvicorn", "uvicorn.error", "uvicorn.access", "websockets", "croupier")
"""The loggers (and their handlers) the filter is put on: the root, uvicorn's and ours."""


def redact(text: str) -> str:
    """``text`` with every token, bearer credential and password value replaced."""
    for pattern, replacement in _PATTERNS:
        text = pattern.sub(replacement, text)
    return text


def _redacted(value: Any) -> Any:
    return redact(value) if isinstance(value, str) else value


class RedactFilter(logging.Filter):
    """Rewrites secrets out of a record's message and its string arguments, keeping their
    number and order (uvicorn's access formatter unpacks them)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_redacted(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _redacted(v) for k, v in record.args.items()}
        return True


def install_redaction(names: tuple[str, ...] = LOGGERS) -> None:
    """Put one :class:`RedactFilter` on each logger named and each of its handlers (once)."""
    for name in names:
        logger = logging.getLogger(name)
        for target in (logger, *logger.handlers):
            if not any(isinstance(f, RedactFilter) for f in target.filters):
                target.addFilter(RedactFilter())


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (UTC), level, logger, message, and any extra fields."""

    def format(self, record: logging.LogRecord) -> str:
        data: dict[str, Any] = {
            "time": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": redact(record.getMessage()),
        }
        for key, value in record.__dict__.items():
            if key not in _STANDARD and not key.startswith("_"):
                data[key] = (
                    value if isinstance(value, int | float | bool | None) else redact(str(value))
                )
        if record.exc_info:
            data["exception"] = redact(self.formatException(record.exc_info))
        return json.dumps(data, ensure_ascii=False, default=str)


def log_config(*, json_lines: bool, level: str = "info") -> dict[str, Any]:
    """The logging configuration of the server (uvicorn's loggers and croupier's)."""
    formatter: dict[str, Any] = (
        {"()": JsonFormatter}
        if json_lines
        else {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}
    )
    handler = {
        "class": "logging.StreamHandler",
        "formatter": "main",
        "filters": ["redact"],
        "stream": "ext://sys.stderr",
    }
    level = level.upper()
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"redact": {"()": RedactFilter}},
        "formatters": {"main": formatter},
        "handlers": {"main": handler},
        "loggers": {
            name: {"handlers": ["main"], "level": level, "propagate": False}
            for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "croupier")
        },
        "root": {"handlers": ["main"], "level": level},
    }
