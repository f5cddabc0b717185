"""`croupier russian analyze --exact`: Russian Poker's exact return and optimal strategy.

The work (about half an hour of CPU for the spec's rules) runs in checkpointed chunks: with
``--workdir`` an interrupted run resumes where it stopped, and a finished one is summarised
again at once.
"""

from __future__ import annotations

import json
import time
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

if TYPE_CHECKING:
    from croupier.analysis.russian.exact import ClassSolution
    from croupier.analysis.russian.results import ExactResult
    from croupier.games.russian import RussianConfig

__all__ = ["run_exact"]


def _pct(x: Fraction) -> str:
    return f"{float(x) * 100:.5f}%"


def figures(result: ExactResult) -> list[tuple[str, Fraction, bool]]:
    """The figures in print order: (name, value, is a percentage)."""
    return [
        ("EV per Ante (player)", result.ev, False),
        ("house edge per Ante", result.house_edge, True),
        ("house edge per total bet", result.edge_per_total_bet, True),
        ("money wagered per round (Antes)", result.wager, False),
        ("rounds with a Bet", result.bet_rate, True),
        ("rounds insured", result.insurance_rate, True),
        ("insurance placed per round (Antes)", result.insurance_amount, False),
        ("insurance net per round (Antes)", result.insurance_net, False),
        ("rounds buying the dealer's game", result.buy_rate, True),
        ("buying's gain per round (Antes)", result.buy_gain, False),
        ("exchange and sixth-card fees per round (Antes)", result.fees, False),
    ]


def _figures_table(result: ExactResult, seconds: float, resumed: int = 0) -> Table:
    title = "Russian Poker, exact (optimal strategy, one box, no payout cap)"
    table = Table(title=title)
    table.add_column("figure")
    table.add_column("value", justify="right")
    table.add_column("exact fraction", overflow="fold")
    for name, value, pct in figures(result):
        table.add_row(name, _pct(value) if pct else f"{float(value):+.8f}", str(value))
    if not result.exact:
        table.add_row("upper bound of the optimal EV", f"{float(result.ev_upper):+.8f}", "")
    table.add_row("time", f"{seconds:.0f} s", "")
    if resumed:
        table.add_row("chunks read from --workdir", str(resumed), "(their time not counted)")
    return table


def _decisions_table(result: ExactResult) -> Table:
    table = Table(title="First decisions (share of hands, contribution to the EV per Ante)")
    table.add_column("decision")
    table.add_column("hands", justify="right")
    table.add_column("EV contribution", justify="right")
    table.add_column("mean EV", justify="right")
    for d in result.decisions:
        table.add_row(
            d.decision,
            _pct(d.hands),
            f"{float(d.value):+.6f}",
            f"{float(d.value / d.hands):+.4f}",
        )
    return table


def write_json(
    path: Path,
    result: ExactResult,
    config: RussianConfig,
    seconds: float,
    resumed: int = 0,
    solution: ClassSolution | None = None,
) -> None:
    """The figures as exact fractions (strings) and floats, with the rules; ``seconds`` is
    this command's time, ``resumed`` the chunks it read from checkpoints of an earlier run;
    with the ``solution``, a few classes' exact values to check independently
    (:func:`croupier.analysis.russian.variants.sample_classes`)."""
    data: dict[str, Any] = {
        "rules": config.to_dict(),
        "seconds": round(seconds, 1),
        "chunks_resumed": resumed,
        "exact": result.exact,
        "figures": {
            name: {"fraction": str(value), "value": float(value)}
            for name, value, _ in figures(result)
        },
        "ev_upper": {"fraction": str(result.ev_upper), "value": float(result.ev_upper)},
        "decisions": [
            {"decision": d.decision, "hands": str(d.hands), "value": str(d.value)}
            for d in result.decisions
        ],
    }
    if solution is not None:
        from croupier.analysis.russian.variants import sample_classes

        data["samples"] = sample_classes(solution, result)
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def run_exact(
    config: RussianConfig,
    *,
    workdir: Path | None,
    json_path: Path | None,
    strategy_path: Path | None,
    plot: Path | None,
) -> tuple[ClassSolution, ExactResult]:
    """Solve, summarise and print; write the optional outputs."""
    from croupier.analysis.russian.exact import solve
    from croupier.analysis.russian.results import summarize

    console = Console()
    started = time.perf_counter()
    with Progress(
        TextColumn("[bold]classes"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
    ) as progress:
        task = progress.add_task("classes", total=None)

        def on_progress(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        solution = solve(config, workdir=workdir, on_progress=on_progress)
    result = summarize(solution)
    seconds = time.perf_counter() - started
    for path in (json_path, strategy_path, plot):
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
    console.print(_figures_table(result, seconds, solution.resumed))
    console.print(_decisions_table(result))
    if json_path is not None:
        write_json(json_path, result, config, seconds, solution.resumed, solution)
        console.print(f"wrote {json_path}")
    if strategy_path is not None:
        from croupier.analysis.russian.strategy import save_exact_strategy

        save_exact_strategy(strategy_path, solution, result)
        console.print(f"wrote {strategy_path}")
    if plot is not None:
        from croupier.cli.russian_plot import decision_map_png

        decision_map_png(solution, result, plot)
        console.print(f"wrote {plot}")
    return solution, result
