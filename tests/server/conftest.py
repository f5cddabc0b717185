"""Fixtures for the server tests: databases (SQLite, and a PostgreSQL started here), users.

The PostgreSQL cluster is created once per test session with ``initdb`` on a temporary
directory and started with ``pg_ctl`` on a free port (as the ``postgres`` user when the suite
runs as root, since PostgreSQL refuses to run as root). Where no server binaries are found,
``scripts/install-postgres.sh`` installs them with apt-get. Each test gets a fresh database.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from croupier.server.accounts.models import Role, User
from croupier.server.accounts.service import register
from croupier.server.app import create_app
from croupier.server.db import Database
from croupier.server.tables.clock import ManualClock
from croupier.server.tables.config import TableConfig

UserFactory = Callable[..., int]
_TEMPLATE = "croupier_template"
REPO = Path(__file__).resolve().parents[2]

# The helpers shared by the test modules live next to this file (--import-mode=importlib
# does not put test directories on sys.path).
sys.path.insert(0, str(Path(__file__).parent))

from server_cluster import cluster_server, redis_process, redis_server  # noqa: E402
from server_testkit import (  # noqa: E402
    PASSWORD,
    Server,
    ServerFactory,
    ShoeStack,
    TestClient,
    make_settings,
    start_serve,
    test_tables,
)

__all__ = ["redis_server"]


@pytest.fixture(autouse=True)
def _cheap_password_hashing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Argon2 with minimal cost: the tests hash hundreds of passwords; production does not."""
    from argon2 import PasswordHasher

    from croupier.server.accounts import service

    monkeypatch.setattr(
        service, "_HASHER", PasswordHasher(time_cost=1, memory_cost=64, parallelism=1)
    )


def _pg_bin() -> Path | None:
    for candidate in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if (Path(candidate) / "initdb").exists() and (Path(candidate) / "pg_ctl").exists():
            return Path(candidate)
    initdb = shutil.which("initdb")
    if initdb and shutil.which("pg_ctl"):
        return Path(initdb).resolve().parent
    return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass(frozen=True, slots=True)
class PgCluster:
    port: int
    socket_dir: str

    def url(self, dbname: str) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{dbname}"

    def admin(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(
            f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres", autocommit=True
        ) as conn:
            conn.execute(sql)  # type: ignore[arg-type,unused-ignore]


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[PgCluster]:
    """A PostgreSQL server of our own for the whole session."""
    bindir = _pg_bin()
    if bindir is None:
        # One apt-get at a time: the other test workers may be installing too.
        subprocess.run(
            [
                "flock",
                "/tmp/croupier-apt.lock",
                "sh",
                str(REPO / "scripts" / "install-postgres.sh"),
            ],
            check=True,
        )
        bindir = _pg_bin()
    if bindir is None:
        pytest.fail("PostgreSQL could not be installed (scripts/install-postgres.sh)")
    base = tempfile.mkdtemp(prefix="croupier-pg-")
    data, sockets = os.path.join(base, "data"), os.path.join(base, "run")
    os.makedirs(sockets)
    prefix: list[str] = []
    if os.geteuid() == 0:
        pg = pwd.getpwnam("postgres")
        for path in (base, sockets):
            os.chown(path, pg.pw_uid, pg.pw_gid)
        prefix = ["runuser", "-u", "postgres", "--"]
    port = _free_port()
    subprocess.run(
        [
            *prefix,
            str(bindir / "initdb"),
            "-D",
            data,
            "-U",
            "postgres",
            "-A",
            "trust",
            "-E",
            "UTF8",
        ],
        check=True,
        capture_output=True,
    )
    options = (
        f"-p {port} -k {sockets} -c listen_addresses=127.0.0.1 -c fsync=off "
        "-c synchronous_commit=off -c full_page_writes=off -c max_connections=100"
    )
    pg_ctl = [*prefix, str(bindir / "pg_ctl"), "-D", data]
    subprocess.run(
        [*pg_ctl, "-o", options, "-l", os.path.join(base, "log"), "-w", "start"],
        check=True,
        capture_output=True,
    )
    cluster = PgCluster(port=port, socket_dir=sockets)
    # Every test database is a copy of this migrated template (much faster than migrating).
    cluster.admin(f"CREATE DATABASE {_TEMPLATE}")
    template = Database(cluster.url(_TEMPLATE))
    template.migrate()
    template.dispose()
    try:
        yield cluster
    finally:
        subprocess.run([*pg_ctl, "-m", "immediate", "-w", "stop"], capture_output=True)
        shutil.rmtree(base, ignore_errors=True)


def _sqlite_db(tmp_path: Path) -> Database:
    return Database(f"sqlite:///{tmp_path / 'croupier.db'}")


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A URL of an empty database, on each backend (``cluster``: PostgreSQL too)."""
    with _empty_database(request, sqlite=request.param == "sqlite", directory=tmp_path) as url:
        yield url


@contextmanager
def _empty_database(
    request: pytest.FixtureRequest, *, sqlite: bool, directory: Path
) -> Iterator[str]:
    """The URL of a new database: a SQLite file in ``directory``, or a PostgreSQL database
    copied from the migrated template (dropped on exit)."""
    if sqlite:
        yield f"sqlite:///{directory / 'croupier.db'}"
        return
    cluster: PgCluster = request.getfixturevalue("pg_cluster")
    name = f"t_{uuid.uuid4().hex[:12]}"
    cluster.admin(f"CREATE DATABASE {name} TEMPLATE {_TEMPLATE}")
    try:
        yield cluster.url(name)
    finally:
        cluster.admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
def db(db_url: str) -> Iterator[Database]:
    """A migrated database on each backend."""
    database = Database(db_url)
    database.migrate()
    try:
        yield database
    finally:
        database.dispose()


@pytest.fixture
def make_user(db: Database) -> UserFactory:
    """A factory: ``make_user("alice", role=Role.OPERATOR) -> user id``."""

    def factory(username: str, *, role: Role = Role.PLAYER, password: str = PASSWORD) -> int:
        with db.session() as session:
            user: User = register(session, username=username, password=password, role=role)
            return user.id

    return factory


@pytest.fixture
def table_server(
    request: pytest.FixtureRequest, db_url: str, tmp_path: Path
) -> Iterator[ServerFactory]:
    """A factory: ``table_server(tables=None) -> Server``, the whole application with
    ``tables`` (default :func:`test_tables`), a manual clock and stackable shoes, on the
    test's database (SQLite or PostgreSQL), or through a two-process cluster when the test is
    parametrized ``db_url="cluster"`` (``server_cluster.THROUGH_CLUSTER``). Each further call
    builds another whole server on a database (and, for a cluster, a Redis) of its own."""
    cluster = (
        getattr(request.node, "callspec", None) is not None
        and request.node.callspec.params.get("db_url") == "cluster"
    )
    with ExitStack() as stack:
        built = 0

        def build(tables: list[TableConfig] | None = None) -> Server:
            nonlocal built
            built += 1
            url, here = db_url, tmp_path
            if built > 1:
                here = tmp_path / f"server-{built}"
                here.mkdir()
                sqlite = db_url.startswith("sqlite")
                url = stack.enter_context(_empty_database(request, sqlite=sqlite, directory=here))
            configs = test_tables() if tables is None else tables
            if cluster:
                redis_url = request.getfixturevalue("redis_server")
                if built > 1:
                    redis_url = stack.enter_context(redis_process())
                return stack.enter_context(_cluster(url, redis_url, here, configs))
            settings = make_settings(url)
            clock, shoes = ManualClock(), ShoeStack()
            app = create_app(settings, tables=configs, clock=clock, shoe_factory=shoes)
            client = stack.enter_context(TestClient(app))
            return Server(app=app, client=client, clock=clock, shoes=shoes, settings=settings)

        yield build


@contextmanager
def _cluster(url: str, redis_url: str, here: Path, tables: list[TableConfig]) -> Iterator[Server]:
    """The test's app (manual clock, stacked shoes) owning ``tables``, and a gateway process
    every request of the returned server goes through."""
    clock, shoes = ManualClock(), ShoeStack()

    def owner(changes: dict[str, object]) -> tuple[object, TestClient]:
        settings = make_settings(url).model_copy(update=changes)
        app = create_app(settings, tables=tables, clock=clock, shoe_factory=shoes)
        return app, TestClient(app)

    with cluster_server(url, redis_url, here, make_owner=owner, start_gateway=start_serve) as (
        app,
        client,
    ):
        settings = app.state.settings
        yield Server(app=app, client=client, clock=clock, shoes=shoes, settings=settings)  # type: ignore[arg-type]


@pytest.fixture
def server(table_server: ServerFactory) -> Server:
    """The whole application with :func:`test_tables` (SQLite and PostgreSQL); through a
    two-process cluster for a module marked ``server_cluster.THROUGH_CLUSTER``."""
    return table_server()
