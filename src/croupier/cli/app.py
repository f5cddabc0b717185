"""Assemble the Typer application from the sub-command modules."""

from __future__ import annotations

import typer

from croupier.cli import (
    audit,
    backup,
    bench,
    bots,
    caribbean,
    holdem,
    protocol,
    report,
    rng,
    run,
    russian,
    serve,
    uth,
    verify,
)

__all__ = ["build_app"]


def build_app() -> typer.Typer:
    """The ``croupier`` application with every sub-command group registered."""
    app = typer.Typer(
        name="croupier",
        help="Casino poker: Ultimate Texas Hold'em, Texas Hold'em, Russian Poker and Caribbean Stud.",
        no_args_is_help=True,
        add_completion=False,
    )
    app.add_typer(uth.app, name="uth")
    app.add_typer(holdem.app, name="holdem")
    app.add_typer(russian.app, name="russian")
    app.add_typer(caribbean.app, name="caribbean")
    app.add_typer(bench.app, name="bench")
    app.add_typer(audit.app, name="audit")
    app.add_typer(backup.app, name="backup")
    app.add_typer(rng.app, name="rng")
    app.add_typer(report.app, name="report")
    serve.register(app)
    protocol.register(app)
    bots.register(app)
    run.register(app)
    verify.register(app)
    return app
