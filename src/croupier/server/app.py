"""The application factory: ``create_app(settings) -> FastAPI``.

Nothing happens at import. At start-up (the lifespan) the app opens the database, applies
the migrations, voids every round a crash left open (spec/uth.md "Faults"), ensures the
configured operator, and starts one task per table; at shut-down it stops the tables (voiding
rounds still in play) and closes the database.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from sqlalchemy import text

from croupier.deck import Shoe
from croupier.errors import ConfigError
from croupier.server.accounts.passwords import PasswordHashing
from croupier.server.accounts.sessions import LiveSessions
from croupier.server.accounts.throttle import LoginThrottle
from croupier.server.bodies import BodyLimits, route_limits
from croupier.server.db import Database
from croupier.server.errors import install_error_handlers
from croupier.server.headers import SecurityHeaders
from croupier.server.logs import install_redaction
from croupier.server.settings import Settings
from croupier.server.tables.clock import Clock
from croupier.server.tables.config import TableConfig, load_tables

if TYPE_CHECKING:
    from croupier.server.floor.store import StoredTable

__all__ = ["create_app"]

log = logging.getLogger(__name__)


def create_app(
    settings: Settings | None = None,
    *,
    static_dir: Path | None = None,
    tables: Sequence[TableConfig] | None = None,
    clock: Clock | None = None,
    shoe_factory: Callable[[], Shoe] | None = None,
) -> FastAPI:
    """Build the server.

    Args:
        settings: everything configurable; ``Settings()`` (the environment) by default.
        static_dir: a directory of static files served at ``/`` (the browser client).
        tables: the table configs that seed an empty database (afterwards the database holds
            the tables as operators left them); by default read from
            ``settings.tables_config`` or the package's ``default_tables.toml``.
        clock: the tables' clock (tests pass a :class:`ManualClock`).
        shoe_factory: where shoes come from (the OS CSPRNG by default; tests may stack one).
    """
    settings = settings or Settings()
    _check_cluster(settings)
    configs = list(tables) if tables is not None else load_tables(settings.tables_config)
    lifespan = _lifespan(settings, configs, clock=clock, shoe_factory=shoe_factory)
    # The interactive API docs only when a setting enables them (off by default, issue 13).
    docs = settings.api_docs
    app = FastAPI(
        title="croupier",
        version="1",
        lifespan=lifespan,
        docs_url="/docs" if docs else None,
        redoc_url="/redoc" if docs else None,
        openapi_url="/openapi.json" if docs else None,
    )
    app.add_middleware(
        BodyLimits, limits=route_limits(settings), seconds=settings.http_read_seconds
    )
    # Added last, so outermost: the refusals of the limits above carry the headers too.
    app.add_middleware(SecurityHeaders, csp_exempt=("/docs", "/redoc") if docs else ())
    _set_state(app, settings)
    install_error_handlers(app)
    _include_routers(app)
    if static_dir is not None:
        from croupier.server.static import ClientFiles

        client = ClientFiles(directory=static_dir, html=True, max_age=settings.static_max_age)
        app.mount("/", client, name="static")
    return app


def _check_cluster(settings: Settings) -> None:
    """Refuse a cluster process that could not seal its bus (issue 27).

    Raises:
        ConfigError: ``redis_url`` without a ``bus_key``, or a key too short.
    """
    from croupier.server.cluster.seal import MIN_KEY_LENGTH

    if settings.redis_url is None:
        return
    key = settings.bus_key.get_secret_value() if settings.bus_key is not None else ""
    if not key:
        raise ConfigError(
            "a cluster process (CROUPIER_REDIS_URL) needs CROUPIER_BUS_KEY, the key every "
            "process of the cluster shares to seal the bus's messages: without it this "
            "process does not join"
        )
    if len(key) < MIN_KEY_LENGTH:
        raise ConfigError(
            f"CROUPIER_BUS_KEY has {len(key)} characters: it needs at least {MIN_KEY_LENGTH} "
            "(for example: python -c 'import secrets; print(secrets.token_urlsafe(32))')"
        )


def _lifespan(
    settings: Settings,
    configs: list[TableConfig],
    *,
    clock: Clock | None,
    shoe_factory: Callable[[], Shoe] | None,
) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """Start-up and shut-down: the database, crash recovery, the operator, the tables."""
    from croupier.server.cluster.access import LocalAccess
    from croupier.server.operations import Operations
    from croupier.server.reports.router import start_theory
    from croupier.server.responsible.admission import ResponsibleAdmission
    from croupier.server.rng import live_shoe
    from croupier.server.tables.manager import TableManager
    from croupier.server.tables.registry import theories

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # After the server configured its logging: no log line may hold a token.
        install_redaction()
        cluster = settings.redis_url is not None
        if cluster and not settings.database_url.startswith("postgresql"):
            raise ConfigError(
                "a cluster (CROUPIER_REDIS_URL) needs a PostgreSQL database shared by every "
                f"process, not {settings.database_url.split(':')[0]}"
            )
        db = Database(settings.database_url)
        db.migrate()
        seeded = _recover(db, settings, configs, cluster=cluster)
        stored = [table.config for table in seeded]
        manager = TableManager(
            stored,
            db=db,
            clock=clock,
            shoe_factory=shoe_factory or live_shoe,
            closed={t.config.name for t in seeded if t.closed},
            admission=ResponsibleAdmission(),
            open_now=not cluster,
        )
        app.state.game_theories = theories()
        app.state.theory = start_theory(stored, app.state.game_theories)
        app.state.table_configs = stored
        for table in manager.tables.values():
            table.metrics = app.state.metrics
        app.state.db = db
        app.state.tables = manager
        operations = Operations(app, settings, db, manager)
        await operations.start(details={"tables": len(stored)})
        node = await _join(app, settings, db, manager) if cluster else None
        if node is None:
            app.state.access = LocalAccess(manager)
            manager.start()
        try:
            yield
        finally:
            if node is not None:
                await node.stop()
            await manager.stop()
            await operations.stop()
            app.state.password_hashing.close()
            app.state.theory.close()
            db.dispose()

    return lifespan


async def _join(app: FastAPI, settings: Settings, db: Database, manager: Any) -> Any:
    """Join the cluster of ``settings.redis_url`` (issue 18): this process's node."""
    import os
    import socket

    from croupier.server.cluster.bus import Bus, BusRefused, BusUnavailable
    from croupier.server.cluster.node import Node
    from croupier.server.cluster.seal import Seal

    name = settings.node_id or f"{socket.gethostname()}-{os.getpid()}"
    assert settings.redis_url is not None and settings.bus_key is not None
    password = settings.redis_password
    bus = Bus(
        settings.redis_url,
        node=name,
        heartbeat_seconds=settings.lease_seconds / 3,
        seal=Seal(settings.bus_key.get_secret_value(), max_age=settings.bus_max_age_seconds),
        username=settings.redis_username,
        password=password.get_secret_value() if password is not None else None,
    )
    node = Node(
        db=db,
        manager=manager,
        bus=bus,
        metrics=app.state.metrics,
        lease_seconds=settings.lease_seconds,
        request_timeout=settings.request_timeout_seconds,
    )
    try:
        await bus.ping()
        await bus.check_access()
        await node.start()
    except (BusUnavailable, BusRefused) as exc:
        await bus.close()
        raise ConfigError(f"cannot join the cluster: {exc}") from None
    app.state.node = node
    app.state.access = node.access
    node.access.attach(app.state.live_sessions)
    log.info("joined the cluster as %s", name)
    return node


def _recover(
    db: Database, settings: Settings, seed: list[TableConfig], *, cluster: bool = False
) -> list[StoredTable]:
    """Void the rounds a crash left open (spec/uth.md "Faults"), ensure the operator, and
    answer the tables: the database is the truth about them; ``seed`` (the TOML file) fills
    an empty one only.

    In a cluster the processes start together: they take turns here (an advisory lock), and
    none voids rounds at start -- each table's new owner voids what its last one left open
    (:mod:`croupier.server.cluster.node`)."""
    from croupier.server.accounts.service import ensure_operator
    from croupier.server.audit.service import audit_recovery
    from croupier.server.floor.store import load_or_seed
    from croupier.server.rounds.store import recover_open_rounds

    with db.session() as session:
        if db.engine.dialect.name == "postgresql":
            session.execute(text("SELECT pg_advisory_xact_lock(7263001)"))
        if settings.recover_on_start and not cluster:
            voided = recover_open_rounds(session)
            if voided:
                log.warning("voided %d round(s) left open by a crash: %s", len(voided), voided)
                audit_recovery(session, voided)
        if settings.operator_username and settings.operator_password:
            ensure_operator(
                session,
                username=settings.operator_username,
                password=settings.operator_password.get_secret_value(),
            )
        return load_or_seed(session, seed)


def _set_state(app: FastAPI, settings: Settings) -> None:
    """What every request shares: settings, metrics, live sessions, password hashing and
    the login and registration throttles."""
    from croupier.server.cashier.service import DemoCredits
    from croupier.server.metrics import Metrics

    app.state.settings = settings
    app.state.metrics = Metrics()
    app.state.demo_credits = DemoCredits(settings.demo_credit_seconds)
    app.state.live_sessions = LiveSessions()
    app.state.password_hashing = PasswordHashing(
        workers=settings.password_hash_workers, queue=settings.password_hash_queue
    )
    app.state.login_throttle = LoginThrottle(
        free_per_account=settings.login_free_per_account,
        free_per_address=settings.login_free_per_address,
        max_seconds=settings.login_max_backoff_seconds,
    )
    app.state.register_throttle = LoginThrottle(free_per_address=settings.login_free_per_address)
    app.state.floor_lock = threading.Lock()


def _include_routers(app: FastAPI) -> None:
    from croupier.server.accounts.router import operator_router as account_admin_router
    from croupier.server.accounts.router import router as accounts_router
    from croupier.server.audit.router import router as audit_router
    from croupier.server.cage.router import router as cage_router
    from croupier.server.cashier.router import router as cashier_router
    from croupier.server.floor.router import router as floor_router
    from croupier.server.monitor.router import router as monitor_router
    from croupier.server.ops import router as ops_router
    from croupier.server.reports.router import router as reports_router
    from croupier.server.responsible.router import router as responsible_router
    from croupier.server.significant.router import router as events_router
    from croupier.server.tables.advice import router as advice_router
    from croupier.server.tables.router import router as tables_router
    from croupier.server.wallet.router import router as wallet_router

    for router in (
        accounts_router,
        account_admin_router,
        wallet_router,
        tables_router,
        advice_router,
        audit_router,
        reports_router,
        floor_router,
        cage_router,
        responsible_router,
        ops_router,
        cashier_router,
        monitor_router,
        events_router,
    ):
        app.include_router(router)

    @app.get("/api/health", tags=["meta"])
    def health() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/api/client", tags=["meta"])
    def client_settings(request: Request) -> dict[str, bool]:
        """What the operator allows the browser client: ``turbo_pace`` (off by default)."""
        return {"turbo_pace": bool(request.app.state.settings.turbo_pace)}
