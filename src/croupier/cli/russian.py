"""`croupier russian ...`: settle audit lines, replay round records, play at the terminal,
analyze the game.

Every table setting of :class:`~croupier.games.russian.RussianConfig` is reachable through
``--config`` and ``--rule`` (:mod:`croupier.cli.rules`); the older flags
(``--max-payout``, ``--rebuy-same-rank``, ``--duplicate-rank-straights``) are shortcuts for
three of them, applied before the ``--rule``s.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any, TextIO

import typer

from croupier.chips import format_money
from croupier.cli import russian_play
from croupier.cli.lines import Replayer, replay_files, settle_lines
from croupier.cli.rules import ConfigFile, Rules, build_config, read_rules
from croupier.cli.russian_analysis import analyze
from croupier.games.russian import DuplicateRankStraights, Phase, RussianConfig, RussianRound
from croupier.games.russian.audit import settle_line
from croupier.history import russian as russian_history
from croupier.history.records import to_json

__all__ = ["app", "settle_lines", "table_config"]

app = typer.Typer(help="Russian Poker: settle, replay, play, analyze.", no_args_is_help=True)

RebuySameRank = Annotated[
    bool | None,
    typer.Option(
        "--rebuy-same-rank/--no-rebuy-same-rank",
        help="Replace again a bought card of the replaced card's rank (rule rebuy_same_rank).",
        show_default=False,
    ),
]
Straights = Annotated[
    DuplicateRankStraights | None,
    typer.Option(
        help="How K-Q-J-T-9-9 is paid (rule duplicate_rank_straights).", show_default=False
    ),
]


def table_config(
    config: Path | None, rule: list[str] | None, *, base: dict[str, Any] | None = None
) -> RussianConfig:
    """The table of ``base``, then ``--config``, then ``--rule``: every setting of
    :class:`RussianConfig`."""
    return build_config(
        RussianConfig.from_dict, read_rules(config, rule, game="russian", base=base)
    )


def _shortcuts(
    *,
    max_payout: int | None = None,
    rebuy_same_rank: bool | None = None,
    duplicate_rank_straights: DuplicateRankStraights | None = None,
) -> dict[str, Any]:
    """The settings the older flags set (those given); no cap unless ``--max-payout``."""
    out: dict[str, Any] = {"max_payout": "none" if max_payout is None else max_payout}
    if rebuy_same_rank is not None:
        out["rebuy_same_rank"] = rebuy_same_rank
    if duplicate_rank_straights is not None:
        out["duplicate_rank_straights"] = duplicate_rank_straights.value
    return out


@app.command()
def settle(
    source: Annotated[
        Path | None, typer.Argument(help="JSON lines file; standard input when omitted.")
    ] = None,
    max_payout: Annotated[
        int | None, typer.Option(help="Cap on the Bet's win per box, in minor units.")
    ] = None,
    rebuy_same_rank: RebuySameRank = None,
    duplicate_rank_straights: Straights = None,
    config: ConfigFile = None,
    rule: Rules = None,
) -> None:
    """Settle boxes given as JSON lines; print the player's net per bet as JSON lines.

    In: {"player": "AhKhQhJhTh", "initial": "AhKhQhJh2c", "draw": "exchange",
    "dealer": "QsJd5c4h2d", "dealer_draws": "Kc7d", "ante": 100, "bonus": 0,
    "action": "bet", "insurance": 0, "buy": false}.
    Out: {"ante", "bet", "fee", "insurance", "bonus", "buy", "total"} or {"error": ...}.
    The table's options come from --config and --rule (--rule ante_pays_on_win=true).
    """
    base = _shortcuts(
        max_payout=max_payout,
        rebuy_same_rank=rebuy_same_rank,
        duplicate_rank_straights=duplicate_rank_straights,
    )
    table = table_config(config, rule, base=base)
    stream: TextIO = open(source, encoding="utf-8") if source else sys.stdin  # noqa: SIM115
    out = sys.stdout
    try:
        for line in settle_lines(stream, lambda data: settle_line(data, table)):
            out.write(line + "\n")
    finally:
        if source:
            stream.close()


def _confirmations(rnd: RussianRound) -> list[str]:
    if rnd.phase is Phase.VOIDED:
        return ["void round confirmed, every stake returned"]
    if rnd.phase is not Phase.SETTLED:
        return [f"replayed as recorded, unfinished in phase {rnd.phase}"]
    lines = []
    house = 0
    for box in rnd.boxes:
        net = rnd.settlement(box).net
        house -= net
        lines.append(f"box {box} (seat {rnd.seat_of(box)}) net {format_money(net)} confirmed")
    return [*lines, f"settlement confirmed (house net {format_money(house)})"]


@app.command()
def replay(
    files: Annotated[
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
    """Re-run recorded rounds through the engine and confirm each reproduces its record.

    With --config or --rule the rounds are replayed under the record's rules changed by
    those settings. Exit 0 when every record reproduces, 1 when one differs or cannot be
    read.
    """
    changes = read_rules(config, rule, game="russian")

    def replayed(data: Any) -> RussianRound:
        if changes and isinstance(data.get("rules"), dict):
            merged = read_rules(config, rule, game="russian", base=data["rules"])
            data = {**data, "rules": to_json(build_config(RussianConfig.from_dict, merged))}
        return russian_history.replay(data)

    game = Replayer(replayed, russian_history.differences, _confirmations)
    if not replay_files(files, game):
        raise typer.Exit(1)


app.command("play")(russian_play.play)
app.command("analyze")(analyze)
