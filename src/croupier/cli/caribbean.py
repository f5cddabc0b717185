"""`croupier caribbean ...`: Caribbean Stud Poker at the terminal, the audit tools and the
mathematics."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from croupier.chips import format_money
from croupier.cli import caribbean_analysis
from croupier.cli.caribbean_play import play, table_config
from croupier.cli.lines import Replayer, replay_files, settle_lines
from croupier.cli.rules import ConfigFile, Rules, build_config, read_rules
from croupier.games.caribbean import CaribbeanConfig, CaribbeanRound, Phase, settle_line
from croupier.history import caribbean as history

__all__ = ["app"]

app = typer.Typer(
    help="Caribbean Stud Poker: play at the terminal, audit settlement, replay rounds, "
    "analyze the game.",
    no_args_is_help=True,
)


@app.command("settle")
def settle(config: ConfigFile = None, rule: Rules = None) -> None:
    """Settle known hands: JSON lines on stdin, one JSON line per hand on stdout.

    In: {"player": "KsKd9c7h2s", "dealer": "AhKc8d5s3c", "ante": 1000, "action": "raise",
    "progressive": 100, "jackpot": 5000000} (action raise or fold; the dealer's five cards,
    the up card among them; progressive and jackpot optional: the table's progressive bet
    and the meter; amounts in minor units). The table comes from --config and --rule
    (--rule progressive_bet=100). Out: the player's net per bet, {"ante": ..., "raise": ...,
    "progressive": ..., "total": ...}, or {"error": "..."}.
    """
    table = table_config(config, rule)
    out = sys.stdout
    for line in settle_lines(sys.stdin, lambda data: settle_line(data, table)):
        out.write(line + "\n")
    out.flush()


def _confirmations(rnd: CaribbeanRound) -> list[str]:
    if rnd.phase is Phase.VOIDED:
        return ["void round confirmed, every stake returned"]
    if rnd.phase is not Phase.SETTLED:
        return [f"replayed as recorded, unfinished in phase {rnd.phase}"]
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
    those settings. Exit 0 when every record reproduces, 1 when one differs or cannot be read.
    """
    changes = read_rules(config, rule, game="caribbean")

    def replayed(data: Any) -> CaribbeanRound:
        if changes and isinstance(data.get("config"), dict):
            merged = read_rules(config, rule, game="caribbean", base=data["config"])
            data = {**data, "config": build_config(CaribbeanConfig.from_dict, merged).to_dict()}
        return history.replay(data)

    game = Replayer(replayed, history.differences, _confirmations)
    if not replay_files(records, game):
        raise typer.Exit(1)


app.command("play")(play)
app.command("analyze")(caribbean_analysis.analyze)
app.command("simulate")(caribbean_analysis.simulate)
app.command("advise")(caribbean_analysis.advise)
