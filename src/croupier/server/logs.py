"""Logging: plain text or one JSON object per line, and never a secret in either.

:func:`log_config` is the ``logging.config.dictConfig`` that ``croupier serve`` hands to
uvicorn. Every handler carries :class:`RedactFilter`, which rewrites a record's message
before any formatter sees it: a session token in a WebSocket URL (``?token=...``, which
uvicorn's access log would print), a bearer header, a password or token field.

>>> redact('"WebSocket /ws/tables/uth?token=abc.DEF-12" 101')
'"WebSocket /ws/tables/uth?token=[redacted]" 101'
>>> redact('{"username": "bob", "password": "hunter22"}')
'{"username": "bob", "password": "[redacted]"}'
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import re
from typing import Any

__all__ = ["JsonFormatter", "RedactFilter", "log_config", "redact"]

_PATTERNS = (
    (re.compile(r"((?:access_)?token=)[^&\s\"']+", re.IGNORECASE), r"\1[redacted]"),
    (re.compile(r"(bearer\s+)[A-Za-z0-9._~+/=-]+", re.IGNORECASE), r"\1[redacted]"),
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


def redact(text: str) -> str:
    """``text`` with every token, bearer credential and password value replaced."""
    for pattern, replacement in _PATTERNS:
        text = pattern.sub(replacement, text)
    return text


class RedactFilter(logging.Filter):
    """Rewrites each record's message (arguments merged in) without secrets."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = redact(message)
        if cleaned != message or record.args:
            record.msg, record.args = cleaned, None
        return True


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
