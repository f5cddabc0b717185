"""`croupier russian analyze`: the strategy of Russian Poker and the house edge under it,
with a progress bar and the tables a person reads (method: see the README)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from croupier.cli.rules import ConfigFile, Rules, build_config, read_rules
from croupier.errors import ConfigError
from croupier.games.russian import DuplicateRankStraights, RussianConfig

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress

    from croupier.analysis.russian import ClassTable, HouseEdge, Model, ModelCheck

__all__ = ["analyze"]

_CATEGORY_NAMES = (
    "High card",
    "Pair",
    "Two pair",
    "Three of a kind",
    "Straight",
    "Flush",
    "Full house",
    "Four of a kind",
    "Straight flush",
    "Royal flush",
)


def _table(
    config: Path | None,
    rule: list[str] | None,
    rebuy_same_rank: bool | None,
    duplicate_rank_straights: DuplicateRankStraights | None,
) -> RussianConfig:
    """The analysed table: no payout cap, the older flags, then --config and --rule."""
    base: dict[str, Any] = {"max_payout": "none"}
    if rebuy_same_rank is not None:
        base["rebuy_same_rank"] = rebuy_same_rank
    if duplicate_rank_straights is not None:
        base["duplicate_rank_straights"] = duplicate_rank_straights.value
    # the older flags come before the file and the rules, which may change them again
    data = read_rules(config, rule, game="russian", base=base)
    return build_config(RussianConfig.from_dict, data)


def _strategy(model: Model, strategy: Path | None, on_progress: Any) -> ClassTable:
    """The class table: loaded from the ``strategy`` cache, or computed (and saved there)."""
    from croupier.analysis.russian import class_table
    from croupier.analysis.russian.cache import load_strategy, save_strategy

    if strategy is not None and strategy.exists():
        try:
            return load_strategy(strategy, model)
        except ConfigError as exc:
            raise typer.BadParameter(str(exc), param_hint="--strategy") from exc
    classes = class_table(model, on_progress=on_progress)
    if strategy is not None:
        save_strategy(strategy, classes, model.config)
    return classes


def _progress(console: Console) -> tuple[Progress, Any]:
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    progress = Progress(
        TextColumn("{task.description:<10}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        TimeElapsedColumn(),
        console=console,
    )
    tasks: dict[str, Any] = {}

    def on_progress(stage: str, done: int, total: int) -> None:
        if stage not in tasks:
            tasks[stage] = progress.add_task(stage, total=total)
        progress.update(tasks[stage], completed=done, total=total)

    return progress, on_progress


def _write_classes(path: Path, classes: ClassTable) -> None:
    """Every class with the EV of each option, as CSV."""
    from croupier.analysis.russian import OPTIONS
    from croupier.cards import cards_from_ids, format_cards

    with open(path, "w", encoding="utf-8") as f:
        f.write("hand,weight,best," + ",".join(OPTIONS) + "\n")
        for i in range(len(classes.codes)):
            hand = format_cards(cards_from_ids(int(c) for c in classes.cards[i]))
            evs = ",".join(f"{x:.6f}" for x in classes.evs[i])
            f.write(f"{hand},{classes.weights[i]},{OPTIONS[classes.decisions[i]]},{evs}\n")


def _edge_table(
    edge: HouseEdge,
    classes: ClassTable,
    checked: ModelCheck | None,
    config: RussianConfig,
    seed: int,
) -> Any:
    from rich.table import Table

    from croupier.analysis.russian import bonus_return

    lo, hi = edge.ci95("ante")
    lo_t, hi_t = edge.ci95("total")
    result = Table(title=f"Russian Poker house edge ({edge.rounds:,} rounds, seed {seed})")
    result.add_column("measure")
    result.add_column("value", justify="right")
    result.add_column("95% CI", justify="right")
    result.add_row(
        "house edge per Ante",
        f"{100 * edge.edge_per_ante:.3f}%",
        f"{100 * lo:.3f}% .. {100 * hi:.3f}%",
    )
    result.add_row(
        "house edge per total bet",
        f"{100 * edge.edge_per_total_bet:.3f}%",
        f"{100 * lo_t:.3f}% .. {100 * hi_t:.3f}%",
    )
    result.add_row("average wager (Antes)", f"{edge.mean_wager:.4f}", "")
    result.add_row("model EV per Ante", f"{classes.expected_value:+.4f}", "strategy model")
    if checked is not None:
        result.add_row(
            f"model stand EV error ({checked.classes} classes)",
            f"{checked.mean_abs_error:.4f}",
            f"mean {checked.mean_error:+.4f}, max {checked.max_abs_error:.4f} Ante",
        )
    result.add_row("Bonus bet return", f"{100 * bonus_return(config):+.3f}%", "exact")
    return result


def _detail_tables(edge: HouseEdge, classes: ClassTable) -> list[Any]:
    from rich.table import Table

    from croupier.analysis.russian import strategy_summary

    parts = Table(title="Contribution of each bet (player's net per round, in Antes)")
    parts.add_column("bet")
    parts.add_column("net", justify="right")
    for name, value in edge.contributions.items():
        parts.add_row(name, f"{value:+.5f}")
    summary = Table(title="Strategy by the first five cards (share of hands)")
    summary.add_column("first five")
    for column in ("fold", "stand", "exchange", "sixth", "most common play"):
        summary.add_column(column, justify="right" if column != "most common play" else "left")
    for row in strategy_summary(classes):
        summary.add_row(
            row.label,
            *(f"{100 * x:.1f}%" for x in (row.fold, row.stand, row.exchange, row.sixth)),
            row.typical,
        )
    stats = Table(title="Buying the dealer's game and insurance (simulated, by final hand)")
    for column in ("final hand", "stood", "dealer no game", "bought", "insured"):
        stats.add_column(column, justify="right" if column != "final hand" else "left")
    for category, counts in enumerate(edge.stats):
        if counts[0]:
            bought = f"{100 * counts[2] / counts[1]:.1f}%" if counts[1] else "-"
            stats.add_row(
                _CATEGORY_NAMES[category],
                f"{counts[0]:,}",
                f"{counts[1]:,}",
                bought,
                f"{100 * counts[3] / counts[0]:.2f}%",
            )
    return [parts, summary, stats]


Exact = Annotated[
    bool,
    typer.Option(
        "--exact",
        help="The exact return and optimal strategy by full enumeration (about half an hour "
        "of CPU) instead of the simulated model strategy.",
    ),
]
Workdir = Annotated[
    Path | None,
    typer.Option(help="--exact: keep finished chunks here; a run resumes from them."),
]
JsonOut = Annotated[
    Path | None,
    typer.Option("--json", help="--exact: write the figures as exact fractions (JSON)."),
]
StrategyOut = Annotated[
    Path | None, typer.Option(help="--exact: write the strategy of every class (.npz).")
]
Plot = Annotated[Path | None, typer.Option(help="--exact: draw the decision map (PNG).")]


def analyze(
    rounds: Annotated[
        int, typer.Option(min=1, help="Simulated rounds for the house edge.")
    ] = 200_000_000,
    seed: Annotated[int, typer.Option(help="Simulation seed.")] = 1,
    output: Annotated[
        Path | None,
        typer.Option(help="Write every class with the EV of each option (CSV)."),
    ] = None,
    strategy: Annotated[
        Path | None,
        typer.Option(
            help="Strategy cache (.npz): loaded if it exists, else computed and saved there."
        ),
    ] = None,
    check: Annotated[
        int,
        typer.Option(min=0, help="Check the model's stand EV exactly on this many classes."),
    ] = 0,
    rebuy_same_rank: Annotated[
        bool | None,
        typer.Option(
            "--rebuy-same-rank/--no-rebuy-same-rank",
            help="Table option rebuy_same_rank.",
            show_default=False,
        ),
    ] = None,
    duplicate_rank_straights: Annotated[
        DuplicateRankStraights | None,
        typer.Option(help="How K-Q-J-T-9-9 is paid.", show_default=False),
    ] = None,
    config: ConfigFile = None,
    rule: Rules = None,
    exact: Exact = False,
    workdir: Workdir = None,
    json_out: JsonOut = None,
    strategy_out: StrategyOut = None,
    plot: Plot = None,
) -> None:
    """Compute the strategy and the house edge under it (method: see the README). The
    table's options come from --config and --rule (--rule exchange_min=2). With --exact,
    every deal is counted instead (the exact return, optimal strategy)."""
    from rich.console import Console

    from croupier.analysis.russian import build_model, check_model, house_edge

    console = Console()
    table = _table(config, rule, rebuy_same_rank, duplicate_rank_straights)
    if exact:
        from croupier.cli.russian_exact import run_exact

        run_exact(table, workdir=workdir, json_path=json_out, strategy_path=strategy_out, plot=plot)
        return
    progress, on_progress = _progress(console)
    with progress:
        model = build_model(table, on_progress=on_progress)
        classes = _strategy(model, strategy, on_progress)
        edge = house_edge(model, classes, rounds=rounds, seed=seed, on_progress=on_progress)
        checked = (
            check_model(model, classes, sample=check, seed=seed, on_progress=on_progress)
            if check
            else None
        )
    if output is not None:
        _write_classes(output, classes)
        console.print(f"wrote {len(classes.codes)} classes to {output}")
    console.print(_edge_table(edge, classes, checked, table, seed))
    for detail in _detail_tables(edge, classes):
        console.print(detail)
