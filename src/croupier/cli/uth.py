"""`croupier uth ...`: Ultimate Texas Hold'em at the terminal and the audit tools."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import typer
from rich.console import Console

from croupier.chips import format_money
from croupier.cli.uth_play import play
from croupier.errors import CroupierError
from croupier.games.uth import Phase
from croupier.games.uth.audit import audit_line, settle_mapping
from croupier.history.records import verify_uth

__all__ = ["app", "play"]

app = typer.Typer(
    help="Ultimate Texas Hold'em: play at the terminal, audit settlement, replay rounds.",
    no_args_is_help=True,
)


@app.command("settle")
def settle() -> None:
    """Settle known hands: JSON lines on stdin, one JSON line per hand on stdout.

    In: {"player": "AsKd", "dealer": "7c7d", "board": "2h3h4h5s9c", "ante": 1000,
    "trips": 500, "action": "4x"} (action 4x/3x pre-flop, 2x flop, 1x river, or fold;
    amounts in minor units; default pay tables). Out: the player's net per bet,
    {"ante": ..., "blind": ..., "play": ..., "trips": ..., "total": ...}, or {"error": "..."}.
    """
    out = sys.stdout
    for raw in sys.stdin:
        line = raw.strip()
        if not line:
            continue
        try:
            data = json.loads(line)
            if not isinstance(data, dict):
                raise CroupierError("each line must be a JSON object")
            result: dict[str, Any] = dict(audit_line(settle_mapping(data)))
        except json.JSONDecodeError as exc:
            result = {"error": f"not JSON: {exc.msg} at column {exc.colno}"}
        except CroupierError as exc:
            result = {"error": str(exc)}
        out.write(json.dumps(result) + "\n")
    out.flush()


@app.command("replay")
def replay(record: Path = typer.Argument(..., help="A round record (JSON).")) -> None:
    """Re-run a recorded round through the engine and confirm its settlement."""
    console = Console()
    try:
        data = json.loads(record.read_text())
        rnd = verify_uth(data)
    except (OSError, json.JSONDecodeError, CroupierError) as exc:
        console.print(f"[red]{record}: {exc}[/red]")
        raise typer.Exit(1) from exc
    if rnd.phase is Phase.VOID:
        console.print(f"{record}: void round confirmed, every stake returned")
        return
    for seat, result in sorted(rnd.results.items()):
        console.print(f"{record}: seat {seat} net {format_money(result.net)} confirmed")
    console.print(
        f"[green]{record}: settlement confirmed[/green] (house net {format_money(-sum(r.net for r in rnd.results.values()))})"
    )


app.command("play")(play)


def _register_analysis() -> None:
    from croupier.cli import uth_analysis

    uth_analysis.register(app)


_register_analysis()
