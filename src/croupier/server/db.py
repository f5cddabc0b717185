"""Database engine, sessions and migrations. Built by the app factory, never at import.

:class:`Database` wraps one SQLAlchemy engine and its session factory. :func:`migrate`
applies the Alembic migrations shipped in ``croupier/server/migrations`` programmatically.

Statements of many rows (a live table's hundreds of stakes) take them as one JSON
parameter, :func:`json_rows`, instead of an ``executemany``: SQLAlchemy processes an
``executemany``'s parameters a row at a time in Python, and on PostgreSQL psycopg sends a
statement a row (or a long INSERT it parses again each time), where one JSON array of objects
is encoded by :mod:`json` in C into a statement whose text never changes.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    Engine,
    bindparam,
    column,
    create_engine,
    event,
    func,
    select,
    type_coerce,
)
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.types import TypeEngine

__all__ = [
    "MIGRATIONS_DIR",
    "Database",
    "downgrade",
    "is_postgres",
    "json_rows",
    "make_engine",
    "migrate",
]

MIGRATIONS_DIR = Path(__file__).with_name("migrations")


READ_ONLY = "croupier_read_only"
"""The execution option of :meth:`Database.reading`'s sessions."""


def make_engine(url: str, **kwargs: Any) -> Engine:
    """An engine for ``url``; SQLite gets foreign keys, WAL and a busy timeout."""
    if url.startswith("sqlite"):
        connect_args = {"check_same_thread": False, "timeout": 30}
        engine = create_engine(url, connect_args=connect_args, **kwargs)

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
            # Let SQLAlchemy issue BEGIN itself so "BEGIN IMMEDIATE" below takes the write lock.
            dbapi_conn.isolation_level = None
            cursor = dbapi_conn.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            if ":memory:" not in url and url not in {"sqlite://", "sqlite:///"}:
                cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.close()

        @event.listens_for(engine, "begin")
        def _sqlite_begin(conn: Any) -> None:
            # Writers serialise at BEGIN instead of failing on a read-to-write upgrade; a
            # session that only reads (Database.reading) takes no lock (WAL: it waits for
            # no writer, and no writer for it).
            reading = conn.get_execution_options().get(READ_ONLY)
            conn.exec_driver_sql("BEGIN DEFERRED" if reading else "BEGIN IMMEDIATE")

        return engine
    return create_engine(url, pool_pre_ping=True, **kwargs)


def _alembic(engine: Engine, run: Any) -> None:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        run(config)


def migrate(engine: Engine, *, revision: str = "head") -> None:
    """Upgrade the schema of ``engine``'s database to ``revision`` (Alembic, in process)."""
    from alembic import command

    _alembic(engine, lambda config: command.upgrade(config, revision))


def downgrade(engine: Engine, *, revision: str) -> None:
    """Downgrade the schema to ``revision`` (``"base"``: no tables at all)."""
    from alembic import command

    _alembic(engine, lambda config: command.downgrade(config, revision))


class Database:
    """One engine and its session factory."""

    __slots__ = ("engine", "readers", "sessions", "statements")

    def __init__(self, url: str, **engine_kwargs: Any) -> None:
        self.engine = make_engine(url, **engine_kwargs)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        self.readers = sessionmaker(
            self.engine.execution_options(**{READ_ONLY: True}), expire_on_commit=False
        )
        self.statements = (
            sessionmaker(
                self.engine.execution_options(isolation_level="AUTOCOMMIT"),
                expire_on_commit=False,
            )
            if self.engine.dialect.name == "postgresql"
            else self.readers
        )

    def migrate(self) -> None:
        """Bring the schema up to date (processes of a cluster starting together take turns:
        a PostgreSQL advisory lock)."""
        if self.engine.dialect.name != "postgresql":
            migrate(self.engine)
            return
        with self.engine.connect() as conn:
            conn.exec_driver_sql("SELECT pg_advisory_lock(7263000)")
            try:
                migrate(self.engine)
            finally:
                conn.exec_driver_sql("SELECT pg_advisory_unlock(7263000)")

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session whose transaction commits on success and rolls back on any error."""
        with self.sessions() as session, session.begin():
            yield session

    @contextmanager
    def reading(self) -> Iterator[Session]:
        """A session that only reads: on SQLite its transaction takes no lock (``BEGIN
        DEFERRED``; a write in it may fail as busy), elsewhere as :meth:`session`."""
        with self.readers() as session, session.begin():
            yield session

    @contextmanager
    def statement(self) -> Iterator[Session]:
        """A session for reads that are each one statement (one statement sees one snapshot
        of its own): on PostgreSQL outside any transaction -- no ``BEGIN``, no ``COMMIT``, two
        round trips fewer, which a busy owner's table waits for (issue 26's verification of
        prepaid holds); elsewhere as :meth:`reading`. Never for writes."""
        with self.statements() as session, session.begin():
            yield session

    def dispose(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()


def is_postgres(session: Session) -> bool:
    """Whether the session's database is PostgreSQL."""
    return session.get_bind().dialect.name == "postgresql"


def json_rows(name: str, *, postgres: bool, **columns: TypeEngine[Any]) -> Any:
    """The rows of the parameter ``name``, a list of objects keyed by column name, as a table
    called ``name`` with these typed columns: PostgreSQL's ``json_to_recordset`` (integers
    stay exact: JSON numbers are read as ``integer`` or ``bigint``, not floats), SQLite's
    ``json_each``. ``name`` may not be the name of a column its statement writes (SQLAlchemy
    keeps those names for its own parameters)."""
    rows = bindparam(name, type_=JSON())
    if postgres:
        typed = func.json_to_recordset(rows).table_valued(
            *(column(c, t) for c, t in columns.items())
        )
        return typed.render_derived(name=name, with_types=True)
    each = func.json_each(rows).table_valued("value")
    fields = [
        type_coerce(func.json_extract(each.c.value, f"$.{c}"), t).label(c)
        for c, t in columns.items()
    ]
    return select(*fields).select_from(each).subquery(name)
