"""`croupier report daily`: the operator's daily figures per table, from the database."""

from __future__ import annotations

import datetime as dt
import json
from typing import Annotated, Literal

import typer

__all__ = ["app"]

app = typer.Typer(help="Reports for the operator and the regulator.", no_args_is_help=True)


@app.callback()
def _group() -> None:
    """Reports for the operator and the regulator."""


def _euros(cents: int) -> str:
    return f"{cents / 100:,.2f} €"


def _pct(value: float | None) -> str:
    return "" if value is None else f"{value:.4%}"


@app.command("daily")
def daily(
    date: Annotated[str, typer.Option("--date", help="The UTC day, YYYY-MM-DD.")],
    database: Annotated[
        str, typer.Option("--database", help="SQLAlchemy URL of the casino's database.")
    ],
    format: Annotated[
        Literal["table", "json", "csv"], typer.Option("--format", help="table, json or csv.")
    ] = "table",
) -> None:
    """Per table: rounds, players, wagered, paid, GGR, hold %, actual and theoretical return
    with its 95 % interval (the same figures as GET /api/operator/reports/daily). A UTH table
    with a Blind pay table other than the spec's runs the exact analysis here first."""
    from rich.console import Console
    from rich.table import Table

    from croupier.errors import CroupierError
    from croupier.server.db import Database
    from croupier.server.reports import daily as report
    from croupier.server.reports.theory import TheoryBook
    from croupier.server.tables.registry import theories

    console = Console(highlight=False)
    try:
        day = report.parse_day(date, today=dt.datetime.now(dt.UTC).date())
    except CroupierError as exc:
        raise typer.BadParameter(str(exc), param_hint="--date") from None
    db = Database(database)
    try:
        with (
            console.status("reading the day's rounds (and any exact analysis needed)"),
            db.sessions() as session,
        ):
            rows = report.daily_report(
                session, day=day, book=TheoryBook(inline=True), games=theories()
            )
    finally:
        db.dispose()
    if format == "json":
        print(json.dumps(report.to_json(rows, day=day), indent=1))
        return
    if format == "csv":
        print(report.to_csv(rows), end="")
        return
    shown = Table(title=f"Daily report {day} (UTC)")
    columns = (
        "table",
        "game",
        "rounds",
        "players",
        "wagered",
        "paid",
        "GGR",
        "hold",
        "return",
        "theory (95 % interval)",
    )
    for column in columns:
        shown.add_column(column, justify="left" if column in ("table", "game") else "right")
    for row in rows:
        figures = row.returns()
        theory = ""
        if figures is not None and figures.theoretical is not None:
            theory = f"{_pct(figures.theoretical)} ({_pct(figures.low)} – {_pct(figures.high)})"
        elif not row.rake_only:
            theory = row.status
        shown.add_row(
            row.table, row.game, f"{row.rounds:,}", f"{row.players:,}", _euros(row.wagered),
            _euros(row.paid), _euros(row.ggr), _pct(row.hold),
            "rake only" if figures is None else _pct(figures.actual), theory,
        )  # fmt: skip
    console.print(shown)
    if not rows:
        console.print(f"no round closed on {day}")
