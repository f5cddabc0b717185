"""`croupier rng audit`: the statistical battery over the shuffles the server dealt."""

from __future__ import annotations

import datetime as dt
import json
import math
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from rich.console import Console

    from croupier.analysis.rng import AuditReport
    from croupier.server.reports.decks import DeckSample

__all__ = ["app", "report_json"]

app = typer.Typer(help="Evidence that the shuffles are fair.", no_args_is_help=True)


@app.callback()
def _group() -> None:
    """Evidence that the shuffles are fair."""


def _day(value: str | None, option: str) -> dt.datetime | None:
    if value is None:
        return None
    try:
        day = dt.date.fromisoformat(value)
    except ValueError:
        raise typer.BadParameter(
            f"{value!r} is not a date (YYYY-MM-DD)", param_hint=option
        ) from None
    return dt.datetime.combine(day, dt.time(), tzinfo=dt.UTC)


def report_json(report: AuditReport, sample: DeckSample) -> dict[str, Any]:
    """The audit as JSON-ready data (the server's own form: the console shows the same)."""
    from croupier.server.reports.rng import report_json as as_json

    return as_json(report, sample)


def _plot(report: AuditReport, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 5.5), width_ratios=(1.1, 1))
    counts = report.counts.astype(float)
    expected = max(report.decks / counts.shape[1], 1e-9)
    residuals = (counts - expected) / math.sqrt(expected)
    image = left.imshow(residuals, cmap="coolwarm", vmin=-4, vmax=4, aspect="auto")
    left.set_title(f"card x position, standardised residuals ({report.decks:,} decks)")
    left.set_xlabel("position dealt (0 = top)")
    left.set_ylabel("card id (2c = 0 ... As = 51)")
    fig.colorbar(image, ax=left, shrink=0.8)
    names = [t.name for t in report.tests]
    scores = [
        -math.log10(max(t.p_value, 1e-300)) if t.p_value is not None else 0 for t in report.tests
    ]
    colours = ["tab:red" if t.passed is False else "tab:green" for t in report.tests]
    right.barh(np.arange(len(names)), scores, color=colours)
    right.set_yticks(np.arange(len(names)), names)
    right.invert_yaxis()
    threshold = -math.log10(1 - report.confidence)
    right.axvline(
        threshold, color="black", linestyle="--", label=f"fail above ({report.confidence:.0%})"
    )
    right.set_xlabel("-log10(p-value)")
    right.legend(loc="lower right")
    right.set_title("p-value of each test")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


@app.command("audit")
def audit(
    database: Annotated[
        str, typer.Option("--database", help="SQLAlchemy URL of the casino's database.")
    ],
    plot: Annotated[Path | None, typer.Option("--plot", help="Write the plot (PNG).")] = None,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Write the report as JSON.")
    ] = None,
    table: Annotated[str | None, typer.Option("--table", help="Only this table's rounds.")] = None,
    game: Annotated[str | None, typer.Option("--game", help="Only this game's rounds.")] = None,
    since: Annotated[
        str | None, typer.Option("--since", help="Rounds from this day (UTC).")
    ] = None,
    until: Annotated[
        str | None, typer.Option("--until", help="Rounds before this day (UTC).")
    ] = None,
    confidence: Annotated[
        float, typer.Option("--confidence", min=0.5, max=0.9999, help="Each test's level.")
    ] = 0.99,
) -> None:
    """Chi-square of card x position, runs and serial-correlation tests over every closed
    round's deck; exit 1 when a test fails."""
    from rich.console import Console

    start, end = _day(since, "--since"), _day(until, "--until")
    console = Console(highlight=False)
    sample, report = _run_battery(
        console, database, since=start, until=end, table=table, game=game, confidence=confidence
    )
    _show(console, report, sample, confidence=confidence)
    if json_out is not None:
        json_out.write_text(
            json.dumps(report_json(report, sample), indent=1) + "\n", encoding="utf-8"
        )
    if plot is not None:
        _plot(report, plot)
        console.print(f"plot written to {plot}")
    if report.passed is False:
        _record_failure(
            database, report_json(report, sample), table=table, game=game, since=since, until=until
        )
        raise typer.Exit(1)


def _record_failure(database: str, report: dict[str, object], **scope: object) -> None:
    """A failed audit is a significant event in the casino's audit chain (issue 30)."""
    from croupier.server.db import Database
    from croupier.server.reports.rng import record_failure

    db = Database(database)
    try:
        with db.session() as session:
            record_failure(session, report, actor="croupier-rng-audit", scope=scope)
    finally:
        db.dispose()


def _run_battery(
    console: Console,
    database: str,
    *,
    since: dt.datetime | None,
    until: dt.datetime | None,
    table: str | None,
    game: str | None,
    confidence: float,
) -> tuple[DeckSample, AuditReport]:
    """Read the decks (with a progress bar) and run the tests on them."""
    from rich.progress import Progress

    from croupier.analysis.rng import battery
    from croupier.server.db import Database
    from croupier.server.reports.decks import read_decks

    db = Database(database)
    try:
        with Progress(console=console, transient=True) as progress:
            reading = progress.add_task("reading decks", total=None)
            with db.sessions() as session:
                sample = read_decks(
                    session,
                    since=since,
                    until=until,
                    table=table,
                    game=game,
                    on_progress=lambda done, total: progress.update(
                        reading, completed=done, total=total
                    ),
                )
            testing = progress.add_task("testing", total=5)
            report = battery(
                sample.decks,
                confidence=confidence,
                on_progress=lambda name: progress.update(testing, advance=1, description=name),
            )
    finally:
        db.dispose()
    return sample, report


def _show(console: Console, report: AuditReport, sample: DeckSample, *, confidence: float) -> None:
    """The tests as a table, and the verdict."""
    from rich.table import Table

    shown = Table(title=f"RNG audit: {report.decks:,} decks ({sample.skipped} skipped)")
    for column in ("test", "statistic", "df", "p-value", f"at {confidence:.0%}"):
        shown.add_column(column, justify="left" if column == "test" else "right")
    for t in report.tests:
        verdict = {
            True: "[green]pass[/green]",
            False: "[red]FAIL[/red]",
            None: "[yellow]n/a[/yellow]",
        }[t.passed]
        shown.add_row(
            t.name,
            "" if math.isnan(t.statistic) else f"{t.statistic:.3f}",
            "" if t.df is None else str(t.df),
            "" if t.p_value is None else f"{t.p_value:.4g}",
            verdict if not t.note else f"{verdict} ({t.note})",
        )
    console.print(shown)
    overall = {
        True: "[green]PASS[/green]",
        False: "[red]FAIL[/red]",
        None: "[yellow]NOT ENOUGH DATA[/yellow]",
    }[report.passed]
    console.print(
        f"verdict {overall}; a perfect shuffler fails at least one of these tests in "
        f"{report.false_alarm_rate:.1%} of audits"
    )
