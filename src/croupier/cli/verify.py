"""`croupier verify`: the self-check of the installation (issue 30, GLI-19).

``--write`` makes the manifest (``scripts/install.sh`` and the Makefile run it at install):
the SHA-256 of every file of the installed package and the pay tables of each shipped table.
Without it, the installed files are checked against the manifest and, with ``--database``,
each table's pay tables in that database against what its audit log approved; every
difference is named, and the exit status is 1 when there is one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    """Add the ``verify`` command to ``app``."""

    @app.command("verify")
    def verify(
        write: Annotated[
            bool, typer.Option("--write", help="Make the manifest of the package as installed.")
        ] = False,
        manifest: Annotated[
            Path | None,
            typer.Option("--manifest", help="The manifest (default: in the installed package)."),
        ] = None,
        database: Annotated[
            str | None,
            typer.Option("--database", help="Also check this database's tables' pay tables."),
        ] = None,
        as_json: Annotated[bool, typer.Option("--json", help="The report as JSON.")] = False,
    ) -> None:
        """Check (or with --write, record) the installed files and pay tables."""
        from rich.console import Console

        console = Console(highlight=False)
        if write:
            _write(console, manifest)
            return
        report = _check(manifest, database)
        if as_json:
            console.print_json(json.dumps(report))
        else:
            _show(console, report)
        if not report["ok"]:
            raise typer.Exit(1)


def _write(console: object, path: Path | None) -> None:
    from croupier.server.integrity import manifest as files
    from croupier.server.integrity.paytables import shipped_tables

    built = files.build(tables=shipped_tables())
    target = files.write(built, path or files.default_path())
    console.print(  # type: ignore[attr-defined]
        f"manifest written: {target}\n{len(built.files)} files, {len(built.tables)} shipped "
        f"tables{' (editable install)' if built.editable else ''}; digest {built.digest()}"
    )


def _check(path: Path | None, database: str | None) -> dict[str, object]:
    from croupier.server.integrity import manifest as files

    if database is None:
        try:
            loaded = files.load(path or files.default_path())
        except (OSError, ValueError) as exc:
            return {"ok": False, "summary": f"no usable manifest: {exc}", "files": None}
        differences = files.check_files(loaded)
        return {
            "ok": differences.ok,
            "manifest": str(path or files.default_path()),
            "manifest_digest": loaded.digest(),
            "files": differences.to_json(),
            "tables": {},
            "summary": str(differences),
        }
    from sqlalchemy import select

    from croupier.server.db import Database
    from croupier.server.floor import store
    from croupier.server.floor.models import TableRow
    from croupier.server.integrity.check import check

    db = Database(database)
    try:
        with db.session() as session:
            rows = session.scalars(select(TableRow).order_by(TableRow.position))
            configs = {row.name: store.stored(row).config for row in rows}
            report = check(session, manifest_path=path, configs=configs)
    finally:
        db.dispose()
    return report.to_json()


def _show(console: object, report: dict[str, object]) -> None:
    out = console.print  # type: ignore[attr-defined]
    if report["ok"]:
        out(f"[green]as installed[/green]: {report['summary']}")
        return
    out(f"[red]MISMATCH[/red]: {report['summary']}")
    files = report.get("files")
    if isinstance(files, dict):
        for what in ("changed", "missing", "added"):
            for name in files.get(what, []):
                out(f"  {what:8} {name}")
    tables = report.get("tables")
    if isinstance(tables, dict):
        for table, lines in tables.items():
            for line in lines:
                out(f"  table {table}: {line}")
