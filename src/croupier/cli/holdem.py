"""`croupier holdem ...`: replay PHH hand histories, self-play bots, play against bots."""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path
from typing import Annotated

import typer

from croupier.cli import holdem_play
from croupier.cli.holdem_play import make_bot, stakes
from croupier.errors import CroupierError
from croupier.games.holdem.config import SplitPolicy
from croupier.history import phh

__all__ = ["app"]

app = typer.Typer(help="Texas Hold'em cash games.", no_args_is_help=True)


def _hands(path: Path) -> list[tuple[str, phh.HandHistory]]:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".phhs":
        return [(f"{path}[{i}]", hand) for i, hand in enumerate(phh.loads_all(text), 1)]
    return [(str(path), phh.loads(text))]


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
) -> None:
    """Replay hands through the engine; print each hand's finishing stacks."""
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
            expected = hand.finishing_stacks
            try:
                result = phh.replay(hand, split=split, strict=False)
            except CroupierError as exc:
                lines.append(f"{name}\terror: {exc}")
                errors += 1
                continue
            if result.unsettled is not None:
                # cards unknown at a contested showdown: nothing to print unless it was checked
                lines.append(f"{name}\tunsettled: {result.unsettled}")
                if check and expected is not None:
                    print(f"{name}\tcannot be checked: {result.unsettled}", file=sys.stderr)
                    differences += 1
                continue
            stacks = result.finishing_stacks
            lines.append(f"{name}\t{','.join(phh.format_amount(s) for s in stacks)}")
            if check and expected is not None and stacks != tuple(map(Fraction, expected)):
                want = ",".join(phh.format_amount(s) for s in expected)
                print(f"{name}\tdiffers from finishing_stacks {want}", file=sys.stderr)
                differences += 1
            if len(lines) >= 512:
                out.write("\n".join(lines) + "\n")
                lines.clear()
    if lines:
        out.write("\n".join(lines) + "\n")
    if differences or errors:
        print(f"{differences} hands differ, {errors} errors", file=sys.stderr)
        raise typer.Exit(1)


def _chips(amount: int, unit: int) -> str:
    """An engine amount in chips, exactly (``2.5``, ``1/3``)."""
    return phh.format_amount(Fraction(amount, unit))


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
) -> None:
    """Bots play a cash game against each other; optionally write every hand as PHH."""
    import time

    from rich.console import Console
    from rich.table import Table

    from croupier.deck import Shoe, seeded_source, shuffled
    from croupier.games.holdem.bots import play_hand
    from croupier.games.holdem.table import CashTable

    config_for = stakes(
        players,
        small_blind=small_blind,
        big_blind=big_blind,
        ante=ante,
        structure=structure,
        split=split,
    )
    unit = split.unit
    buy_in = stack * unit
    source = seeded_source(seed)
    kinds = [
        ("tag" if seat % 2 == 0 else "random") if bots == "mix" else bots for seat in range(players)
    ]
    strategies = [make_bot(kind, source) for kind in kinds]
    table = CashTable(config_for, stacks=[buy_in] * players)
    buy_ins = [buy_in] * players
    histories: list[phh.HandHistory] = []
    started = time.perf_counter()
    for number in range(1, hands + 1):
        for seat, chips in enumerate(table.stacks):
            if chips == 0 or (split is SplitPolicy.EXACT and chips != buy_in):
                # an exact split leaves fractions of a chip that a later pot could not divide
                # exactly (spec/holdem.md, Winning): every hand starts from the buy-in, as in
                # the Pluribus hands; the difference is settled into the seat's net
                table.set_stack(seat, buy_in)
                buy_ins[seat] += buy_in - chips
        hand = table.start_hand(shoe=Shoe(shuffled(source)), auto_showdown=True)
        positions = [table.seat_of(p) for p in range(hand.players)]
        play_hand(hand, [strategies[seat] for seat in positions])
        if out is not None:
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
    elapsed = time.perf_counter() - started
    if out is not None:
        out.write_text(phh.dumps_all(histories), encoding="utf-8")
    console = Console()
    summary = Table(title=f"{hands} hands, {players} players, {hands / elapsed:,.0f} hands/s")
    summary.add_column("seat")
    summary.add_column("bot")
    summary.add_column("stack", justify="right")
    summary.add_column("net", justify="right")
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
