"""`croupier uth play`: Ultimate Texas Hold'em against the house at the terminal.

Money is entered and shown in euros (the engine counts cents). A round is dealt only when
the bankroll covers the most it can cost (Ante, Blind, a 4x Play and Trips), so the bankroll
never goes below zero.
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.prompt import Prompt
from rich.table import Table
from rich.text import Text

from croupier.cards import Card
from croupier.chips import Chips, format_money, parse_money
from croupier.cli.rules import ConfigFile, Rules, build_config, read_rules
from croupier.cli.session import Leave, Way, replay_line, run_session, session_seed
from croupier.errors import CroupierError, NotationError
from croupier.games.paytables import PayTable
from croupier.games.uth import (
    AntesReturned,
    Comparison,
    Outcome,
    Phase,
    PlaceBets,
    Play,
    SeatResult,
    UthConfig,
    UthRound,
)
from croupier.games.uth.actions import price

if TYPE_CHECKING:
    from croupier.deck import NumpySource

__all__ = ["card_text", "cards_text", "play", "table_config"]

_SUIT_STYLE = {0: "green", 1: "blue", 2: "red", 3: "white"}  # four-colour deck


def _largest_play(config: UthConfig) -> int:
    """The largest Play multiple of the table (4 at the spec's)."""
    m = config.play_multiples
    return max(*m.preflop, *m.flop, *m.river)


def _worst_case(config: UthConfig, ante: int) -> int:
    """Ante, Blind and the largest Play (4x at the spec's table): the most a round at Ante
    ``ante`` costs besides Trips, at the engine's prices (spec/uth.md "Betting")."""
    largest = Play(seat=0, multiple=_largest_play(config))
    return int(price(PlaceBets(seat=0, ante=Chips(ante))) + price(largest, ante=ante))


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


@dataclass
class _Session:
    console: Console
    config: UthConfig
    source: NumpySource
    seed: int
    bankroll: int
    balance: int
    ante: int
    trips: int
    records: Path | None
    played: int = 0
    wagered: int = 0
    won: int = 0
    round: UthRound | None = None
    """The round in play, until its result is added to the balance."""


def _euros(option: str, text: str) -> int:
    """An amount given on the command line, in euros, as cents.

    Raises:
        typer.BadParameter: not an amount.
    """
    try:
        return parse_money(text)
    except NotationError:
        raise typer.BadParameter(
            f"{option} {text!r} is not an amount in euros (like 10 or 12.50)"
        ) from None


def _eur(amount: int) -> str:
    """An amount in cents as people read it: ``"€12.50"``."""
    sign = "-" if amount < 0 else ""
    return f"{sign}€{format_money(abs(amount))}"


def table_config(config: Path | None, rule: list[str] | None) -> UthConfig:
    """The table of ``--config`` and ``--rule``: every setting of :class:`UthConfig`."""
    return build_config(UthConfig.from_dict, read_rules(config, rule, game="uth"))


def _limit_refusal(name: str, amount: int, low: int, high: int, unit: int | None) -> str | None:
    """Why ``amount`` is outside the table limits ``low..high`` or off its bet unit (seed 003:
    bets are multiples of the base unit), in euros; or ``None``."""
    if amount < low:
        return f"{name} {_eur(amount)} is below the table minimum {_eur(low)}"
    if amount > high:
        return f"{name} {_eur(amount)} is above the table maximum {_eur(high)}"
    if unit and amount % unit:
        return f"{name} {_eur(amount)} is not a multiple of the table's bet unit {_eur(unit)}"
    return None


def play(
    bankroll: str = typer.Option("1000.00", help="Starting bankroll, in euros."),
    ante: str = typer.Option("10.00", help="Default Ante in euros (the Blind is the same)."),
    trips: str = typer.Option("0", help="Default Trips bet in euros (0 for none)."),
    hands: int = typer.Option(0, min=0, help="Stop after this many hands (0: until you quit)."),
    seed: int | None = typer.Option(
        None, help="Seed the shuffle (default: a new one from the OS, shown at the end)."
    ),
    records: Path | None = typer.Option(
        None, help="Write each round's JSON record into this folder."
    ),
    config: ConfigFile = None,
    rule: Rules = None,
) -> None:
    """Play Ultimate Texas Hold'em against the house at the terminal.

    Leave with q, Ctrl-D or Ctrl-C: a round in play is finished as a seat that runs out of
    time (check, then fold on the river) and the session summary printed. The table is the
    spec's casino table, or the one --config and --rule set (--rule dealing=seed000).
    """
    table = table_config(config, rule)
    balance = _euros("--bankroll", bankroll)
    if balance <= 0:
        raise typer.BadParameter(f"--bankroll {bankroll!r} must be more than 0")
    default_ante, default_trips = _euros("--ante", ante), _euros("--trips", trips)
    unit = table.bet_unit
    refusal = _limit_refusal("--ante", default_ante, table.ante_min, table.ante_max, unit)
    if refusal is None and default_trips:
        refusal = _limit_refusal("--trips", default_trips, table.trips_min, table.trips_max, unit)
    if refusal is not None:
        raise typer.BadParameter(refusal)
    seed = session_seed(seed)
    from croupier.deck import seeded_source

    s = _Session(
        console=Console(highlight=False),
        config=table,
        source=seeded_source(seed),
        seed=seed,
        bankroll=balance,
        balance=balance,
        ante=default_ante,
        trips=default_trips,
        records=records,
    )
    s.console.print(_rules_panel(table))
    run_session(lambda: _play_rounds(s, hands), lambda way: _leave(s, way))


_SHORT = {"Royal flush": "Royal", "Four of a kind": "Quads", "Three of a kind": "Trips"}


def _pays(table: PayTable) -> str:
    """``"Royal 500:1, Straight flush 50:1, ..."``: a pay table, best hand first."""
    lines = sorted(table.lines, key=lambda line: line.category, reverse=True)
    return ", ".join(
        f"{_SHORT.get(line.category.label, line.category.label)} "
        f"{line.numerator}:{line.denominator}"
        for line in lines
    )


def _rules_panel(config: UthConfig) -> Panel:
    return Panel.fit(
        f"[bold]{escape(config.name)}[/bold]  Ante {_eur(config.ante_min)} to "
        f"{_eur(config.ante_max)}, Trips {_eur(config.trips_min)} to {_eur(config.trips_max)}\n"
        f"Blind pays: {_pays(config.blind_paytable)}\n"
        f"Trips pays: {_pays(config.trips_paytable)}",
        title="croupier",
    )


def _ask(s: _Session, prompt: str) -> str:
    answer = Prompt.ask(prompt, default="", show_default=False, console=s.console).strip()
    if answer.lower() in ("q", "quit", "exit"):
        raise Leave
    return answer


def _play_rounds(s: _Session, hands: int) -> None:
    from croupier.deck import Shoe, shuffled

    smallest = _worst_case(s.config, s.config.ante_min)
    while hands == 0 or s.played < hands:
        if s.balance < smallest:
            s.console.print(
                f"[red]Bankroll {_eur(s.balance)} is below the {_eur(smallest)} "
                "a round at the smallest Ante needs (Ante, Blind and a 4x Play)[/red]"
            )
            return
        s.console.print(f"\nBankroll [bold]{_eur(s.balance)}[/bold]")
        stake = _ask_ante(s)
        side = _ask_trips(s, stake)
        rnd = UthRound(s.config, Shoe(shuffled(s.source)))
        rnd.place_bets(0, ante=stake, trips=side)
        rnd.close_betting()
        s.ante, s.trips, s.round = stake, side, rnd
        s.played += 1
        _decisions(s, rnd)
        _show_result(s, rnd)


def _ask_amount(s: _Session, prompt: str, default: int) -> int:
    """An amount in euros as cents; Enter for ``default``."""
    while True:
        answer = _ask(s, prompt)
        if not answer:
            return default
        try:
            return parse_money(answer)
        except NotationError:
            s.console.print(f"[red]{answer!r} is not an amount in euros (like 10 or 12.50)[/red]")


def _ask_ante(s: _Session) -> int:
    """The Ante (the Blind is the same), within the limits and the bankroll."""
    config = s.config
    while True:
        prompt = f"Ante (Enter for {_eur(s.ante)}, q to quit)"
        stake = _ask_amount(s, prompt, s.ante)
        refusal = _limit_refusal("Ante", stake, config.ante_min, config.ante_max, config.bet_unit)
        if refusal is None and _worst_case(s.config, stake) > s.balance:
            refusal = (
                f"Ante {_eur(stake)} with its Blind and a "
                f"{_largest_play(config)}x Play needs "
                f"{_eur(_worst_case(s.config, stake))}; you have {_eur(s.balance)}"
            )
        if refusal is None:
            return stake
        s.console.print(f"[red]{refusal}[/red]")


def _ask_trips(s: _Session, stake: int) -> int:
    """The Trips bet (0 for none), within its limits and what the bankroll leaves."""
    config = s.config
    free = s.balance - _worst_case(s.config, stake)
    while True:
        side = _ask_amount(s, f"Trips (Enter for {_eur(s.trips)}, 0 for none)", s.trips)
        refusal = None
        if side:
            refusal = _limit_refusal(
                "Trips", side, config.trips_min, config.trips_max, config.bet_unit
            )
        if refusal is None and side > free:
            refusal = (
                f"Trips {_eur(side)} is more than the {_eur(free)} left after "
                f"the Ante, the Blind and a {_largest_play(config)}x Play"
            )
        if refusal is None:
            return side
        s.console.print(f"[red]{refusal}[/red]")


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


def _decisions(s: _Session, rnd: UthRound) -> None:
    """Pre-flop, flop and river decisions until the player has bet Play or folded."""
    options = {"c": "check", "4": "4x", "3": "3x", "2": "2x", "1": "1x", "f": "fold"}
    while rnd.phase in (Phase.PREFLOP, Phase.FLOP, Phase.RIVER):
        view = rnd.view(0)
        s.console.print(Text("Dealer ").append_text(cards_text((), hidden=2)))
        if view.board:
            s.console.print(
                Text("Board  ").append_text(cards_text(view.board, hidden=5 - len(view.board)))
            )
        s.console.print(Text("You    ").append_text(cards_text(view.hole)))
        legal = {k: v for k, v in options.items() if v in view.legal}
        menu = escape(" / ".join(f"[{k}] {v}" for k, v in legal.items()) + " / [h] hint")
        choice = _ask(s, f"{view.phase.value.capitalize()}: {menu}").lower()
        if choice == "h":
            s.console.print(f"[cyan]{_hint(view.hole, view.board)}[/cyan]")
            continue
        action = legal.get(choice) or (choice if choice in view.legal else None)
        if action is None:
            s.console.print(f"[red]{choice!r} is not one of {', '.join(legal)}[/red]")
            continue
        if action == "check":
            rnd.check(0)
        elif action == "fold":
            rnd.fold(0)
        else:
            rnd.bet_play(0, int(action[0]))


def _verdict(result: SeatResult) -> str:
    """Why the Ante, Blind and Play ended as they did."""
    from croupier.evaluator import versus

    you, dealer = result.player_value, result.dealer_value
    match result.comparison:
        case Comparison.FOLD:
            return "You folded: Ante and Blind lost"
        case Comparison.TIE:
            return "Tie: equal hands, every main bet pushes"
        case Comparison.WIN:
            return f"You win: {versus(you, dealer)}"
    return f"The dealer wins: {versus(dealer, you)}"


def _show_result(s: _Session, rnd: UthRound) -> None:
    """Both hands in full, why they ended so, each bet; add the result to the bankroll."""
    from croupier.evaluator import describe

    result = rnd.results[0]
    s.console.print(Text("Board  ").append_text(cards_text(rnd.board)))
    qualifies = "" if result.dealer_qualifies else " (does not qualify: it needs a pair)"
    s.console.print(
        Text("Dealer ")
        .append_text(cards_text(rnd.dealer_cards))
        .append(f"  {describe(result.dealer_value, kickers=True)}{qualifies}")
    )
    s.console.print(
        Text("You    ")
        .append_text(cards_text(rnd.hole_cards(0)))
        .append(f"  {describe(result.player_value, kickers=True)}")
    )
    back = next((e.antes for e in rnd.events if isinstance(e, AntesReturned)), ())
    if any(seat == 0 for seat, _ in back):
        # seed 003: the dealer returns every Ante still in play first, right to left
        s.console.print(
            f"The dealer does not qualify: your Ante of {_eur(rnd.box(0).ante)} is returned first"
        )
    s.console.print(_verdict(result))
    s.console.print(_result_table(result))
    colour = "green" if result.net > 0 else "red" if result.net < 0 else "yellow"
    sign = "+" if result.net > 0 else ""
    s.console.print(f"[{colour}]Round: {sign}{_eur(result.net)}[/{colour}]")
    s.balance += result.net
    s.wagered += result.staked
    s.won += result.net
    s.round = None
    if s.records is not None:
        from croupier.history import uth as uth_history

        s.records.mkdir(parents=True, exist_ok=True)
        (s.records / f"uth-{s.played:05d}.json").write_text(
            json.dumps(uth_history.record(rnd, round_id=f"{s.played}"), indent=2)
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


def _leave(s: _Session, way: Way) -> None:
    """Finish the round in play as a seat that runs out of time does (spec/uth.md "Dealing
    and decisions": check pre-flop and on the flop, fold on the river), then print the
    session summary."""
    if way in (Way.INTERRUPTED, Way.END_OF_INPUT):
        s.console.print()  # end the line the prompt left open
    rnd = s.round
    if rnd is not None:
        try:
            if rnd.phase in (Phase.PREFLOP, Phase.FLOP, Phase.RIVER):
                s.console.print(
                    "You leave during the round: you check, and fold on the river, as a seat "
                    "that runs out of time."
                )
            while rnd.phase in (Phase.PREFLOP, Phase.FLOP, Phase.RIVER):
                if rnd.phase is Phase.RIVER:
                    rnd.fold(0, timeout=True)
                else:
                    rnd.check(0, timeout=True)
            if rnd.phase is Phase.SETTLED:
                _show_result(s, rnd)
        except CroupierError as exc:  # pragma: no cover - an interrupted engine call
            s.console.print(f"[red]the round could not be finished: {exc}[/red]")
    summary = Table(title="Session")
    for column in ("hands", "wagered", "won", "return"):
        summary.add_column(column, justify="right")
    returned = f"{100 * (s.wagered + s.won) / s.wagered:.2f} %" if s.wagered else "-"
    summary.add_row(str(s.played), format_money(s.wagered), format_money(s.won), returned)
    s.console.print(summary)
    change = s.balance - s.bankroll
    sign = "+" if change > 0 else ""
    s.console.print(f"Final bankroll {_eur(s.balance)} ({sign}{_eur(change)})")
    s.console.print(replay_line("uth play", s.seed))
