"""`croupier audit verify`: check the audit log's hash chain in a database."""

from __future__ import annotations

from typing import Annotated

import typer

__all__ = ["app"]

app = typer.Typer(help="The operator audit log.", no_args_is_help=True)


@app.callback()
def _group() -> None:
    """The operator audit log."""


@app.command("verify")
def verify(
    database: Annotated[
        str, typer.Option("--database", help="SQLAlchemy URL of the casino's database.")
    ],
    head: Annotated[
        str | None,
        typer.Option(
            "--head", help="A head hash noted earlier: also catches entries cut from the end."
        ),
    ] = None,
) -> None:
    """Check every entry's hash and link; name the first broken entry (exit 1)."""
    from rich.console import Console

    from croupier.server.audit.service import verify as verify_chain
    from croupier.server.db import Database

    console = Console(highlight=False)
    db = Database(database)
    try:
        with db.session() as session:
            result = verify_chain(session, expected_head=head)
    finally:
        db.dispose()
    if result.broken is not None:
        console.print(f"[red]audit chain BROKEN at {result.broken}[/red]")
        console.print(f"{result.entries} entries read before the check stopped")
        raise typer.Exit(1)
    console.print(f"[green]audit chain intact[/green]: {result.entries} entries")
    console.print(f"head {result.head}")
