"""`croupier holdem ...`: replay PHH hand histories, settle showdowns, self-play bots, play
against bots.

Every table setting of :class:`~croupier.games.holdem.HoldemTableConfig` is reachable
through ``--config`` and ``--rule`` (:mod:`croupier.cli.rules`); a replay takes the settings
a hand history leaves to the table (the showdown and odd-chip rules, the split policy, the
rake) and refuses the ones the history fixes itself (the blinds, the stacks).
"""

from __future__ import annotations

import dataclasses
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from croupier.cli import holdem_play
from croupier.cli.holdem_play import make_bot, stakes_rules, table_config
from croupier.cli.lines import settle_lines
from croupier.cli.rules import ConfigFile, Rules, read_rules
from croupier.errors import CroupierError
from croupier.games.holdem import settle_line
from croupier.games.holdem.config import SplitPolicy
from croupier.history import holdem_phh as phh

if TYPE_CHECKING:
    from croupier.games.holdem import HoldemTableConfig
    from croupier.games.holdem.table import CashTable

__all__ = ["app"]

app = typer.Typer(help="Texas Hold'em cash games.", no_args_is_help=True)

_REPLAY_KEYS = {
    "showdown": "_showdown",
    "odd_chip": "_odd_chip",
    "split": "_split",
    "rake_percent": "_rake_percent",
    "rake_cap": "_rake_cap",
    "no_flop_no_drop": "_rake_no_flop_no_drop",
}
"""The table settings a replay takes, and the PHH user key each one sets."""


def _hands(path: Path) -> list[tuple[str, phh.HandHistory]]:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".phhs":
        return [(f"{path}[{i}]", hand) for i, hand in enumerate(phh.loads_all(text), 1)]
    return [(str(path), phh.loads(text))]


def _replay_fields(config: Path | None, rule: list[str] | None) -> dict[str, Any]:
    """The PHH user keys the ``--config`` / ``--rule`` settings set on every hand.

    Raises:
        typer.BadParameter: a setting the hand histories fix themselves, or a bad value.
    """
    rules = read_rules(config, rule, game="holdem")
    fixed = sorted(set(rules) - set(_REPLAY_KEYS) - {"name"})
    if fixed:
        raise typer.BadParameter(
            f"{fixed} are fixed by each hand history; a replay takes {sorted(_REPLAY_KEYS)}",
            param_hint="--config / --rule",
        )
    table = table_config(None, None, base=rules)
    values = {
        "showdown": table.showdown.value,
        "odd_chip": table.odd_chip.value,
        "split": table.split.value,
        "rake_percent": str(table.rake.percent),
        "rake_cap": table.rake.cap,
        "no_flop_no_drop": table.rake.no_flop_no_drop,
    }
    return {_REPLAY_KEYS[key]: values[key] for key in rules if key in _REPLAY_KEYS}


def _with_fields(hand: phh.HandHistory, fields: dict[str, Any]) -> phh.HandHistory:
    if not fields:
        return hand
    merged = {**dict(hand.fields), **fields}
    if "_rake_percent" in fields and merged.get("_rake_cap") is None:
        merged.pop("_rake_cap", None)
    return dataclasses.replace(hand, fields=tuple(merged.items()))


@app.command()
def replay(
    files: Annotated[list[Path], typer.Argument(help=".phh or .phhs files", exists=True)],
    split: Annotated[
        SplitPolicy | None,
        typer.Option(
            help="split policy: live (odd chip left of the button) or exact"
            " (default: the file's _split, else live)"
        ),
    ] = None,
    check: Annotated[
        bool, typer.Option("--check", help="compare with the files' finishing_stacks")
    ] = False,
    config: ConfigFile = None,
    rule: Rules = None,
) -> None:
    """Replay hands through the engine; print each hand's finishing stacks.

    --config and --rule set what a hand history leaves to the table: showdown, odd_chip,
    split, rake_percent, rake_cap, no_flop_no_drop (--rule odd_chip=suit).
    """
    fields = _replay_fields(config, rule)
    out = sys.stdout
    differences = errors = 0
    lines: list[str] = []
    for path in files:
        try:
            hands = _hands(path)
        except (CroupierError, OSError, UnicodeDecodeError) as exc:
            print(f"{path}\terror: {exc}", file=sys.stderr)
            errors += 1
            continue
        for name, hand in hands:
            line, differs, failed = _replay_hand(name, _with_fields(hand, fields), split, check)
            lines.append(line)
            differences += differs
            errors += failed
            if len(lines) >= 512:
                out.write("\n".join(lines) + "\n")
                lines.clear()
    if lines:
        out.write("\n".join(lines) + "\n")
    if differences or errors:
        print(f"{differences} hands differ, {errors} errors", file=sys.stderr)
        raise typer.Exit(1)


def _replay_hand(
    name: str, hand: phh.HandHistory, split: SplitPolicy | None, check: bool
) -> tuple[str, int, int]:
    """One hand's output line, and whether it differs from the file or failed."""
    expected = hand.finishing_stacks
    try:
        result = phh.replay(hand, split=split, strict=False)
    except CroupierError as exc:
        return f"{name}\terror: {exc}", 0, 1
    if result.unsettled is not None:
        # cards unknown at a contested showdown: nothing to print unless it was checked
        if check and expected is not None:
            print(f"{name}\tcannot be checked: {result.unsettled}", file=sys.stderr)
            return f"{name}\tunsettled: {result.unsettled}", 1, 0
        return f"{name}\tunsettled: {result.unsettled}", 0, 0
    stacks = result.finishing_stacks
    line = f"{name}\t{','.join(phh.format_amount(s) for s in stacks)}"
    if check and expected is not None and stacks != tuple(map(Fraction, expected)):
        want = ",".join(phh.format_amount(s) for s in expected)
        print(f"{name}\tdiffers from finishing_stacks {want}", file=sys.stderr)
        return line, 1, 0
    return line, 0, 0


@app.command()
def settle(config: ConfigFile = None, rule: Rules = None) -> None:
    """Settle known showdowns: JSON lines on stdin, one JSON line per showdown on stdout.

    In: {"board": "AhKh4c5s9c", "players": [{"cards": "AsKd", "put_in": 600},
    {"cards": "QsQd", "put_in": 600}, {"put_in": 200, "folded": true}]}, the players in
    position order (small blind first, button last); put_in is everything a player put in
    the pots. The rake, the odd chip and the split come from --config and --rule
    (--rule rake_percent=5 --rule rake_cap=300). Out: {"p1": net, ..., "rake": ...}, or
    {"error": "..."}.
    """
    table = table_config(config, rule)
    out = sys.stdout
    for line in settle_lines(sys.stdin, lambda data: settle_line(data, table)):
        out.write(line + "\n")
    out.flush()


def _chips(amount: int, unit: int) -> str:
    """An engine amount in chips, exactly (``2.5``, ``1/3``)."""
    return phh.format_amount(Fraction(amount, unit))


def _selfplay_hands(
    table: CashTable,
    rules: HoldemTableConfig,
    *,
    hands: int,
    kinds: list[str],
    seed: int,
    buy_in: int,
    record: bool,
) -> tuple[list[int], list[phh.HandHistory]]:
    """Play ``hands`` hands of bots at ``table``; each seat's buy-ins and the histories."""
    from croupier.deck import Shoe, seeded_source, shuffled
    from croupier.games.holdem.bots import play_hand

    source = seeded_source(seed)
    strategies = [make_bot(kind, source) for kind in kinds]
    players = len(kinds)
    buy_ins = [buy_in] * players
    histories: list[phh.HandHistory] = []
    for number in range(1, hands + 1):
        for seat, chips in enumerate(table.stacks):
            if chips == 0 or (rules.split is SplitPolicy.EXACT and chips != buy_in):
                # an exact split leaves fractions of a chip that a later pot could not divide
                # exactly (spec/holdem.md, Winning): every hand starts from the buy-in, as in
                # the Pluribus hands; the difference is settled into the seat's net
                table.set_stack(seat, buy_in)
                buy_ins[seat] += buy_in - chips
        hand = table.start_hand(shoe=Shoe(shuffled(source)), auto_showdown=True)
        positions = [table.seat_of(p) for p in range(hand.players)]
        play_hand(hand, [strategies[seat] for seat in positions])
        if record:
            histories.append(
                phh.from_hand(
                    hand,
                    hand=number,
                    seats=[seat + 1 for seat in positions],
                    seat_count=players,
                    players=[f"{kinds[seat]}-{seat + 1}" for seat in positions],
                )
            )
        table.end_hand(hand)
    return buy_ins, histories


@app.command()
def selfplay(
    hands: Annotated[int, typer.Option(help="number of hands", min=1)] = 100,
    players: Annotated[int, typer.Option(help="players at the table (2-10)", min=2, max=10)] = 6,
    seed: Annotated[int, typer.Option(help="seed of the shuffles and bots")] = 0,
    out: Annotated[Path | None, typer.Option(help="write the hands to this .phhs file")] = None,
    bots: Annotated[str, typer.Option(help="random, tag, or mix (tag and random)")] = "random",
    stack: Annotated[int, typer.Option(help="buy-in in chips (busted seats rebuy)", min=1)] = 200,
    small_blind: Annotated[int, typer.Option(min=0)] = 1,
    big_blind: Annotated[int, typer.Option(min=1)] = 2,
    ante: Annotated[int, typer.Option(min=0)] = 0,
    structure: Annotated[str, typer.Option(help="nl, pl or fl")] = "nl",
    split: Annotated[
        SplitPolicy,
        typer.Option(
            help="split policy: live (odd chip left of the button) or exact (every hand starts"
            " from the buy-in; amounts counted, and written, in 1/2520 of a chip;"
            " the file says _split = 'exact')"
        ),
    ] = SplitPolicy.LIVE,
    config: ConfigFile = None,
    rule: Rules = None,
) -> None:
    """Bots play a cash game against each other; optionally write every hand as PHH. The
    table's other settings come from --config and --rule (--rule showdown=any-muck)."""
    from rich.console import Console
    from rich.table import Table

    from croupier.games.holdem.table import CashTable

    base = stakes_rules(
        small_blind=small_blind, big_blind=big_blind, ante=ante, structure=structure, split=split
    )
    rules = table_config(config, rule, base=base)
    unit = rules.split.unit
    kinds = [
        ("tag" if seat % 2 == 0 else "random") if bots == "mix" else bots for seat in range(players)
    ]
    table = CashTable(rules.hand_config, stacks=[stack * unit] * players)
    started = time.perf_counter()
    buy_ins, histories = _selfplay_hands(
        table,
        rules,
        hands=hands,
        kinds=kinds,
        seed=seed,
        buy_in=stack * unit,
        record=out is not None,
    )
    elapsed = time.perf_counter() - started
    if out is not None:
        out.write_text(phh.dumps_all(histories), encoding="utf-8")
    console = Console()
    summary = Table(title=f"{hands} hands, {players} players, {hands / elapsed:,.0f} hands/s")
    for column, justify in (
        ("seat", "left"),
        ("bot", "left"),
        ("stack", "right"),
        ("net", "right"),
    ):
        summary.add_column(column, justify=justify)  # type: ignore[arg-type]
    for seat in range(players):
        net = table.stacks[seat] - buy_ins[seat]
        sign = "+" if net >= 0 else "-"
        summary.add_row(
            str(seat + 1),
            kinds[seat],
            _chips(table.stacks[seat], unit),
            sign + _chips(abs(net), unit),
        )
    console.print(summary)
    if out is not None:
        console.print(f"wrote {len(histories)} hands to {out}")


app.command("play")(holdem_play.play)
