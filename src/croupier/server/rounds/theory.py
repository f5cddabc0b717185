"""What a settled round is worth in theory (issue 26: round data below the tables).

A game's theory (:class:`GameTheory`, which each game's descriptor in the table layer
provides) values a settled round's record for the operator's daily report
(:class:`RoundTheory`) and for the live return monitor (:class:`MonitorRound`); the server's
theory cache answers with a :class:`TheoryLookup`. The reports and the monitor read these
types here, and are handed the games' theories by the app, so that they import nothing of the
table layer.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from croupier.analysis.returns import Box

__all__ = ["BoxStake", "GameTheory", "MonitorBox", "MonitorRound", "RoundTheory", "TheoryLookup"]


@dataclass(frozen=True, slots=True, kw_only=True)
class BoxStake:
    """One box of one round: what it staked before any decision, and its net result."""

    ante: int
    side: int
    """UTH Trips or Russian Bonus."""
    net: int
    covered: bool = True
    """False for a box the analysis does not describe (a Russian blind box)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundTheory:
    """What one settled round adds to its table's daily report: each box's stake, net and
    theoretical mean and variance, the figures the theory rests on (the table's return per
    Ante...) and, when the theory cannot describe the round, why."""

    boxes: tuple[Box, ...]
    figures: Mapping[str, Any] = field(default_factory=dict)
    """Shown with the report's row (empty: the round changes nothing there)."""
    status: str = "ready"
    """``ready``, or ``computing`` / ``unavailable`` with :attr:`reason`."""
    reason: str = ""
    uncovered: int = 0
    """Boxes the theory does not describe (Russian blind boxes)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class MonitorBox:
    """One box of a settled round as the live return monitor sees it (minor units):
    its result against what the theory expects of it (:mod:`croupier.analysis.monitoring`)."""

    seat: int
    base: int
    """What the box staked before any decision (its stake band)."""
    net: int
    mean: float
    """The expected result: of the decisions made when :attr:`decisions_valued` (a
    compensator with mean zero for any play, :mod:`croupier.analysis.uth.decisions`), else
    of optimal play."""
    loss: int
    """The most the box could lose, known when betting closed (every decision's stake)."""
    variance: float
    """The result's variance under optimal play (the monitor adds its margin)."""
    mean_high: float | None = None
    """A mean known within a range (an analysed figure): its top, for the high side."""
    mean_low: float | None = None
    decisions_valued: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class MonitorRound:
    """What one settled round gives the monitor: its boxes, or why the theory cannot say."""

    boxes: tuple[MonitorBox, ...] = ()
    status: str = "ready"
    """``ready``, ``computing`` (a pay table's exact run is under way) or ``unavailable``."""
    reason: str = ""
    uncovered: int = 0
    """Boxes the theory does not describe (Russian blind boxes)."""


@dataclass(frozen=True, slots=True)
class TheoryLookup:
    """The state of one computation in the server's theory cache
    (:class:`croupier.server.reports.theory.TheoryBook`)."""

    status: str
    """``ready``, ``computing`` or ``unavailable``."""
    outcomes: Any = None
    """What was computed (``ready``)."""
    reason: str = ""


class GameTheory(Protocol):
    """What a game says of its own return to player, for the operator's figures (the daily
    report, the per-table statistics): a game added to the registry brings its own, and no
    report asks for a game by name."""

    @property
    def method(self) -> str:
        """How the theoretical figure is found (shown with the daily report)."""
        ...

    @property
    def basis(self) -> str | None:
        """What a return is per (``"per unit of base stake (Ante + Trips)"``); ``None``: the
        house takes rake only, there is no return to estimate and the rake is the GGR."""
        ...

    @property
    def shown_rules(self) -> tuple[str, ...]:
        """The table rules the daily report shows as the theory of a game without a return
        (Hold'em's rake policy)."""
        ...

    def round_theory(self, record: Mapping[str, Any], book: Any) -> RoundTheory | None:
        """What the settled round with ``record`` adds to the daily report; ``book`` is the
        server's theory cache (:class:`croupier.server.reports.theory.TheoryBook`)."""
        ...

    def warm(self, rules: Mapping[str, Any], book: Any) -> None:
        """Start computing, in ``book``, what :meth:`table_return` of a table with ``rules``
        will need (at the server's start); rules the game refuses are the table manager's to
        report, not this."""
        ...

    def table_return(self, rules: Mapping[str, Any], book: Any) -> dict[str, Any]:
        """The theoretical return of a table with ``rules`` (its factory's ``describe()``) as
        the operator's table list shows it: ``method``, ``status`` and the figures."""
        ...

    def published_return(self, record: Mapping[str, Any] | None, wagered: int) -> float | None:
        """What a round that staked ``wagered`` returns in theory by the published figures,
        in minor units (``None``: no published figure)."""
        ...

    def prepare_monitor(self) -> None:
        """Load now what valuing a settled round needs (modules, compiled kernels), so that
        the first settlement does not: the monitor's thread calls it once as it starts (it
        took the event loop's interpreter lock for seconds while the next round's thousand
        bets came in)."""
        ...

    def monitor_round(
        self,
        record: Mapping[str, Any],
        book: Any,
        *,
        rules: Mapping[str, Any] | None = None,
    ) -> MonitorRound | None:
        """The settled round with ``record`` for the live return monitor, its theory taken
        from the table's approved ``rules`` (what the audit log last recorded of the table)
        when given, else from the record; ``None``: the game has no return to monitor."""
        ...
