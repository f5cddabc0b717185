"""`croupier russian ...`: settle audit lines, replay round records, play at the terminal,
analyze the game."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Annotated, Any, TextIO

import typer

from croupier.cards import DECK, Card, parse_cards
from croupier.chips import Chips, format_money
from croupier.cli import russian_play
from croupier.errors import CroupierError, RecordError
from croupier.games.russian import (
    BetKind,
    DuplicateRankStraights,
    RussianConfig,
)
from croupier.games.russian.rules import Draw, audit_box
from croupier.history.records import replay_russian, russian_differences

__all__ = ["app", "settle_lines"]

app = typer.Typer(help="Russian Poker: settle, replay, play, analyze.", no_args_is_help=True)

_FIELDS = frozenset(
    {
        "player",
        "initial",
        "draw",
        "dealer",
        "dealer_draws",
        "ante",
        "bonus",
        "action",
        "insurance",
        "buy",
    }
)
_OUTPUT = (
    BetKind.ANTE,
    BetKind.BET,
    BetKind.FEE,
    BetKind.INSURANCE,
    BetKind.BONUS,
    BetKind.BUY,
)


class _LineError(ValueError):
    pass


_TOKENS: dict[str, Card] = {}
for _card in DECK:
    _text = str(_card)
    for _rank in {_text[0], _text[0].lower()}:
        for _suit in {_text[1], _text[1].upper()}:
            _TOKENS[_rank + _suit] = _card


def _parse(text: str) -> tuple[Card, ...]:
    """Cards written together (``"AhKd"``): a dictionary fast path, else :func:`parse_cards`."""
    if len(text) % 2 == 0:
        try:
            return tuple(_TOKENS[text[i : i + 2]] for i in range(0, len(text), 2))
        except KeyError:
            pass
    return parse_cards(text)


def _cards(record: dict[str, Any], name: str, *, required: bool) -> tuple[Any, ...]:
    value = record.get(name)
    if value is None:
        if required:
            raise _LineError(f"missing field {name!r}")
        return ()
    if not isinstance(value, str):
        raise _LineError(f"{name} must be a string of cards, not {value!r}")
    return _parse(value)


def _amount(record: dict[str, Any], name: str, *, required: bool = False) -> int:
    value = record.get(name)
    if value is None:
        if required:
            raise _LineError(f"missing field {name!r}")
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise _LineError(f"{name} must be a whole amount >= 0 in minor units, not {value!r}")
    return value


def settle_record(record: object, config: RussianConfig) -> dict[str, int]:
    """Settle one decoded input line; the nets per bet and the total.

    Raises:
        ValueError: the line breaks a rule or a format (the message is reported).
    """
    if not isinstance(record, dict):
        raise _LineError("a line must be a JSON object")
    unknown = sorted(set(record) - _FIELDS)
    if unknown:
        raise _LineError(f"unknown field(s) {', '.join(unknown)}")
    player = _cards(record, "player", required=True)
    initial = _cards(record, "initial", required=False) or player[:5]
    dealer = _cards(record, "dealer", required=True)
    draws = _cards(record, "dealer_draws", required=False)
    draw_text = record.get("draw")
    if draw_text is None:
        draw = Draw.SIXTH if len(player) == 6 else Draw.NONE
        if len(player) == 5 and {c.id for c in player} != {c.id for c in initial}:
            draw = Draw.EXCHANGE
    else:
        try:
            draw = Draw(draw_text)
        except ValueError:
            raise _LineError(
                f"draw must be 'none', 'exchange' or 'sixth', not {draw_text!r}"
            ) from None
    action = record.get("action", "bet")
    if action not in ("bet", "fold"):
        raise _LineError(f"action must be 'bet' or 'fold', not {action!r}")
    buy = record.get("buy", False)
    if not isinstance(buy, bool):
        raise _LineError(f"buy must be true or false, not {buy!r}")
    settlement = audit_box(
        config=config,
        ante=_amount(record, "ante", required=True),
        initial=initial,
        final=player,
        draw=draw,
        folded=action == "fold",
        dealer=dealer,
        bonus=_amount(record, "bonus"),
        insurance=_amount(record, "insurance"),
        buy=buy,
        dealer_draws=draws,
    )
    out = {kind.value: settlement.net_of(kind) for kind in _OUTPUT}
    out["total"] = settlement.net
    return out


def settle_lines(lines: Iterable[str], config: RussianConfig) -> Iterator[str]:
    """Settle JSON lines; yield one JSON line per non-blank input line (errors included)."""
    dumps = json.JSONEncoder(separators=(", ", ": ")).encode
    for line in lines:
        if not line.strip():
            continue
        try:
            result: dict[str, Any] = settle_record(json.loads(line), config)
        except json.JSONDecodeError as exc:
            result = {"error": f"not JSON: {exc.msg} at column {exc.colno}"}
        except (CroupierError, _LineError) as exc:
            result = {"error": str(exc)}
        yield dumps(result)


@app.command()
def settle(
    source: Annotated[
        Path | None, typer.Argument(help="JSON lines file; standard input when omitted.")
    ] = None,
    max_payout: Annotated[
        int | None, typer.Option(help="Cap on the Bet's win per box, in minor units.")
    ] = None,
    rebuy_same_rank: Annotated[
        bool, typer.Option(help="Replace again a bought card of the replaced card's rank.")
    ] = True,
    duplicate_rank_straights: Annotated[
        DuplicateRankStraights, typer.Option(help="How K-Q-J-T-9-9 is paid.")
    ] = DuplicateRankStraights.TWO_STRAIGHTS,
) -> None:
    """Settle boxes given as JSON lines; print the player's net per bet as JSON lines.

    In: {"player": "AhKhQhJhTh", "initial": "AhKhQhJh2c", "draw": "exchange",
    "dealer": "QsJd5c4h2d", "dealer_draws": "Kc7d", "ante": 100, "bonus": 0,
    "action": "bet", "insurance": 0, "buy": false}.
    Out: {"ante", "bet", "fee", "insurance", "bonus", "buy", "total"} or {"error": ...}.
    """
    config = RussianConfig(
        max_payout=None if max_payout is None else Chips(max_payout),
        rebuy_same_rank=rebuy_same_rank,
        duplicate_rank_straights=duplicate_rank_straights,
    )
    stream: TextIO = open(source, encoding="utf-8") if source else sys.stdin  # noqa: SIM115
    out = sys.stdout
    try:
        for line in settle_lines(stream, config):
            out.write(line + "\n")
    finally:
        if source:
            stream.close()


# -- replay -----------------------------------------------------------------------------------


class _Unreadable:
    """A JSON line that does not parse (reported in its turn, the others still replay)."""

    def __init__(self, message: str) -> None:
        self.message = message


def _documents(path: Path) -> list[tuple[str, Any]]:
    """The records in a file, each with its label: one JSON document, a JSON list of them
    (``path[N]``, N from 1) or JSON lines (``path[N]`` for line N).

    Raises:
        OSError: the file cannot be read.
        RecordError: the file is neither JSON nor JSON lines.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(f"not a UTF-8 text file (byte {exc.start})") from None
    if not text.strip():
        raise RecordError("the file is empty")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
        if exc.msg != "Extra data" and not any(_an_object(line) for _, line in lines):
            raise RecordError(
                f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
            ) from None
        found: list[tuple[str, Any]] = []
        for number, line in lines:
            try:
                found.append((f"{path}[{number}]", json.loads(line)))
            except json.JSONDecodeError as bad:
                found.append(
                    (f"{path}[{number}]", _Unreadable(f"not JSON: {bad.msg} at column {bad.colno}"))
                )
        return found
    if isinstance(data, list):
        return [(f"{path}[{n}]", item) for n, item in enumerate(data, 1)]
    return [(str(path), data)]


def _an_object(line: str) -> bool:
    try:
        return isinstance(json.loads(line), dict)
    except json.JSONDecodeError:
        return False


def _unwrap(data: object) -> dict[str, Any]:
    """The round record in ``data``: a record as stored, or the JSON of
    ``GET /api/rounds/{id}`` (the record under ``"record"``, the deck revealed beside it).

    Raises:
        RecordError: not a record, a round without one, or a record whose deck is not the
            deck revealed with it.
    """
    if isinstance(data, _Unreadable):
        raise RecordError(data.message)
    if not isinstance(data, dict):
        raise RecordError(f"a round record is a JSON object, not {json.dumps(data)[:40]}")
    if "record" not in data or "events" in data:
        return data
    record = data["record"]
    if record is None:
        raise RecordError(f"the round is {data.get('status', 'open')} and has no record yet")
    if not isinstance(record, dict):
        raise RecordError(f"the round's record is not a JSON object: {json.dumps(record)[:40]}")
    record = dict(record)
    revealed = data.get("deck")
    if revealed is not None:
        if record.get("deck") is None:
            record["deck"] = revealed  # records written before they held the deck
        elif record["deck"] != revealed:
            raise RecordError("the record's deck is not the deck revealed with the round")
    if record.get("round_id") is None and data.get("id") is not None:
        record["round_id"] = data["id"]
    return record


def _replay_one(console: Any, label: str, data: object) -> bool:
    """Replay one record and print the outcome; whether it reproduced."""
    from rich.markup import escape

    name = label
    if isinstance(data, dict):
        round_id = data.get("round_id", data.get("id") if "record" in data else None)
        if round_id is not None:
            name = f"{label}: round {round_id}"
    try:
        record = _unwrap(data)
        if record.get("round_id") is not None:
            name = f"{label}: round {record['round_id']}"
        replayed = replay_russian(record)
        differences = russian_differences(replayed, record)
    except CroupierError as exc:
        console.print(f"[red]{escape(name)}: {escape(str(exc))}[/red]")
        return False
    if differences:
        more = len(differences) - 1
        tail = f" (and {more} more difference{'s' if more > 1 else ''})" if more else ""
        console.print(f"[red]{escape(name)}: {escape(differences[0])}{tail}[/red]")
        return False
    if replayed["void"] is not None:
        console.print(f"{escape(name)}: void round confirmed, every stake returned")
        return True
    if replayed["phase"] != "settled":
        console.print(
            f"{escape(name)}: replayed as recorded, unfinished in phase {replayed['phase']}"
        )
        return True
    for result in replayed["results"]:
        console.print(
            f"{escape(name)}: box {result['box']} (seat {result['seat']}) "
            f"net {format_money(result['net'])} confirmed"
        )
    console.print(
        f"[green]{escape(name)}: settlement confirmed[/green] "
        f"(house net {format_money(replayed['house_net'])})"
    )
    return True


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
) -> None:
    """Re-run recorded rounds through the engine and confirm each reproduces its record.

    Exit 0 when every record reproduces, 1 when one differs or cannot be read.
    """
    from rich.console import Console
    from rich.markup import escape

    console = Console(soft_wrap=True)  # one line per message, whatever the width
    reproduced = True
    for path in files:
        try:
            documents = _documents(path)
        except (OSError, RecordError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            console.print(f"[red]{escape(str(path))}: {escape(reason)}[/red]")
            reproduced = False
            continue
        if not documents:
            console.print(f"[red]{escape(str(path))}: no round record in the file[/red]")
            reproduced = False
        for label, data in documents:
            reproduced = _replay_one(console, label, data) and reproduced
    if not reproduced:
        raise typer.Exit(1)


app.command("play")(russian_play.play)


# -- analyze ----------------------------------------------------------------------------------

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


def _strategy_key(config: RussianConfig) -> str:
    return repr((config.bet_paytable, config.rebuy_same_rank, config.duplicate_rank_straights))


def _save_strategy(path: Path, classes: Any, config: RussianConfig) -> None:
    import numpy as np

    with open(path, "wb") as f:
        np.savez(
            f,
            codes=classes.codes,
            cards=classes.cards,
            weights=classes.weights,
            evs=classes.evs,
            decisions=classes.decisions,
            key=np.array(_strategy_key(config)),
        )


def _load_strategy(path: Path, model: Any) -> Any:
    import numpy as np

    from croupier.analysis.russian import ClassTable

    with np.load(path) as data:
        if str(data["key"]) != _strategy_key(model.config):
            raise typer.BadParameter(f"{path} was computed for other table options")
        classes = ClassTable(
            codes=data["codes"],
            cards=data["cards"],
            weights=data["weights"],
            evs=data["evs"],
            decisions=data["decisions"],
        )
    if not np.array_equal(classes.codes, np.unique(model.codes)):
        raise typer.BadParameter(f"{path} does not hold the 134,459 hand classes")
    return classes


@app.command()
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
    rebuy_same_rank: Annotated[bool, typer.Option(help="Table option rebuy_same_rank.")] = True,
    duplicate_rank_straights: Annotated[
        DuplicateRankStraights, typer.Option(help="How K-Q-J-T-9-9 is paid.")
    ] = DuplicateRankStraights.TWO_STRAIGHTS,
) -> None:
    """Compute the strategy and the house edge under it (method: see the README)."""
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.table import Table

    from croupier.analysis.russian import (
        OPTIONS,
        bonus_return,
        build_model,
        check_model,
        class_table,
        house_edge,
        strategy_summary,
    )

    console = Console()
    config = RussianConfig(
        max_payout=None,
        rebuy_same_rank=rebuy_same_rank,
        duplicate_rank_straights=duplicate_rank_straights,
    )
    with Progress(
        TextColumn("{task.description:<10}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        TimeElapsedColumn(),
        console=console,
    ) as progress:
        tasks: dict[str, Any] = {}

        def on_progress(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = progress.add_task(stage, total=total)
            progress.update(tasks[stage], completed=done, total=total)

        model = build_model(config, on_progress=on_progress)
        if strategy is not None and strategy.exists():
            classes = _load_strategy(strategy, model)
        else:
            classes = class_table(model, on_progress=on_progress)
            if strategy is not None:
                _save_strategy(strategy, classes, config)
        edge = house_edge(model, classes, rounds=rounds, seed=seed, on_progress=on_progress)
        checked = (
            check_model(model, classes, sample=check, seed=seed, on_progress=on_progress)
            if check
            else None
        )
    if output is not None:
        from croupier.cards import cards_from_ids, format_cards

        with open(output, "w", encoding="utf-8") as f:
            f.write("hand,weight,best," + ",".join(OPTIONS) + "\n")
            for i in range(len(classes.codes)):
                hand = format_cards(cards_from_ids(int(c) for c in classes.cards[i]))
                evs = ",".join(f"{x:.6f}" for x in classes.evs[i])
                f.write(f"{hand},{classes.weights[i]},{OPTIONS[classes.decisions[i]]},{evs}\n")
        console.print(f"wrote {len(classes.codes)} classes to {output}")
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
    console.print(result)
    parts = Table(title="Contribution of each bet (player's net per round, in Antes)")
    parts.add_column("bet")
    parts.add_column("net", justify="right")
    for name, value in edge.contributions.items():
        parts.add_row(name, f"{value:+.5f}")
    console.print(parts)
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
    console.print(summary)
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
    console.print(stats)
