"""`croupier russian ...`: commands of the russian game."""

from __future__ import annotations

import typer

__all__ = ["app"]

app = typer.Typer(help="Russian commands.", no_args_is_help=True)
