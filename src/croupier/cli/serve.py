"""`croupier serve`: the casino server (FastAPI + uvicorn) with its tables and wallet."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

__all__ = ["register"]


def _default_static() -> Path | None:
    """The browser client shipped in ``croupier/web/static``, when it is there."""
    try:
        from croupier.web import static_dir
    except ImportError:  # pragma: no cover - an install without the web client
        return None
    root = static_dir()
    return root if (root / "index.html").is_file() else None


ConfigOption = Annotated[
    Path | None,
    typer.Option(
        "--config",
        help="Tables TOML file (default: the tables shipped with croupier).",
        exists=True,
        dir_okay=False,
        readable=True,
    ),
]
DatabaseOption = Annotated[
    str | None,
    typer.Option(
        "--database",
        help="SQLAlchemy URL (default: sqlite file ./croupier.db; "
        "postgresql+psycopg://user:pass@host/db for PostgreSQL).",
    ),
]
HostOption = Annotated[str | None, typer.Option("--host", help="Interface to bind.")]
PortOption = Annotated[int | None, typer.Option("--port", help="TCP port.")]
StaticOption = Annotated[
    Path | None,
    typer.Option("--static", help="Directory served at / (default: the bundled web client)."),
]
ApiDocsOption = Annotated[
    bool | None,
    typer.Option(
        "--api-docs/--no-api-docs",
        help="Serve /docs, /redoc and /openapi.json (default: off, or CROUPIER_API_DOCS).",
    ),
]
RedisOption = Annotated[
    str | None,
    typer.Option(
        "--redis",
        help="Join a cluster through this Redis (redis://host:6379/0); needs a PostgreSQL "
        "--database shared by every process (default: one process, no Redis).",
    ),
]
NodeOption = Annotated[
    str | None,
    typer.Option("--node", help="This process's name in a cluster (default: host and pid)."),
]
DemoOption = Annotated[
    bool | None,
    typer.Option(
        "--demo/--no-demo",
        help="Demo mode: the cashier gives play money instead of taking deposit requests "
        "(default: off, or CROUPIER_DEMO; croupier run turns it on).",
    ),
]


def register(app: typer.Typer) -> None:
    """Add the ``serve`` command to ``app``."""

    @app.command("serve")
    def serve(
        config: ConfigOption = None,
        database: DatabaseOption = None,
        host: HostOption = None,
        port: PortOption = None,
        static: StaticOption = None,
        api_docs: ApiDocsOption = None,
        demo: DemoOption = None,
        redis: RedisOption = None,
        node: NodeOption = None,
    ) -> None:
        """Run the casino server: accounts, wallet, live tables over WebSockets.

        Settings not given here come from CROUPIER_* environment variables (for example
        CROUPIER_OPERATOR_USERNAME / CROUPIER_OPERATOR_PASSWORD create an operator,
        CROUPIER_SECRET_KEY keeps sessions across restarts).
        """
        overrides = {
            "tables_config": config,
            "database_url": database,
            "host": host,
            "port": port,
            "api_docs": api_docs,
            "demo": demo,
            "redis_url": redis,
            "node_id": node,
        }
        _run({k: v for k, v in overrides.items() if v is not None}, static)


def _run(overrides: dict[str, object], static: Path | None) -> None:
    """Build the app from the settings (the environment, then ``overrides``) and serve it."""
    import logging.config

    import uvicorn
    from rich.console import Console

    from croupier.errors import ConfigError
    from croupier.server.app import create_app
    from croupier.server.bodies import bounded_http, route_limits
    from croupier.server.logs import log_config
    from croupier.server.runtime import tune_gc
    from croupier.server.settings import Settings
    from croupier.server.tables.protocol import MAX_FRAME_BYTES

    settings = Settings(**overrides)  # type: ignore[arg-type]
    console = Console(stderr=True)
    try:
        application = create_app(settings, static_dir=static or _default_static())
    except ConfigError as exc:
        console.print(f"[red]croupier serve: {exc}[/red]")
        raise typer.Exit(2) from None
    where = settings.database_url.split("@")[-1]
    logging_config = log_config(json_lines=settings.log_json, level=settings.log_level)
    logging.config.dictConfig(logging_config)
    mode = ", demo mode: the cashier gives play money" if settings.demo else ""
    logging.getLogger("croupier.serve").info(
        "croupier serving on http://%s:%s (database %s%s)",
        settings.host,
        settings.port,
        where,
        mode,
    )
    tune_gc()  # server/runtime.py: the collector tuned for a live table's heap
    uvicorn.run(
        application,
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level.lower(),
        log_config=logging_config,
        ws_per_message_deflate=settings.ws_compression,
        # A client frame above the protocol's limit closes the socket (1009) as soon as
        # its header announces the size: it is never read whole (issue 13).
        ws_max_size=MAX_FRAME_BYTES,
        # A request's line and headers bounded in size and time, and a body announced too
        # large refused, before the application sees them (issue 27; server/bodies.py).
        http=bounded_http(
            head_bytes=settings.http_head_max_bytes,
            seconds=settings.http_read_seconds,
            limits=route_limits(settings),
        ),
        # X-Forwarded-For is believed only from CROUPIER_TRUSTED_PROXIES (the server's
        # own check, server/clients.py), never from whoever connects from 127.0.0.1.
        proxy_headers=False,
        server_header=False,
    )
