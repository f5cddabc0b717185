"""`croupier uth ...`: Ultimate Texas Hold'em at the terminal and the audit tools."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from croupier.chips import format_money
from croupier.cli.lines import Replayer, replay_files, settle_lines
from croupier.cli.rules import ConfigFile, Rules, build_config, read_rules
from croupier.cli.uth_play import play, table_config
from croupier.games.uth import Phase, UthConfig, UthRound, settle_line
from croupier.history import uth as uth_history

__all__ = ["app", "play", "table_config"]

app = typer.Typer(
    help="Ultimate Texas Hold'em: play at the terminal, audit settlement, replay rounds.",
    no_args_is_help=True,
)


@app.command("settle")
def settle(config: ConfigFile = None, rule: Rules = None) -> None:
    """Settle known hands: JSON lines on stdin, one JSON line per hand on stdout.

    In: {"player": "AsKd", "dealer": "7c7d", "board": "2h3h4h5s9c", "ante": 1000,
    "trips": 500, "action": "4x"} (action 4x/3x pre-flop, 2x flop, 1x river, or fold, or
    the table's play_multiples; amounts in minor units). The table's pay tables and options
    come from --config and --rule (--rule trips_needs_win=true). Out: the player's net per
    bet, {"ante": ..., "blind": ..., "play": ..., "trips": ..., "total": ...}, or
    {"error": "..."}.
    """
    table = table_config(config, rule)
    out = sys.stdout
    for line in settle_lines(sys.stdin, lambda data: settle_line(data, table)):
        out.write(line + "\n")
    out.flush()


def _confirmations(rnd: UthRound) -> list[str]:
    if rnd.phase is Phase.VOIDED:
        return ["void round confirmed, every stake returned"]
    lines = [
        f"seat {seat} net {format_money(result.net)} confirmed"
        for seat, result in sorted(rnd.results.items())
    ]
    house = -sum(r.net for r in rnd.results.values())
    return [*lines, f"settlement confirmed (house net {format_money(house)})"]


@app.command("replay")
def replay(
    records: Annotated[
        list[Path],
        typer.Argument(
            metavar="FILE",
            help="Round records (JSON): as stored, or as GET /api/rounds/{id} returns them; "
            "a JSON list or JSON lines of them.",
        ),
    ],
    config: ConfigFile = None,
    rule: Rules = None,
) -> None:
    """Re-run recorded rounds through the engine and confirm each settles as recorded.

    With --config or --rule the rounds are replayed under the record's table changed by
    those settings (what would these rounds have paid at that table?). Exit 0 when every
    record reproduces, 1 when one differs or cannot be read.
    """
    changes = read_rules(config, rule, game="uth")

    def replayed(data: Any) -> UthRound:
        if changes and isinstance(data.get("config"), dict):
            merged = read_rules(config, rule, game="uth", base=data["config"])
            data = {**data, "config": build_config(UthConfig.from_dict, merged).to_dict()}
        return uth_history.replay(data)

    game = Replayer(replayed, uth_history.differences, _confirmations)
    if not replay_files(records, game):
        raise typer.Exit(1)


app.command("play")(play)


def _register_analysis() -> None:
    from croupier.cli import uth_analysis

    uth_analysis.register(app)


_register_analysis()
