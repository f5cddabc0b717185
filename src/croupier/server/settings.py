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
    ws_auth_seconds: float = Field(default=5.0, gt=0, le=300)
    """A table socket must authenticate (its first frame, ``{"type": "auth", ...}``) within
    this many seconds, or it is closed."""
    api_docs: bool = False
    """Serve the interactive API docs (``/docs``, ``/redoc``, ``/openapi.json``). Off by
    default: they map the whole API for anyone who asks."""
    http_body_max_bytes: int = Field(default=8_192, ge=256, le=16 * 2**20)
    """The largest HTTP request body (bytes) of every route but the operator's table rules:
    one above it is refused with 413 from its ``Content-Length``, or cut off as it streams
    (issue 27: the API's bodies are a few hundred bytes)."""
    http_rules_body_max_bytes: int = Field(default=65_536, ge=1_024, le=16 * 2**20)
    """The same for an operator's table rules (opening or changing a table)."""
    http_head_max_bytes: int = Field(default=16_384, ge=1_024, le=2**20)
    """The largest request line and headers of an HTTP request (bytes): past it, 431 and the
    connection closed (``croupier serve``'s HTTP protocol)."""
    http_read_seconds: float = Field(default=10.0, gt=0, le=300)
    """A request's line and headers, then its body, must each arrive within this: a head too
    slow closes the connection, a body too slow is refused with 408 (a client sending a
    byte now and then)."""
    trusted_proxies: list[str] = Field(default_factory=list)
    """Reverse proxies (addresses or networks, e.g. ``["127.0.0.1", "10.0.0.0/8"]``) whose
    ``X-Forwarded-For`` names the client. Empty by default: the client is the socket's peer
    and the header is ignored (anybody could write it)."""
    login_free_per_account: int = Field(default=5, ge=1)
    """Failed logins an account may have before each further attempt waits a back-off that
    doubles per failure (1 s, 2 s, 4 s ... up to ``login_max_backoff_seconds``)."""
    login_free_per_address: int = Field(default=20, ge=1)
    """The same, per client address (attempts in flight count as failures until they end)."""
    login_max_backoff_seconds: float = Field(default=900.0, gt=0)
    password_hash_workers: int = Field(default=2, ge=1, le=64)
    """Threads hashing and checking passwords (argon2: ~100 ms and 64 MiB each), off the
    event loop and off the request threads."""
    password_hash_queue: int = Field(default=32, ge=0)
    """Password checks allowed to wait for a thread; more are refused with 429."""
    log_json: bool = False
    """Structured logs: one JSON object per line on stderr (``CROUPIER_LOG_JSON=true``)."""
    log_level: str = Field(default="info", pattern="^(?i)(debug|info|warning|error|critical)$")
    metrics_enabled: bool = True
    """Serve Prometheus metrics at ``/metrics``."""
    demo: bool = False
    """Demo mode (``croupier run`` / ``make run``; ``croupier serve --demo``): the cashier
    gives play money (``demo_credit``) instead of taking deposit requests."""
    demo_credit: int = Field(default=100_000, gt=0)
    """Minor units a demo credit gives (at most up to ``demo_balance_cap``)."""
    demo_balance_cap: int = Field(default=100_000, gt=0)
    """A demo credit tops the balance up to this, never past it; at or above it, refused."""
    demo_credit_seconds: float = Field(default=30.0, ge=0)
    """A player waits this long between two demo credits."""
    deposit_min: int = Field(default=500, gt=0)
    deposit_max: int = Field(default=1_000_000, gt=0)
    """Bounds of one deposit request, minor units."""
    redis_url: str | None = None
    """Join a cluster (issue 18): several ``croupier serve`` processes sharing one PostgreSQL
    database and this Redis (``redis://host:6379/0``). ``None`` (the default): one process,
    every table in it, an in-process bus."""
    redis_username: str | None = None
    """The ACL user a cluster's processes are in Redis (``None``: Redis's default user)."""
    redis_password: SecretStr | None = None
    """Redis's password (``requirepass``, or the ACL user's; a password in ``redis_url``
    works too). A process refuses to join a Redis that answers without one (issue 27)."""
    bus_key: SecretStr | None = None
    """The key every process of a cluster shares, at least 32 characters: each message on
    the bus is sealed with it (HMAC-SHA256), and one whose seal does not hold is dropped. A
    process started with ``redis_url`` and without it refuses to start."""
    bus_max_age_seconds: float = Field(default=60.0, ge=5, le=3600)
    """A message on the bus older than this is dropped (and a replay of one is refused)."""
    node_id: str | None = None
    """This process's name in a cluster (default: host name and process id)."""
    lease_seconds: float = Field(default=5.0, ge=0.5, le=300)
    """A table's owner renews its lease this often three times; another process takes the
    table over once the lease has run out (a dead owner's tables move within about this)."""
    request_timeout_seconds: float = Field(default=10.0, gt=0, le=300)
    """In a cluster, a gateway answers a request the table's owner has not answered within
    this with an error (the owner died, or the bus is down)."""
    deposit_pending_max: int = Field(default=3, ge=1)
    """Deposit requests a player may have waiting at once."""
    turbo_pace: bool = False
    """Offer players a Turbo pace (the table's events shown without their pauses). Off by
    default: UKGC RTS 14E (January 2025) forbids features that speed up a casino game; an
    operator enables it only where the jurisdiction allows (``CROUPIER_TURBO_PACE=true``)."""
    static_max_age: int = Field(default=0, ge=0, le=31_536_000)
    """``Cache-Control: max-age`` of the browser client's files. 0 (the default): every use
    revalidates with the file's ETag (an unchanged file is a 304 of no body); raise it only
    where the files never change under the same name."""
    # -- operations (issue 30): significant events, the live return monitor, integrity --------
    win_alert: int | None = Field(default=100_000, gt=0)
    """A player's win in one round at or above this (minor units) is a significant event, at
    every table that does not set its own (``win_alert`` in its tables.toml entry); ``None``:
    only where a table sets one."""
    clock_step_seconds: float = Field(default=2.0, gt=0)
    """A step of the wall clock larger than this (against the monotonic clock) is a
    significant event."""
    clock_check_seconds: float = Field(default=10.0, gt=0)
    """How often the clocks are compared."""
    rtp_monitor: bool = True
    """Watch every table's return against its theory as rounds settle (docs/operations.md)."""
    rtp_monitor_process: bool = True
    """Run the monitor in a process of its own beside the server's (niced, so that valuing a
    live round never holds the interpreter the tables' event loop needs); ``false``: a thread
    of the server's process (an in-memory SQLite database always uses the thread)."""
    rtp_monitor_hang_seconds: float = Field(default=120.0, ge=5.0)
    """A monitor's process silent this long (it answers every second, working or not) is
    taken for hung: it is killed and another started, counted as a crash."""
    rtp_rounds_per_hour: float = Field(default=60.0, gt=0)
    """The round rate the monitor's alarm level is designed for: a table playing this many
    rounds an hour all year raises on average at most ``rtp_false_alarms_per_year`` false
    alarms a year (a faster table proportionally more)."""
    rtp_false_alarms_per_year: float = Field(default=1.0, gt=0)
    """Designed false alarms per table and year, all its streams and both sides together."""
    rtp_stake_bands: list[int] = Field(default_factory=lambda: [1_000, 10_000])
    """Bounds (minor units of a box's base stake) between the stake bands monitored apart:
    the default, below 10.00, 10.00 to 100.00 and from 100.00 up."""
    rtp_variance_margin: float = Field(default=2.0, ge=1.0)
    """The low side's bound on a round's second moment, in multiples of optimal play's
    variance: any way of playing UTH has at most 1.96 times it (docs/operations.md)."""
    rtp_play_allowance: float = Field(default=0.05, ge=0.0, le=1.0)
    """For a game whose theory cannot value each decision (Russian Poker), how far below
    optimal play's return (per unit of base stake) imperfect play may fall before the low
    side counts it against the table."""
    rtp_node_streams: bool = True
    """Also watch each server process's rounds together (a cluster's node)."""
    alert_webhook_url: str | None = None
    """An URL to which each monitor alert is POSTed as JSON (optional)."""
    integrity_check: bool = True
    """Check the installed files and the tables' pay tables against the manifest at start
    and every ``integrity_check_hours``; close every table on a mismatch."""
    integrity_check_hours: float = Field(default=24.0, ge=0)
    """Hours between checks after the one at start (0: at start only)."""
    integrity_manifest: Path | None = None
    """The manifest of SHA-256 digests (default: ``manifest.json`` in the installed
    package, written by ``croupier verify --write`` at install)."""
