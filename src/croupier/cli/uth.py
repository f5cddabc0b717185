"""`croupier uth ...`: Ultimate Texas Hold'em at the terminal and the audit tools."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.prompt import Prompt
from rich.table import Table
from rich.text import Text

from croupier.cards import Card
from croupier.chips import format_money, parse_money
from croupier.deck import Shoe, seeded_source, shuffled
from croupier.errors import CroupierError
from croupier.evaluator import evaluate_ids
from croupier.games.uth import Outcome, Phase, SeatResult, UthConfig, UthRound
from croupier.games.uth.audit import audit_line, settle_mapping
from croupier.history.records import uth_record, verify_uth

__all__ = ["app", "play"]

app = typer.Typer(
    help="Ultimate Texas Hold'em: play at the terminal, audit settlement, replay rounds.",
    no_args_is_help=True,
)

_SUIT_STYLE = {0: "green", 1: "blue", 2: "red", 3: "white"}  # four-colour deck


def card_text(card: Card) -> Text:
    """A card drawn in colour: rank and suit symbol on a light face."""
    return Text(
        f" {card.rank.symbol}{card.suit.glyph} ", style=f"bold {_SUIT_STYLE[card.suit]} on grey93"
    )


def cards_text(cards: tuple[Card, ...], hidden: int = 0) -> Text:
    """Cards side by side; ``hidden`` face-down cards after them."""
    text = Text()
    for card in cards:
        text.append_text(card_text(card))
        text.append(" ")
    for _ in range(hidden):
        text.append(" ▒▒ ", style="bold white on dark_blue")
        text.append(" ")
    return text


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


def _result_table(result: SeatResult) -> Table:
    table = Table(show_header=True, header_style="bold")
    for column in ("bet", "stake", "result", "paid by"):
        table.add_column(column)
    for bet in result.bets:
        colour = {Outcome.WON: "green", Outcome.LOST: "red", Outcome.PUSH: "yellow"}[bet.outcome]
        sign = "+" if bet.net > 0 else ""
        note = bet.line + (f" (rounded down {bet.rounding})" if bet.rounding else "")
        if bet.capped:
            note += f" (capped by {format_money(bet.capped)})"
        table.add_row(
            bet.bet.value.capitalize(),
            format_money(bet.stake),
            f"[{colour}]{sign}{format_money(bet.net)}[/{colour}]",
            note,
        )
    return table


def _hint(hole: tuple[Card, ...], board: tuple[Card, ...]) -> str:
    try:
        advise = importlib.import_module("croupier.analysis.uth").advise
    except (ImportError, AttributeError):
        return "the strategy advisor is not installed"
    try:
        advice = advise(hole, board=board or None)
        options = sorted(advice.options, key=lambda o: o.ev, reverse=True)
    except Exception as exc:  # the hint must never break the table
        return f"no hint: {exc}"
    evs = ", ".join(f"{o.action} {float(o.ev):+.3f}" for o in options)
    return f"Best: {options[0].action}  (exact EV per Ante with optimal play after: {evs})"


@app.command("play")
def play(
    bankroll: str = typer.Option("1000.00", help="Starting bankroll."),
    ante: str = typer.Option("10.00", help="Default Ante (the Blind is the same)."),
    trips: str = typer.Option("0", help="Default Trips bet (0 for none)."),
    hands: int = typer.Option(0, help="Stop after this many hands (0: until you quit)."),
    seed: int | None = typer.Option(None, help="Seed the shuffle (default: the OS CSPRNG)."),
    records: Path | None = typer.Option(
        None, help="Write each round's JSON record into this folder."
    ),
) -> None:
    """Play Ultimate Texas Hold'em against the house at the terminal."""
    console = Console(highlight=False)
    config = UthConfig.casino()
    balance: int = parse_money(bankroll)
    default_ante, default_trips = parse_money(ante), parse_money(trips)
    source = seeded_source(seed) if seed is not None else None
    played = wagered = won = 0
    console.print(
        Panel.fit(
            f"[bold]Ultimate Texas Hold'em[/bold]  Ante {format_money(config.ante_min)}-{format_money(config.ante_max)}, "
            f"Trips {format_money(config.trips_min)}-{format_money(config.trips_max)}\n"
            "Blind pays: Royal 500:1, Straight flush 50:1, Quads 10:1, Full house 3:1, Flush 3:2, Straight 1:1\n"
            "Trips pays: Royal 50:1, Straight flush 40:1, Quads 30:1, Full house 8:1, Flush 7:1, Straight 4:1, Trips 3:1",
            title="croupier",
        )
    )
    while hands == 0 or played < hands:
        console.print(f"\nBankroll [bold]{format_money(balance)}[/bold]")
        answer = Prompt.ask(
            f"Ante (Enter for {format_money(default_ante)}, q to quit)",
            default="",
            show_default=False,
            console=console,
        )
        if answer.strip().lower() in ("q", "quit", "exit"):
            break
        try:
            stake = parse_money(answer) if answer.strip() else default_ante
            side_answer = Prompt.ask(
                f"Trips (Enter for {format_money(default_trips)})",
                default="",
                show_default=False,
                console=console,
            )
            side = parse_money(side_answer) if side_answer.strip() else default_trips
            if 2 * stake + side + 4 * stake > balance:
                raise CroupierError(
                    f"Ante {format_money(stake)} with a 4x Play and Trips needs {format_money(6 * stake + side)}; you have {format_money(balance)}"
                )
            if source is None:
                from croupier.server.rng import live_shoe

                shoe = live_shoe()
            else:
                shoe = Shoe(shuffled(source))
            rnd = UthRound(config, shoe)
            rnd.place_bets(0, ante=stake, trips=side)
            rnd.close_betting()
        except CroupierError as exc:
            console.print(f"[red]{exc}[/red]")
            continue
        default_ante, default_trips = stake, side
        played += 1
        while rnd.phase in (Phase.PREFLOP, Phase.FLOP, Phase.RIVER):
            view = rnd.view(0)
            console.print(Text("Dealer ").append_text(cards_text((), hidden=2)))
            if view.board:
                console.print(
                    Text("Board  ").append_text(cards_text(view.board, hidden=5 - len(view.board)))
                )
            console.print(Text("You    ").append_text(cards_text(view.hole)))
            options = {"c": "check", "4": "4x", "3": "3x", "2": "2x", "1": "1x", "f": "fold"}
            legal = {k: v for k, v in options.items() if v in view.legal}
            menu = escape(" / ".join(f"[{k}] {v}" for k, v in legal.items()) + " / [h] hint")
            choice = (
                Prompt.ask(f"{view.phase.value.capitalize()}: {menu}", console=console)
                .strip()
                .lower()
            )
            if choice == "h":
                console.print(f"[cyan]{_hint(view.hole, view.board)}[/cyan]")
                continue
            action = legal.get(choice) or (choice if choice in view.legal else None)
            if action is None:
                console.print(f"[red]{choice!r} is not one of {', '.join(legal)}[/red]")
                continue
            if action == "check":
                rnd.check(0)
            elif action == "fold":
                rnd.fold(0)
            else:
                rnd.bet_play(0, int(action[0]))
        result = rnd.results[0]
        board_ids = [c.id for c in rnd.board]
        player_desc = evaluate_ids([c.id for c in rnd.hole_cards(0)] + board_ids)
        from croupier.evaluator import describe

        console.print(Text("Board  ").append_text(cards_text(rnd.board)))
        console.print(
            Text("Dealer ")
            .append_text(cards_text(rnd.dealer_cards))
            .append(
                f"  {describe(result.dealer_value)}"
                + ("" if result.dealer_qualifies else " (does not qualify)")
            )
        )
        console.print(
            Text("You    ")
            .append_text(cards_text(rnd.hole_cards(0)))
            .append(f"  {describe(player_desc)}")
        )
        console.print(_result_table(result))
        colour = "green" if result.net > 0 else "red" if result.net < 0 else "yellow"
        console.print(
            f"[{colour}]Round: {'+' if result.net > 0 else ''}{format_money(result.net)}[/{colour}]"
        )
        balance += result.net
        wagered += result.staked
        won += result.net
        if records is not None:
            records.mkdir(parents=True, exist_ok=True)
            (records / f"uth-{played:05d}.json").write_text(
                json.dumps(uth_record(rnd, round_id=f"{played}"), indent=2)
            )
    summary = Table(title="Session")
    for column in ("hands", "wagered", "won", "return"):
        summary.add_column(column, justify="right")
    returned = f"{100 * (wagered + won) / wagered:.2f} %" if wagered else "-"
    summary.add_row(str(played), format_money(wagered), format_money(won), returned)
    console.print(summary)
    console.print(f"Final bankroll {format_money(balance)}")


def _register_analysis() -> None:
    from croupier.cli import uth_analysis

    uth_analysis.register(app)


_register_analysis()
