"""`croupier run`: the main job on the embedded defaults (what `make run` starts)."""

from __future__ import annotations

import typer

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    """Add the ``run`` command to ``app``."""

    @app.command("run")
    def run(
        host: str = typer.Option("127.0.0.1", help="Interface to listen on."),
        port: int = typer.Option(8000, help="Port to listen on."),
    ) -> None:
        """Start the casino server with the default tables, SQLite database and browser client,
        in demo mode (the cashier gives play money)."""
        serve = next(c.callback for c in app.registered_commands if c.name == "serve")
        assert serve is not None, "croupier serve must be registered before run"
        serve(
            config=None,
            database=None,
            host=host,
            port=port,
            static=None,
            api_docs=None,
            demo=True,
        )
