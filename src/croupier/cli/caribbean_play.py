"""`croupier caribbean play`: Caribbean Stud Poker against the house at the terminal.

Money is entered and shown in euros (the engine counts cents). A round is dealt only when
the bankroll covers the most it can cost (the Ante, the Raise and the progressive bet), so
the bankroll never goes below zero. The jackpot meter of a terminal table stands at
``--jackpot`` every round (no other players feed it).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.console import Console
from rich.markup import escape
from rich.prompt import Prompt
from rich.table import Table
from rich.text import Text

from croupier.cards import Card
from croupier.chips import Chips, format_money, parse_money
from croupier.cli.rules import ConfigFile, Rules, build_config, read_rules
from croupier.cli.session import Leave, Way, replay_line, run_session, session_seed
from croupier.errors import CroupierError, NotationError
from croupier.games.caribbean import (
    BoxResult,
    CaribbeanConfig,
    CaribbeanRound,
    Comparison,
    Deal,
    Fold,
    Outcome,
    Phase,
    PlaceBets,
    Raise,
)

if TYPE_CHECKING:
    from croupier.deck import NumpySource

__all__ = ["play", "table_config"]

_SUIT_STYLE = {0: "green", 1: "blue", 2: "red", 3: "white"}  # four-colour deck


def table_config(config: Path | None, rule: list[str] | None) -> CaribbeanConfig:
    """The table of ``--config`` and ``--rule``: every setting of :class:`CaribbeanConfig`."""
    return build_config(CaribbeanConfig.from_dict, read_rules(config, rule, game="caribbean"))


def _cards(cards: tuple[Card, ...], hidden: int = 0) -> Text:
    """Cards side by side in colour; ``hidden`` face-down cards before them."""
    text = Text()
    for _ in range(hidden):
        text.append(" ▒▒ ", style="bold white on dark_blue")
        text.append(" ")
    for card in cards:
        style = f"bold {_SUIT_STYLE[card.suit]} on grey93"
        text.append(f" {card.rank.symbol}{card.suit.glyph} ", style=style)
        text.append(" ")
    return text


def _eur(amount: int) -> str:
    """An amount in cents as people read it: ``"€12.50"``."""
    sign = "-" if amount < 0 else ""
    return f"{sign}€{format_money(abs(amount))}"


def _euros(option: str, text: str) -> int:
    try:
        return parse_money(text)
    except NotationError:
        raise typer.BadParameter(
            f"{option} {text!r} is not an amount in euros (like 10 or 12.50)"
        ) from None


@dataclass
class _Session:
    console: Console
    config: CaribbeanConfig
    source: NumpySource
    seed: int
    bankroll: int
    balance: int
    ante: int
    progressive: bool
    jackpot: int
    records: Path | None
    played: int = 0
    wagered: int = 0
    won: int = 0
    round: CaribbeanRound | None = None
    """The round in play, until its result is added to the balance."""

    def worst_case(self, ante: int) -> int:
        """The most a round at ``ante`` can cost: the Ante, the Raise, the progressive."""
        side = (self.config.progressive_bet or 0) if self.progressive else 0
        return ante * (1 + self.config.raise_multiple) + side


def play(
    bankroll: str = typer.Option("1000.00", help="Starting bankroll, in euros."),
    ante: str = typer.Option("10.00", help="Default Ante in euros."),
    progressive: bool = typer.Option(
        False,
        help="Place the progressive bet every round (a table with one: --rule progressive_bet=100).",
    ),
    jackpot: str = typer.Option("10000.00", help="The jackpot meter, in euros."),
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
    """Play Caribbean Stud Poker against the house at the terminal.

    Leave with q, Ctrl-D or Ctrl-C: a round in play is folded, as a seat that runs out of
    time, and the session summary printed. The table is the rules' (Raise 2x Ante, the
    published pay table), or the one --config and --rule set (--rule max_payout=50000).
    """
    table = table_config(config, rule)
    balance = _euros("--bankroll", bankroll)
    default_ante = _euros("--ante", ante)
    meter = _euros("--jackpot", jackpot)
    if balance <= 0:
        raise typer.BadParameter(f"--bankroll {bankroll!r} must be more than 0")
    if not table.ante_min <= default_ante <= table.ante_max:
        raise typer.BadParameter(
            f"--ante {_eur(default_ante)} is outside the table's {_eur(table.ante_min)} to "
            f"{_eur(table.ante_max)}"
        )
    if progressive and table.progressive_bet is None:
        raise typer.BadParameter(
            "--progressive: this table has no progressive bet (--rule progressive_bet=100)"
        )
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
        progressive=progressive,
        jackpot=meter,
        records=records,
    )
    s.console.print(_rules_text(table))
    run_session(lambda: _play_rounds(s, hands), lambda way: _leave(s, way))


def _rules_text(config: CaribbeanConfig) -> str:
    pays = ", ".join(
        f"{line.category.label} {line.numerator}:{line.denominator}"
        for line in sorted(config.raise_paytable.lines, key=lambda ln: ln.category, reverse=True)
    )
    side = "" if config.progressive_bet is None else f"; progressive {_eur(config.progressive_bet)}"
    cap = "" if config.max_payout is None else f"; the Raise wins at most {_eur(config.max_payout)}"
    return (
        f"[bold]{escape(config.name)}[/bold]: Ante {_eur(config.ante_min)} to "
        f"{_eur(config.ante_max)}, Raise {config.raise_multiple}x Ante{side}{cap}. "
        f"The dealer qualifies with Ace-King or better.\nThe Raise pays: {pays}"
    )


def _ask(s: _Session, prompt: str) -> str:
    answer = Prompt.ask(prompt, default="", show_default=False, console=s.console).strip()
    if answer.lower() in ("q", "quit", "exit"):
        raise Leave
    return answer


def _ask_ante(s: _Session) -> int:
    while True:
        answer = _ask(s, f"Ante (Enter for {_eur(s.ante)}, q to quit)")
        try:
            stake = parse_money(answer) if answer else s.ante
        except NotationError:
            s.console.print(f"[red]{answer!r} is not an amount in euros (like 10 or 12.50)[/red]")
            continue
        low, high = s.config.ante_min, s.config.ante_max
        if not low <= stake <= high:
            s.console.print(
                f"[red]Ante {_eur(stake)} is outside the table's {_eur(low)} to {_eur(high)}[/red]"
            )
        elif s.worst_case(stake) > s.balance:
            s.console.print(
                f"[red]Ante {_eur(stake)} with its Raise needs {_eur(s.worst_case(stake))}; "
                f"you have {_eur(s.balance)}[/red]"
            )
        else:
            return stake


def _play_rounds(s: _Session, hands: int) -> None:
    from croupier.deck import Shoe, shuffled

    while hands == 0 or s.played < hands:
        if s.balance < s.worst_case(s.config.ante_min):
            s.console.print(
                f"[red]Bankroll {_eur(s.balance)} is below the "
                f"{_eur(s.worst_case(s.config.ante_min))} a round at the smallest Ante needs[/red]"
            )
            return
        s.console.print(f"\nBankroll [bold]{_eur(s.balance)}[/bold]")
        stake = _ask_ante(s)
        rnd = CaribbeanRound(s.config, Shoe(shuffled(s.source)), jackpot=s.jackpot)
        rnd.apply(PlaceBets(seat=0, ante=Chips(stake), progressive=s.progressive))
        rnd.apply(Deal())
        s.ante, s.round = stake, rnd
        s.played += 1
        _decide(s, rnd)
        _show_result(s, rnd)


def _hint(hand: tuple[Card, ...], up: Card, config: CaribbeanConfig) -> str:
    try:
        from croupier.analysis.caribbean import advise

        advice = advise(hand, up, paytable=config.raise_paytable, multiple=config.raise_multiple)
    except Exception as exc:  # the hint must never break the table
        return f"no hint: {exc}"
    raised, folded = advice.options
    return (
        f"Best: {advice.best}  (exact EV per Ante: raise {float(raised.ev):+.4f}, "
        f"fold {float(folded.ev):+.4f})"
    )


def _decide(s: _Session, rnd: CaribbeanRound) -> None:
    from croupier.evaluator import describe, evaluate

    while rnd.phase is Phase.DECIDING:
        view = rnd.view(0)
        assert view.upcard is not None
        s.console.print(Text("Dealer ").append_text(_cards((view.upcard,), hidden=4)))
        s.console.print(
            Text("You    ")
            .append_text(_cards(view.hand))
            .append(f"  {describe(evaluate(view.hand).value, kickers=True)}")
        )
        raise_bet = _eur(s.config.raise_multiple * s.ante)
        choice = _ask(s, escape(f"[r] raise {raise_bet} / [f] fold / [h] hint")).lower()
        if choice == "h":
            s.console.print(f"[cyan]{_hint(view.hand, view.upcard, s.config)}[/cyan]")
        elif choice in ("r", "raise"):
            rnd.apply(Raise(seat=0))
        elif choice in ("f", "fold"):
            rnd.apply(Fold(seat=0))
        else:
            s.console.print(f"[red]{choice!r} is not one of r, f, h[/red]")


def _verdict(result: BoxResult) -> str:
    from croupier.evaluator import versus

    you, dealer = result.player_value, result.dealer_value
    if result.comparison is Comparison.FOLD:
        return "You folded: the Ante is lost"
    if not result.dealer_qualifies:
        return "The dealer does not qualify (it needs Ace-King): Ante 1:1, the Raise pushes"
    match result.comparison:
        case Comparison.TIE:
            return "Tie: equal hands, both bets push"
        case Comparison.WIN:
            return f"You win: {versus(you, dealer)}"
    return f"The dealer wins: {versus(dealer, you)}"


def _show_result(s: _Session, rnd: CaribbeanRound) -> None:
    """Both hands in full, why they ended so, each bet; add the result to the bankroll."""
    from croupier.evaluator import describe

    result = rnd.results[0]
    s.console.print(
        Text("Dealer ")
        .append_text(_cards(rnd.dealer_cards))
        .append(f"  {describe(result.dealer_value, kickers=True)}")
    )
    s.console.print(
        Text("You    ")
        .append_text(_cards(rnd.hand(0)))
        .append(f"  {describe(result.player_value, kickers=True)}")
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
        from croupier.history import caribbean as history

        s.records.mkdir(parents=True, exist_ok=True)
        (s.records / f"caribbean-{s.played:05d}.json").write_text(
            json.dumps(history.record(rnd, round_id=f"{s.played}"), indent=2)
        )


def _result_table(result: BoxResult) -> Table:
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
    """Fold the round in play as a seat that runs out of time does (docs/rules.md), then
    print the session summary."""
    if way in (Way.INTERRUPTED, Way.END_OF_INPUT):
        s.console.print()  # end the line the prompt left open
    rnd = s.round
    if rnd is not None:
        try:
            if rnd.phase is Phase.DECIDING:
                s.console.print(
                    "You leave during the round: you fold, as a seat that runs out of time."
                )
                rnd.apply(Fold(seat=0, timeout=True))
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
    s.console.print(replay_line("caribbean play", s.seed))
