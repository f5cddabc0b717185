"""Server settings, read once from the environment (``CROUPIER_*``) or passed in by the caller.

Nothing here is read at import time: :func:`croupier.server.app.create_app` takes a
:class:`Settings` and builds the database engine and the tables from it.
"""

from __future__ import annotations

import secrets
from pathlib import Path

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["Settings", "default_database_url"]


def default_database_url() -> str:
    """A SQLite file ``croupier.db`` in the current working directory."""
    return f"sqlite:///{Path.cwd() / 'croupier.db'}"


class Settings(BaseSettings):
    """Everything the server needs to start; every field has a working default."""

    model_config = SettingsConfigDict(env_prefix="CROUPIER_", extra="ignore")

    database_url: str = Field(default_factory=default_database_url)
    """SQLAlchemy URL: SQLite by default, ``postgresql+psycopg://...`` for PostgreSQL."""
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=0, le=65535)
    secret_key: SecretStr = Field(default_factory=lambda: SecretStr(secrets.token_urlsafe(32)))
    """Keys the HMAC under which session tokens are stored (a random one per start by default,
    which logs everybody out at restart; set ``CROUPIER_SECRET_KEY`` to keep sessions)."""
    session_ttl_seconds: int = Field(default=7 * 24 * 3600, gt=0)
    tables_config: Path | None = None
    """A tables TOML file; ``None`` uses the one shipped in the package."""
    operator_username: str | None = None
    """When set with ``operator_password``, an operator account ensured at start."""
    operator_password: SecretStr | None = None
    allow_registration: bool = True
    recover_on_start: bool = True
    """Void every round left open by a crash before the tables open (spec/uth.md, Faults)."""
    ws_compression: bool = False
    """Compress WebSocket frames (permessage-deflate). Off by default: table frames are small
    JSON, and with a thousand players at a live table compressing them took about a quarter
    of the server's event loop (py-spy during ``benchmarks/load_uth.py``)."""
    log_json: bool = False
    """Structured logs: one JSON object per line on stderr (``CROUPIER_LOG_JSON=true``)."""
    log_level: str = Field(default="info", pattern="^(?i)(debug|info|warning|error|critical)$")
    metrics_enabled: bool = True
    """Serve Prometheus metrics at ``/metrics``."""
