"""`croupier caribbean analyze | simulate | advise`: the mathematics of Caribbean Stud Poker."""

from __future__ import annotations

import json
import time
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from croupier.cli.rules import ConfigFile, Rules, build_config, read_rules
from croupier.errors import CroupierError
from croupier.evaluator import HandCategory
from croupier.games.caribbean import CaribbeanConfig

if TYPE_CHECKING:
    from croupier.analysis.caribbean import ExactResult

__all__ = ["advise", "analyze", "simulate"]

_console = Console()
_WIZARD = {"optimal": 1_041_372_912_372, "pair_or_better": 1_090_272_101_460,
           "ace_king_or_better": 1_132_600_203_540, "always": 3_310_360_338_060}  # fmt: skip
"""Wizard of Odds' published total loss over the 19,933,230,517,200 combinations."""


def _pct(x: Fraction | float) -> str:
    return f"{float(x) * 100:.4f} %"


def _summary(result: ExactResult, seconds: float) -> Table:
    table = Table(title=f"Caribbean Stud Poker, exact ({result.strategy} strategy)")
    for column in ("figure", "value", "exact"):
        table.add_column(column, justify="right" if column == "value" else "left")
    rows = [
        ("house edge per Ante", _pct(result.house_edge), result.house_edge),
        ("element of risk", _pct(result.element_of_risk), result.element_of_risk),
        ("EV per Ante", f"{float(result.ev_per_ante):+.6f}", result.ev_per_ante),
        ("average total bet (Antes)", f"{float(result.average_total_bet):.6f}", None),
        ("raises", _pct(result.raise_probability), result.raise_probability),
    ]
    for name, shown, exact in rows:
        table.add_row(name, shown, "" if exact is None else str(exact))
    table.add_row("combinations", f"{result.combinations:,}", "")
    table.add_row("total loss (Antes)", f"{float(result.total_loss):,.0f}", str(result.total_loss))
    published = _WIZARD.get(result.strategy)
    standard = result.multiple == 2 and len(result.deck) == 52
    if published is not None and standard:
        same = "the same" if result.total_loss == published else "DIFFERENT"
        table.add_row("Wizard of Odds, total loss", f"{published:,}", same)
    table.add_row("time", f"{seconds:.1f} s", "")
    return table


def _outcomes(result: ExactResult) -> Table:
    table = Table(title="Return table (per combination; return per Ante)")
    for column in ("event", "pays", "combinations", "probability", "return"):
        table.add_column(column, justify="left" if column == "event" else "right")
    n = result.combinations
    m = result.multiple
    rows: list[tuple[str, str, int, Fraction]] = []
    for category in reversed(HandCategory):
        line = result.paytable.line_for(category)
        assert line is not None
        odds = Fraction(line.numerator, line.denominator)
        won = 1 + m * odds
        rows.append((f"player wins, {category.label}", f"{line.numerator}:{line.denominator}",
                     result.wins[category], won))  # fmt: skip
    rows += [
        ("dealer does not qualify", "Ante 1:1", result.not_qualified, Fraction(1)),
        ("tie", "push", result.ties, Fraction(0)),
        ("fold", "", result.folds, Fraction(-1)),
        ("dealer wins", "", result.losses, Fraction(-1 - m)),
    ]
    for event, pays, count, net in rows:
        p = Fraction(count, n)
        table.add_row(event, pays, f"{count:,}", f"{float(p):.6f}", f"{float(p * net):+.6f}")
    table.add_row("total", "", f"{n:,}", "1", f"{float(result.ev_per_ante):+.6f}")
    return table


def _by_upcard(result: ExactResult) -> Table:
    table = Table(title="By the dealer's up card")
    for column in ("up card", "EV per Ante", "raises"):
        table.add_column(column, justify="right")
    ranks = sorted({c >> 2 for c in result.deck})
    for rank, ev, raised in zip(ranks, result.by_upcard, result.raises_by_upcard, strict=True):
        table.add_row("23456789TJQKA"[rank], f"{float(ev):+.6f}", _pct(raised))
    return table


def _table(config: Path | None, rule: list[str] | None) -> CaribbeanConfig:
    return build_config(CaribbeanConfig.from_dict, read_rules(config, rule, game="caribbean"))


def analyze(
    exact: Annotated[
        bool,
        typer.Option("--exact", help="Count every combination (about 15-60 s on 2 cores)."),
    ] = False,
    strategy: Annotated[
        str,
        typer.Option(
            "--strategy",
            help="optimal, or a fixed rule: pair_or_better, ace_king_or_better, always.",
        ),
    ] = "optimal",
    json_file: Annotated[
        Path | None, typer.Option("--json", help="Write every figure to this JSON file.")
    ] = None,
    write_data: Annotated[
        bool,
        typer.Option(
            "--write-data",
            help="Rewrite the shipped decision table and figures (the rules' table only).",
        ),
    ] = False,
    config: ConfigFile = None,
    rule: Rules = None,
) -> None:
    """House edge, element of risk and the optimal raise/fold decision for every player hand
    against every dealer up card, by full enumeration with card removal, as exact fractions.

    The Raise's pay table and multiple are the rules' (100, 50, 20, 7, 5, 4, 3, 2, 1, 1; two
    Antes), or those of --config and --rule (--rule raise_multiple=1). A maximum payout and
    the progressive are left out (they depend on the bet and the meter).
    """
    from croupier.analysis.caribbean import STRATEGIES, analyze_exact

    if not exact:
        _console.print("[yellow]add --exact to run the enumeration[/]")
        raise typer.Exit(code=2)
    if strategy not in STRATEGIES:
        raise typer.BadParameter(f"{strategy!r} is not one of {', '.join(STRATEGIES)}")
    table = _table(config, rule)
    start = time.perf_counter()
    with Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), TimeElapsedColumn(), console=_console
    ) as progress:
        task = progress.add_task("counting, up card by up card", total=13)
        result = analyze_exact(
            paytable=table.raise_paytable,
            multiple=table.raise_multiple,
            strategy=strategy,
            on_progress=lambda done, total: progress.update(task, completed=done, total=total),
        )
    seconds = time.perf_counter() - start
    _console.print(_summary(result, seconds))
    _console.print(_outcomes(result))
    _console.print(_by_upcard(result))
    if json_file is not None:
        data = result.to_json()
        data["seconds"] = seconds
        json_file.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        _console.print(f"wrote {json_file}")
    if write_data:
        from croupier.analysis.caribbean.strategy import write_strategy_data

        try:
            for path in write_strategy_data(result):
                _console.print(f"wrote {path}")
        except CroupierError as exc:
            raise typer.BadParameter(str(exc), param_hint="--write-data") from exc


def simulate(
    hands: Annotated[int, typer.Option("--hands", min=2, help="Rounds to play.")] = 10_000_000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the run (reproducible).")] = 0,
) -> None:
    """Play rounds by the shipped optimal strategy; the mean with its 95 % interval, beside
    the exact figure."""
    from croupier.analysis.caribbean import load_summary
    from croupier.analysis.caribbean import simulate as run

    start = time.perf_counter()
    with Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), TimeElapsedColumn(), console=_console
    ) as progress:
        task = progress.add_task("dealing", total=hands)
        result = run(
            hands,
            seed=seed,
            on_progress=lambda done, total: progress.update(task, completed=done, total=total),
        )
    seconds = time.perf_counter() - start
    exact = Fraction(load_summary()["exact"]["ev_per_ante"])
    low, high = result.ci_per_ante
    inside = "inside" if low < exact < high else "OUTSIDE"
    _console.print(
        f"{hands:,} rounds, seed {seed}: EV per Ante {result.ev_per_ante:+.5f} "
        f"(95 % {low:+.5f} to {high:+.5f}); exact {float(exact):+.5f}, {inside} the interval; "
        f"raised {result.raise_rate * 100:.2f} %; {seconds:.1f} s"
    )


def advise(
    hand: Annotated[str, typer.Argument(help="The player's five cards, like AsKdQh9c7d.")],
    upcard: Annotated[str, typer.Argument(help="The dealer's up card, like Ac.")],
    config: ConfigFile = None,
    rule: Rules = None,
) -> None:
    """The exact EV of raising and of folding a hand against an up card."""
    from croupier.analysis.caribbean import advise as count

    table = _table(config, rule)
    try:
        advice = count(hand, upcard, paytable=table.raise_paytable, multiple=table.raise_multiple)
    except CroupierError as exc:
        raise typer.BadParameter(str(exc)) from exc
    raised, folded = advice.options
    _console.print(
        f"raise {float(raised.ev):+.6f} ({raised.ev}), fold {float(folded.ev):+.6f}: "
        f"best {advice.best}; of {advice.dealer_hands:,} dealer hands {advice.not_qualified:,} "
        f"do not qualify, you beat {advice.wins:,}, tie {advice.ties:,}, lose to "
        f"{advice.losses:,}"
    )
