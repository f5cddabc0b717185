"""`croupier uth ...`: Ultimate Texas Hold'em commands."""

from __future__ import annotations

import typer

__all__ = ["app"]

app = typer.Typer(help="Ultimate Texas Hold'em: play, settle, replay, analyze.", no_args_is_help=True)
