"""`croupier run`: the main job on the embedded defaults (what `make run` starts)."""

from __future__ import annotations

import typer

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    """Add the ``run`` command to ``app``."""

    @app.command("run")
    def run() -> None:
        """Start the most useful thing croupier has: the terminal UTH table for now."""
        from croupier.cli.uth import play

        play()
