"""`croupier holdem ...`: commands of the holdem game."""

from __future__ import annotations

import typer

__all__ = ["app"]

app = typer.Typer(help="Holdem commands.", no_args_is_help=True)
