"""The daily report per table: rounds, players, money, hold, and the return against theory.

A day is a UTC calendar day; a round belongs to the day it closed (settled or voided). Money
figures come from the rounds' stakes (``round_players``): ``wagered`` is everything staked
in settled rounds, ``paid`` everything paid back, ``ggr`` (gross gaming revenue) their
difference and ``hold`` GGR / wagered. The return per base stake and its 95 % interval are
explained in :mod:`croupier.analysis.returns`; Hold'em has no return to estimate: the house
takes rake only, which is its GGR.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import distinct, func, select
from sqlalchemy.orm import Session

from croupier.analysis.returns import ReturnFigures, ReturnTally
from croupier.server.errors import InvalidRequestError
from croupier.server.reports.theory import TheoryBook
from croupier.server.rounds.models import Round, RoundPlayer, RoundStatus, dealt
from croupier.server.rounds.theory import GameTheory, RoundTheory

__all__ = ["CSV_COLUMNS", "TableDay", "daily_report", "parse_day", "to_csv", "to_json"]

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
CSV_COLUMNS = (
    "table", "game", "rounds", "voided", "players", "wagered", "paid", "ggr", "hold",
    "basis", "base", "actual_return", "theoretical_return", "interval_low", "interval_high",
    "status",
)  # fmt: skip


def parse_day(value: object, *, today: dt.date) -> dt.date:
    """A report date: ``YYYY-MM-DD``, not after ``today`` (UTC).

    Raises:
        InvalidRequestError: malformed, impossible or future date (the message names ``date``).
    """
    if not isinstance(value, str) or _DATE.fullmatch(value) is None:
        raise InvalidRequestError(f"date {value!r} must be a day written YYYY-MM-DD")
    try:
        day = dt.date.fromisoformat(value)
    except ValueError:
        raise InvalidRequestError(f"date {value!r} is not a calendar day") from None
    if day > today:
        raise InvalidRequestError(f"date {value} is in the future (today is {today}, UTC)")
    return day


@dataclass(slots=True, kw_only=True)
class TableDay:
    """One table's day."""

    table: str
    game: str
    rounds: int = 0
    voided: int = 0
    players: int = 0
    wagered: int = 0
    paid: int = 0
    status: str = "ready"
    """Of the theoretical figure: ``ready``, ``computing``, ``unavailable`` or ``none``."""
    reasons: set[str] = field(default_factory=set)
    uncovered: int = 0
    """Boxes the theory does not describe (Russian blind boxes)."""
    tally: ReturnTally = field(default_factory=ReturnTally)
    theory: dict[str, Any] = field(default_factory=dict)
    game_theory: GameTheory | None = field(default=None, repr=False)
    """The game's own theory of its return (the registry's), ``None``: the game has none."""

    @property
    def rake_only(self) -> bool:
        """The house takes rake only (Hold'em): no return to estimate, the GGR is the rake."""
        return self.game_theory is not None and self.game_theory.basis is None

    @property
    def ggr(self) -> int:
        return self.wagered - self.paid

    @property
    def hold(self) -> float | None:
        return self.ggr / self.wagered if self.wagered else None

    def returns(self) -> ReturnFigures | None:
        if self.rake_only:
            return None
        figures = self.tally.figures()
        if self.status != "ready":
            return ReturnFigures(
                base=figures.base, actual=figures.actual, theoretical=None, low=None,
                high=None, sd=0.0,
            )  # fmt: skip
        return figures


def _closed_on(day: dt.date) -> list[Any]:
    start = dt.datetime.combine(day, dt.time(), tzinfo=dt.UTC)
    return [
        Round.closed_at >= start,
        Round.closed_at < start + dt.timedelta(days=1),
        Round.status != RoundStatus.OPEN.value,
        dealt(),  # not a cluster's next round voided unplayed
    ]


def _degrade(row: TableDay, status: str, reason: str = "") -> None:
    order = ("ready", "computing", "unavailable")
    if order.index(status) > order.index(row.status):
        row.status = status
    if reason:
        row.reasons.add(reason)


def _add_round(row: TableDay, figures: RoundTheory) -> None:
    """One settled round's theory into its table's row."""
    if figures.status != "ready":
        _degrade(row, figures.status, figures.reason)
    if figures.figures:
        row.theory = dict(figures.figures)
    row.uncovered += figures.uncovered
    row.tally.add_round(list(figures.boxes))


def _records(session: Session, day: dt.date) -> Iterator[Any]:
    query = (
        select(Round.table_name, Round.game, Round.record)
        .where(*_closed_on(day), Round.status == RoundStatus.SETTLED.value)
        .order_by(Round.id)
        .execution_options(yield_per=200)
    )
    yield from session.execute(query)


def daily_report(
    session: Session,
    *,
    day: dt.date,
    book: TheoryBook,
    games: Mapping[str, GameTheory],
    rules: Mapping[str, Mapping[str, Any]] | None = None,
) -> list[TableDay]:
    """Every table that closed a round on ``day``, by name; ``games`` is each game's theory
    by the game's name (the tables' registry, handed over by the app or the CLI: the reports
    import nothing of the table layer); ``rules`` (table name -> rules, for the Hold'em rake
    policy) is what the running server knows of its tables."""
    rows: dict[str, TableDay] = {}
    counts = (
        select(Round.table_name, Round.game, Round.status, func.count(Round.id))
        .where(*_closed_on(day))
        .group_by(Round.table_name, Round.game, Round.status)
    )
    for table, game, status, count in session.execute(counts):
        row = rows.setdefault(table, TableDay(table=table, game=game, game_theory=games.get(game)))
        if status == RoundStatus.VOIDED.value:
            row.voided += int(count)
        else:
            row.rounds += int(count)
    money = (
        select(
            Round.table_name,
            func.count(distinct(RoundPlayer.user_id)),
            func.coalesce(func.sum(RoundPlayer.staked), 0),
            func.coalesce(func.sum(RoundPlayer.returned), 0),
        )
        .join(RoundPlayer, RoundPlayer.round_id == Round.id)
        .where(*_closed_on(day), Round.status == RoundStatus.SETTLED.value)
        .group_by(Round.table_name)
    )
    for table, players, staked, returned in session.execute(money):
        row = rows[table]
        row.players, row.wagered, row.paid = int(players), int(staked), int(returned or 0)
    for table, _game, record in _records(session, day):
        row = rows[table]
        theory = row.game_theory
        figures = None if theory is None else theory.round_theory(record or {}, book)
        if figures is not None:
            _add_round(row, figures)
    for row in rows.values():
        if row.game_theory is not None and row.rake_only:
            row.status = "none"
            table_rules = (rules or {}).get(row.table, {})
            row.theory = {
                k: table_rules[k] for k in row.game_theory.shown_rules if k in table_rules
            }
        elif row.game_theory is None:
            row.status = "unavailable"
            row.reasons.add(f"no theory for game {row.game!r}")
    return [rows[name] for name in sorted(rows)]


def _row_json(row: TableDay) -> dict[str, Any]:
    figures = row.returns()
    return {
        "table": row.table,
        "game": row.game,
        "rounds": row.rounds,
        "voided": row.voided,
        "players": row.players,
        "wagered": row.wagered,
        "paid": row.paid,
        "ggr": row.ggr,
        "hold": row.hold,
        "return": None
        if figures is None
        else {
            "basis": (row.game_theory and row.game_theory.basis) or "per unit of stake",
            "base": figures.base,
            "actual": figures.actual,
            "theoretical": figures.theoretical,
            "interval": None if figures.low is None else [figures.low, figures.high],
        },
        "theory": {
            "status": row.status,
            "reason": "; ".join(sorted(row.reasons)),
            "method": "" if row.game_theory is None else row.game_theory.method,
            "rake_only": row.rake_only,
            "uncovered_boxes": row.uncovered,
            **row.theory,
        },
    }


def to_json(rows: list[TableDay], *, day: dt.date) -> dict[str, Any]:
    """The report as JSON-ready data (money in minor units)."""
    return {
        "date": day.isoformat(),
        "currency_minor_units": True,
        "tables": [_row_json(r) for r in rows],
    }


def to_csv(rows: list[TableDay]) -> str:
    """The report as CSV (money in minor units), one line per table."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in rows:
        data = _row_json(row)
        ret = data["return"] or {}
        interval = ret.get("interval") or [None, None]
        writer.writerow(
            [
                row.table, row.game, row.rounds, row.voided, row.players, row.wagered,
                row.paid, row.ggr, _num(row.hold), "rake" if row.rake_only else "base stake",
                ret.get("base", ""), _num(ret.get("actual")), _num(ret.get("theoretical")),
                _num(interval[0]), _num(interval[1]), row.status,
            ]
        )  # fmt: skip
    return out.getvalue()


def _num(value: float | None) -> str:
    return "" if value is None else f"{value:.6f}"
