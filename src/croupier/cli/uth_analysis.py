"""`croupier uth analyze` and `croupier uth simulate`: the mathematics of Ultimate Texas Hold'em.

The lead's ``cli/uth.py`` owns the ``uth`` Typer app and calls :func:`register`.
"""

from __future__ import annotations

import json
import os
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, ThreadPoolExecutor
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from croupier.cli.rules import Rules
from croupier.cli.uth_play import table_config
from croupier.evaluator import HandCategory
from croupier.games.uth.config import PlayMultiples, UthConfig

if TYPE_CHECKING:
    from croupier.analysis.uth import ExactResult
    from croupier.analysis.uth.simulate import SimulationResult

__all__ = ["register"]

_console = Console()


def _progress() -> Progress:
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        TextColumn("{task.percentage:>5.1f}%"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=_console,
    )


def _pct(x: Fraction | float) -> str:
    return f"{float(x) * 100:.4f}%"


def _summary_table(result: ExactResult, seconds: float | None) -> Table:
    table = Table(title="Ultimate Texas Hold'em, exact (optimal strategy)")
    table.add_column("figure")
    table.add_column("value", justify="right")
    table.add_column("exact", overflow="fold")
    rows: list[tuple[str, Fraction, bool]] = [
        ("EV per Ante", result.ev_per_ante, False),
        ("house edge per Ante", result.house_edge, True),
        ("return per Ante", result.return_per_ante, True),
        ("element of risk", result.element_of_risk, True),
        ("return per total bet", result.return_per_total_bet, True),
        ("average total bet (Antes)", result.average_total_bet, False),
        ("Ante contribution", result.ante, False),
        ("Blind contribution", result.blind, False),
        ("Play contribution", result.play, False),
        ("Trips return", result.trips, True),
    ]
    for name, value, pct in rows:
        table.add_row(name, _pct(value) if pct else f"{float(value):.6f}", str(value))
    table.add_row("deals counted", f"{result.deals:,}", "")
    if seconds is not None:
        table.add_row("time", f"{seconds:.1f} s", "")
    return table


def _outcome_table(result: ExactResult) -> Table:
    table = Table(title="Outcomes by path and result (per deal; return per Ante)")
    for col in ("path", "result", "dealer", "probability", "return"):
        table.add_column(col, justify="right" if col in ("probability", "return") else "left")
    grouped: dict[tuple[str, str, bool], list[Fraction]] = defaultdict(
        lambda: [Fraction(0), Fraction(0)]
    )
    for o in result.outcomes:
        entry = grouped[(o.path, o.result, o.dealer_qualified)]
        entry[0] += o.probability
        entry[1] += o.contribution
    paths = ("4x", "3x", "2x", "1x", "fold")
    results = ("won", "tied", "lost", "folded")

    def order(key: tuple[str, str, bool]) -> tuple[int, int, bool]:
        return (paths.index(key[0]), results.index(key[1]), not key[2])

    for (path, res, qualified), (p, r) in sorted(grouped.items(), key=lambda kv: order(kv[0])):
        dealer = "qualifies" if qualified else "does not qualify"
        table.add_row(path, res, dealer, f"{float(p):.6f}", f"{float(r):+.6f}")
    return table


def _preflop_grid(result: ExactResult) -> Table:
    table = Table(
        title="Pre-flop EV(4x) - EV(check) per Ante (suited above the diagonal)",
        box=None,
        padding=(0, 1, 0, 0),
    )
    symbols = "AKQJT98765432"
    table.add_column("")
    for s in symbols:
        table.add_column(s, justify="right")
    by_hand = {e.hand: e for e in result.preflop}
    for i, r in enumerate(symbols):
        cells = []
        for j, c in enumerate(symbols):
            name = r * 2 if i == j else (r + c + "s" if i < j else c + r + "o")
            e = by_hand.get(name)
            if e is None:
                cells.append("")
                continue
            diff = float(e.ev_4x - e.ev_check)
            style = "green" if e.decision == "4x" else "red" if e.decision == "check" else "yellow"
            cells.append(f"[{style}]{diff:+.1f}[/]")
        table.add_row(r, *cells)
    return table


def _plot_preflop(result: ExactResult, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    symbols = "AKQJT98765432"
    by_hand = {e.hand: e for e in result.preflop}
    grid = np.full((13, 13), np.nan)
    names = [["" for _ in range(13)] for _ in range(13)]
    for i, r in enumerate(symbols):
        for j, c in enumerate(symbols):
            name = r * 2 if i == j else (r + c + "s" if i < j else c + r + "o")
            names[i][j] = name
            if name in by_hand:
                e = by_hand[name]
                grid[i, j] = float(e.ev_4x - e.ev_check)
    fig, ax = plt.subplots(figsize=(10, 9))
    limit = float(np.nanmax(np.abs(grid)))
    image = ax.imshow(grid, cmap="RdYlGn", vmin=-limit, vmax=limit)
    for i in range(13):
        for j in range(13):
            if not np.isnan(grid[i, j]):
                ax.text(
                    j, i, f"{names[i][j]}\n{grid[i, j]:+.2f}", ha="center", va="center", fontsize=6
                )
    ax.set_xticks(range(13), list(symbols))
    ax.set_yticks(range(13), list(symbols))
    ax.set_title(
        "Ultimate Texas Hold'em pre-flop: EV(4x) - EV(check) per Ante\n(suited above the diagonal; raise 4x where positive)"
    )
    fig.colorbar(image, ax=ax, shrink=0.8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


_CONFIG_OPTION = typer.Option(
    "--config",
    help='A UTH table config (TOML: blind_paytable = {flush = "3:2", ...}, trips_paytable = '
    "{...}, play_multiples = {preflop = [4, 3], ...}) whose pay tables and Play multiples to use.",
)


def _table(config: Path | None, rule: list[str] | None = None) -> UthConfig:
    return table_config(config, rule)


def _tables(
    config: Path | None, rule: list[str] | None = None
) -> tuple[dict[HandCategory, tuple[int, int]], ...]:
    from croupier.analysis.uth import DEFAULT_BLIND, DEFAULT_TRIPS, from_engine

    if config is None and not rule:
        return dict(DEFAULT_BLIND), dict(DEFAULT_TRIPS)
    table = _table(config, rule)
    return from_engine(table.blind_paytable), from_engine(table.trips_paytable)


def _run_exact(
    config: Path | None,
    on_progress: Callable[[int, int], None] | None,
    rule: list[str] | None = None,
) -> ExactResult:
    from croupier.analysis.uth import analyze_exact

    blind, trips = _tables(config, rule)
    multiples = _table(config, rule).play_multiples
    return analyze_exact(blind=blind, trips=trips, multiples=multiples, on_progress=on_progress)


def analyze(
    exact: Annotated[
        bool, typer.Option("--exact", help="Run the full enumeration (about 20-60 s on 2 cores).")
    ] = False,
    json_file: Annotated[
        Path | None, typer.Option("--json", help="Write every figure to this JSON file.")
    ] = None,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Write a 13x13 PNG of EV(4x) - EV(check).")
    ] = None,
    config: Annotated[Path | None, _CONFIG_OPTION] = None,
    rule: Rules = None,
) -> None:
    """Exact return, house edge, element of risk and optimal strategy.

    Every player hand, board and dealer hand (2.78e13 deals) is counted in integer arithmetic,
    with backward induction of the river, flop and pre-flop decisions. Pay tables and Play
    multiples: the spec's, or those of --config and --rule (--rule play_multiples.preflop=[3]).
    """
    if not exact:
        _console.print(
            "[yellow]add --exact to run the enumeration (nothing else is offered yet)[/]"
        )
        raise typer.Exit(code=2)
    start = time.perf_counter()
    with _progress() as progress:
        task = progress.add_task("enumerating boards", total=1)

        def on_progress(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        result = _run_exact(config, on_progress, rule)
    seconds = time.perf_counter() - start
    _console.print(_summary_table(result, seconds))
    _console.print(_outcome_table(result))
    _console.print(_preflop_grid(result))
    if json_file is not None:
        data = result.to_json()
        data["seconds"] = seconds
        json_file.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        _console.print(f"wrote {json_file}")
    if plot is not None:
        _plot_preflop(result, plot)
        _console.print(f"wrote {plot}")


def _warm_up() -> None:
    """Compile the kernels and build the tables in this process (run on each Dask worker)."""
    from croupier.analysis.uth.simulate import simulate as run

    for strategy in ("optimal", "simple"):
        run(1000, seed=0, strategy=strategy, task_rounds=1000)


@contextmanager
def _executor(workers: int | None, scheduler: str | None) -> Iterator[tuple[Executor, str]]:
    if workers is not None and scheduler is not None:
        raise typer.BadParameter("give --workers or --scheduler, not both")
    if workers is None and scheduler is None:
        threads = os.cpu_count() or 1
        with ThreadPoolExecutor(threads) as pool:
            yield pool, f"{threads} threads in this process"
        return
    try:
        from distributed import Client, LocalCluster
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise typer.BadParameter("Dask is not installed: pip install 'croupier[dask]'") from exc
    if scheduler is not None:
        with Client(scheduler) as client:  # type: ignore[no-untyped-call]
            client.run(_warm_up)
            yield client.get_executor(), f"Dask scheduler {scheduler}"
        return
    assert workers is not None
    if workers < 1:
        raise typer.BadParameter("--workers must be at least 1")
    with (
        LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=workers, threads_per_worker=1, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,  # type: ignore[no-untyped-call]
    ):
        client.run(_warm_up)
        yield client.get_executor(), f"Dask local cluster of {workers} workers"


def _plot_convergence(result: SimulationResult, path: Path, exact: float | None) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    trace = np.array(result.trace, dtype=float)
    n, mean, half = trace[:, 0], trace[:, 1], trace[:, 2]
    fig, ax = plt.subplots(figsize=(9, 5))
    ax.plot(n, mean * 100, label="return per Ante")
    ax.fill_between(n, (mean - half) * 100, (mean + half) * 100, alpha=0.3, label="95% CI")
    if exact is not None:
        ax.axhline(exact * 100, color="black", linestyle="--", label=f"exact {exact * 100:.3f}%")
    ax.set_xscale("log")
    ax.set_xlabel("rounds")
    ax.set_ylabel("return per Ante (%)")
    ax.set_title(
        f"Ultimate Texas Hold'em simulation, {result.strategy} strategy, seed {result.seed}"
    )
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def simulate(
    hands: Annotated[int, typer.Option("--hands", help="Rounds to play.")] = 10_000_000,
    strategy: Annotated[
        str,
        typer.Option(
            "--strategy",
            help="optimal: the exact optimal strategy. simple: the Wizard of Odds basic strategy "
            "(4x with 3-3+, any Ace, K2s+, K5o+, Q6s+, Q8o+, J8s+, JTo; 2x with two pair+, a "
            "hidden pair but 2-2, or 4 to a flush with a hidden T+; 1x with a hidden pair+ or "
            "fewer than 21 dealer outs).",
        ),
    ] = "optimal",
    seed: Annotated[
        int, typer.Option("--seed", help="Seed of the run (reproducible whatever the workers).")
    ] = 0,
    workers: Annotated[
        int | None, typer.Option("--workers", help="Start a Dask LocalCluster of K workers.")
    ] = None,
    scheduler: Annotated[
        str | None, typer.Option("--scheduler", help="Use the Dask scheduler at ADDRESS.")
    ] = None,
    task_rounds: Annotated[int, typer.Option("--task-rounds", help="Rounds per task.")] = 1 << 20,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Write a convergence plot (PNG).")
    ] = None,
    config: Annotated[Path | None, _CONFIG_OPTION] = None,
) -> None:
    """Monte Carlo of whole rounds: return per Ante and per total bet with 95% CIs.

    With the pay tables of --config the optimal strategy comes from an exact analysis run first.
    """
    from croupier.analysis.uth.simulate import STRATEGIES
    from croupier.analysis.uth.simulate import simulate as run
    from croupier.errors import ConfigError

    if strategy not in STRATEGIES:
        raise typer.BadParameter(f"choose from {', '.join(STRATEGIES)}", param_hint="--strategy")
    if _table(config).play_multiples != PlayMultiples():
        raise typer.BadParameter(
            "the simulator plays the spec's Play multiples (4x/3x, 2x, 1x); use analyze --exact",
            param_hint="--config",
        )
    blind, trips = _tables(config)
    exact, exact_ev = _exact_for(config, strategy)
    with _executor(workers, scheduler) as (executor, where), _progress() as progress:
        _warm_up()
        task = progress.add_task(f"simulating on {where}", total=hands)

        def on_progress(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        start = time.perf_counter()
        try:
            result = run(
                hands,
                seed=seed,
                strategy=strategy,
                blind=blind,
                trips=trips,
                exact=exact,
                task_rounds=task_rounds,
                executor=executor,
                on_progress=on_progress,
            )
        except ConfigError as exc:
            raise typer.BadParameter(str(exc)) from exc
        seconds = time.perf_counter() - start
    shown = 1 + exact_ev if strategy == "optimal" and exact_ev is not None else None
    _show_simulation(
        result, title=f"{strategy} strategy, seed {seed}", seconds=seconds, exact=shown
    )
    if plot is not None:
        _plot_convergence(result, plot, shown)
        _console.print(f"wrote {plot}")


def _exact_for(config: Path | None, strategy: str) -> tuple[ExactResult | None, float | None]:
    """The exact analysis the optimal strategy plays (run first for the pay tables of
    ``config``) and the exact EV per Ante to show beside the estimate."""
    from croupier.analysis.uth.strategy import load_summary

    if config is None:
        return None, float(Fraction(str(load_summary()["ev_per_ante"])))
    if strategy != "optimal":
        return None, None
    with _progress() as progress:
        job = progress.add_task("exact analysis for the strategy", total=1)
        exact = _run_exact(
            config, lambda done, total: progress.update(job, completed=done, total=total)
        )
    return exact, float(exact.ev_per_ante)


def _show_simulation(
    result: SimulationResult, *, title: str, seconds: float, exact: float | None
) -> None:
    """The estimates with their 95% CIs, and the exact return beside them when known."""
    table = Table(title=f"Ultimate Texas Hold'em simulation: {title}")
    table.add_column("figure")
    table.add_column("estimate", justify="right")
    table.add_column("95% CI", justify="right")
    lo, hi = result.ci_per_ante
    table.add_row("return per Ante", _pct(result.return_per_ante), f"{_pct(lo)} .. {_pct(hi)}")
    lo, hi = result.ci_per_total_bet
    table.add_row(
        "return per total bet", _pct(result.return_per_total_bet), f"{_pct(lo)} .. {_pct(hi)}"
    )
    lo, hi = result.ci_trips
    table.add_row("Trips return", _pct(result.trips_return), f"{_pct(lo)} .. {_pct(hi)}")
    table.add_row("average total bet (Antes)", f"{result.average_total_bet:.4f}", "")
    table.add_row("rounds", f"{result.rounds:,} in {result.tasks} tasks", "")
    table.add_row("speed", f"{result.rounds / seconds:,.0f} rounds/s", f"{seconds:.2f} s")
    if exact is not None:
        table.add_row("exact (optimal)", _pct(exact), "")
    _console.print(table)


def register(app: typer.Typer) -> None:
    """Add ``analyze`` and ``simulate`` to the ``croupier uth`` app."""
    app.command("analyze")(analyze)
    app.command("simulate")(simulate)
