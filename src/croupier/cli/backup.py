"""`croupier backup`: back up and restore the casino's database (docs/operations.md).

SQLite: ``create`` takes an online backup of the database (a running server's too) with
SQLite's backup API; ``restore`` puts one back in place of a database no server is using.
PostgreSQL: ``archive-settings`` prints the settings that archive every WAL segment; ``create``
takes a base backup (``pg_basebackup``) while the casino plays; ``pg-restore`` rebuilds a data
directory from a base backup and the archive, to its end or to a point in time, and with
``--start`` starts it and waits until it is promoted. After any restore, ``croupier serve``
voids the rounds the restore point caught in play, as after a crash.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

__all__ = ["app"]

app = typer.Typer(help="Back up and restore the casino's database.", no_args_is_help=True)

DatabaseOption = Annotated[
    str, typer.Option("--database", help="SQLAlchemy URL of the casino's database.")
]
PgBinOption = Annotated[
    Path | None, typer.Option("--pg-bin", help="PostgreSQL's programs (default: found).")
]


def _fail(exc: Exception) -> None:
    typer.echo(f"error: {exc}", err=True)
    raise typer.Exit(1)


def _print(data: object) -> None:
    typer.echo(json.dumps(data, indent=1, default=str))


@app.callback()
def _group() -> None:
    """Back up and restore the casino's database."""


@app.command("create")
def create(
    database: DatabaseOption,
    out: Annotated[
        Path,
        typer.Option("--out", help="The backup: a file (SQLite) or a new directory (PostgreSQL)."),
    ],
    pg_bin: PgBinOption = None,
) -> None:
    """An online backup: SQLite's backup API, or a PostgreSQL base backup."""
    from croupier.server.backup import postgres, sqlite

    try:
        if database.startswith("sqlite"):
            _print(sqlite.backup(database, out).to_json())
        else:
            _print(postgres.base_backup(database, out, pg_bin=pg_bin))
    except sqlite.BackupError as exc:
        _fail(exc)


@app.command("restore")
def restore(
    database: DatabaseOption,
    source: Annotated[
        Path,
        typer.Option("--from", help="A SQLite backup file, or a directory: its newest backup."),
    ],
) -> None:
    """Put a SQLite backup back (stop the server first); the database it replaces is kept."""
    from croupier.server.backup import sqlite

    try:
        chosen = sqlite.latest(source) if source.is_dir() else source
        _print(sqlite.restore(chosen, database))
    except sqlite.BackupError as exc:
        _fail(exc)


@app.command("archive-settings")
def archive_settings(
    archive: Annotated[Path, typer.Option("--archive", help="The WAL archive directory.")],
    timeout: Annotated[
        int, typer.Option("--timeout", help="archive_timeout, seconds: the most a lost disk loses.")
    ] = 60,
) -> None:
    """The postgresql.conf lines that archive every WAL segment (restart PostgreSQL after)."""
    from croupier.server.backup.postgres import archive_settings as settings

    for key, value in settings(archive, timeout_seconds=timeout).items():
        typer.echo(f"{key} = '{value}'")


@app.command("pg-restore")
def pg_restore(
    base: Annotated[Path, typer.Option("--base", help="A base backup (croupier backup create).")],
    archive: Annotated[Path, typer.Option("--archive", help="The WAL archive.")],
    pgdata: Annotated[Path, typer.Option("--pgdata", help="A new data directory.")],
    time: Annotated[str | None, typer.Option("--time", help="Stop at this ISO 8601 time.")] = None,
    xid: Annotated[str | None, typer.Option("--xid", help="Stop at this transaction id.")] = None,
    lsn: Annotated[str | None, typer.Option("--lsn", help="Stop at this WAL position.")] = None,
    before: Annotated[
        bool, typer.Option("--before", help="Stop just before the target, not after it.")
    ] = False,
    start_it: Annotated[
        bool, typer.Option("--start", help="Start it (pg_ctl) and wait until it is promoted.")
    ] = False,
    port: Annotated[int, typer.Option("--port", help="With --start: its port.")] = 5432,
    pg_bin: PgBinOption = None,
) -> None:
    """Rebuild a PostgreSQL data directory to the end of the archive or to a point in time."""
    from croupier.server.backup import postgres
    from croupier.server.backup.sqlite import BackupError

    target = postgres.Target(time=time, xid=xid, lsn=lsn, inclusive=not before)
    try:
        done = postgres.prepare_restore(base, archive, pgdata, target=target)
        if start_it:
            sockets = pgdata / "run"
            sockets.mkdir(exist_ok=True)
            done["started"] = postgres.start(
                pgdata, port=port, socket_dir=sockets, log=pgdata / "restore.log", pg_bin=pg_bin
            )
    except BackupError as exc:
        _fail(exc)
    _print(done)
    if not start_it:
        typer.echo(
            f"now start it as its owner (pg_ctl -D {pgdata} start, or pg_ctlcluster); it "
            "replays the archive, then is promoted",
            err=True,
        )
