"""A settled UTH round as the live return monitor sees it (:class:`croupier.server.rounds.theory.MonitorRound`).

Each box's result is compared with the compensator of its own decisions
(:mod:`croupier.analysis.uth.decisions`: optimal play's value less each decision's regret,
every EV the strategy advisor's under the table's approved Blind table) plus Trips' exact
expectation, so a box that plays badly is not taken for a table that pays badly. A box whose
decisions cannot be valued (a record that does not replay) is compared with optimal play.
The variance is optimal play's, exact (:mod:`croupier.analysis.uth.moments`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any

from croupier.analysis.uth.decisions import decisions_value
from croupier.analysis.uth.exact import PreflopEntry
from croupier.analysis.uth.moments import UthMoments, moments
from croupier.analysis.uth.paytables import DEFAULT_BLIND, PayTable, from_engine
from croupier.analysis.uth.strategy import load_preflop
from croupier.cards import Card
from croupier.errors import CroupierError
from croupier.games.uth import UthConfig, UthRound
from croupier.games.uth.config import PlayMultiples
from croupier.history import uth as uth_history
from croupier.server.rounds.theory import MonitorBox, MonitorRound
from croupier.server.tables.uth_theory import blind_lookup

__all__ = ["monitor_round", "prepare", "simulated_rounds"]


def _config(record: Mapping[str, Any], rules: Mapping[str, Any] | None) -> UthConfig:
    if rules is None:
        return UthConfig.from_dict(record.get("config") or {})
    return UthConfig.from_dict({k: v for k, v in rules.items() if k != "max_seats"})


def _preflop(outcomes: Any, blind: PayTable) -> Sequence[PreflopEntry] | None:
    entries: Sequence[PreflopEntry] = getattr(outcomes, "preflop", ()) or ()
    if entries:
        return entries
    return load_preflop() if dict(blind) == dict(DEFAULT_BLIND) else None


def _actions(record: Mapping[str, Any]) -> dict[int, list[str]]:
    by_seat: dict[int, list[str]] = {}
    for step in record.get("actions") or []:
        by_seat.setdefault(int(step["seat"]), []).append(str(step["action"]))
    return by_seat


class _Valuer:
    """The compensator of each box's decisions, one advisor run per distinct hand and way
    of playing (a live table's thousand boxes share one hand and a few ways)."""

    def __init__(self, rnd: UthRound, blind: PayTable, preflop: Sequence[PreflopEntry] | None):
        self.rnd, self.blind, self.preflop = rnd, blind, preflop
        self.board: tuple[Card, ...] = rnd.board
        self._seen: dict[tuple[Any, ...], Fraction | None] = {}

    def value(self, seat: int, actions: Sequence[str]) -> Fraction | None:
        if self.preflop is None or len(self.board) != 5:
            return None
        hole = self.rnd.hole_cards(seat)
        key = (hole, tuple(actions))
        if key not in self._seen:
            try:
                self._seen[key] = decisions_value(
                    hole, self.board, actions, blind=self.blind, preflop=self.preflop
                )
            except CroupierError:
                self._seen[key] = None
        return self._seen[key]


def prepare() -> None:
    """Value one box's decisions (checked to the river, then folded) under the spec's Blind
    table: the advisor's compiled kernels and the strategy table are loaded now, not at the
    first settlement (:meth:`croupier.server.rounds.theory.GameTheory.prepare_monitor`)."""
    checked = ["check", "check", "fold"]
    decisions_value("As Kd", "2c 7h 9s Jd 4c", checked, preflop=load_preflop())


class _Stakes:
    """The exact moments of each way of staking (a live table's thousand boxes stake a few
    ways: the Fractions' arithmetic is done once for each)."""

    def __init__(self, m: UthMoments) -> None:
        self.m = m
        self._seen: dict[tuple[int, int], tuple[float, float]] = {}
        self._valued: dict[tuple[Fraction, int, int], float] = {}

    def box(self, ante: int, trips: int) -> tuple[float, float]:
        key = (ante, trips)
        if key not in self._seen:
            self._seen[key] = self.m.box(ante, trips)
        return self._seen[key]

    def valued(self, value: Fraction, ante: int, trips: int) -> float:
        """The mean of a box whose decisions are worth ``value`` per unit of Ante."""
        key = (value, ante, trips)
        if key not in self._valued:
            self._valued[key] = float(ante * value + trips * self.m.ev_trips)
        return self._valued[key]


def _box(
    result: Mapping[str, Any],
    *,
    m: _Stakes,
    most: int,
    valuer: _Valuer | None,
    actions: Sequence[str],
) -> MonitorBox:
    seat = int(result["seat"])
    stakes = {str(b.get("bet")): int(b.get("stake", 0)) for b in result.get("bets", [])}
    ante, trips = stakes.get("ante", 0), stakes.get("trips", 0)
    blind = stakes.get("blind", ante)
    mean, variance = m.box(ante, trips)
    value = None if valuer is None else valuer.value(seat, actions)
    if value is not None:
        mean = m.valued(value, ante, trips)
    return MonitorBox(
        seat=seat,
        base=ante + trips,
        net=int(result["net"]),
        mean=mean,
        loss=ante + blind + trips + most * ante,
        variance=variance,
        decisions_valued=value is not None,
    )


def monitor_round(
    record: Mapping[str, Any], book: Any, *, rules: Mapping[str, Any] | None = None
) -> MonitorRound:
    """The round's boxes against the theory of ``rules`` (the table's approved rules; the
    record's own configuration when ``None``)."""
    try:
        config = _config(record, rules)
    except (CroupierError, TypeError, ValueError) as exc:
        return MonitorRound(status="unavailable", reason=f"rules: {exc}")
    if config.trips_needs_win or config.play_multiples != PlayMultiples():
        return MonitorRound(
            status="unavailable",
            reason="the exact analysis plays the spec's Play multiples with Trips paid whatever "
            "the dealer holds; this table changes that",
        )
    blind, trips = from_engine(config.blind_paytable), from_engine(config.trips_paytable)
    lookup = blind_lookup(book, blind)
    if lookup.outcomes is None:
        status = "computing" if lookup.status == "computing" else "unavailable"
        return MonitorRound(status=status, reason=lookup.reason)
    m = _Stakes(moments(lookup.outcomes, trips))
    try:
        valuer: _Valuer | None = _Valuer(
            uth_history.replay(record), blind, _preflop(lookup.outcomes, blind)
        )
    except CroupierError:
        valuer = None
    by_seat = _actions(record)
    most = max(config.play_multiples.preflop)
    boxes = tuple(
        _box(result, m=m, most=most, valuer=valuer, actions=by_seat.get(int(result["seat"]), []))
        for result in record.get("results") or []
    )
    return MonitorRound(boxes=boxes)


def simulated_rounds(
    rounds: int,
    *,
    seed: int,
    ante: int = 100,
    paid_blind: PayTable | None = None,
) -> Iterator[MonitorRound]:
    """Rounds of one box played optimally (the exact analysis' simulator, spec pay tables),
    as the monitor sees them: the monitor's design and its tests (``paid_blind``: the Blind
    table the table really pays, behind the theory's back; the theory stays the spec's).

    Optimal play regrets nothing, so each box's compensator is the value of its hand before
    the flop (:mod:`croupier.analysis.uth.decisions`)."""
    from croupier.analysis.uth._symmetry import class_name, hand_class
    from croupier.analysis.uth.simulate import deal_and_settle
    from croupier.evaluator import categories, evaluate_batch

    cards, record, scale = deal_and_settle(rounds, seed=seed, strategy="optimal")
    values = {e.hand: max(e.ev_4x, e.ev_3x, e.ev_check) for e in load_preflop()}
    m = moments(_default_outcomes(), from_engine(UthConfig().trips_paytable))
    _, variance = m.box(ante, 0)
    blind: list[float] = [float(b) / scale for b in record[:, 1]]
    if paid_blind is not None:
        player = evaluate_batch(cards[:, [0, 1, 4, 5, 6, 7, 8]])
        dealer = evaluate_batch(cards[:, 2:9])
        category = categories(player)
        pays = [float(ratio_or_zero(paid_blind, c)) for c in range(10)]
        won = (player > dealer) & (record[:, 3] > 0)
        rigged = [pays[int(c)] for c in category]
        blind = [r if w else b for r, w, b in zip(rigged, won, blind, strict=True)]
    for i in range(rounds):
        net = (record[i, 0] + record[i, 2]) / scale + blind[i]
        value = values[class_name(hand_class(int(cards[i, 0]), int(cards[i, 1])))]
        box = MonitorBox(
            seat=0, base=ante, net=round(net * ante), mean=float(value) * ante,
            loss=6 * ante, variance=variance, decisions_valued=True,
        )  # fmt: skip
        yield MonitorRound(boxes=(box,))


def ratio_or_zero(table: PayTable, category: int) -> Fraction:
    """What a pay table pays on ``category`` (0: no line, a push for the Blind)."""
    from croupier.analysis.uth.paytables import ratio
    from croupier.evaluator import HandCategory

    cat = HandCategory(category)
    return ratio(table, cat) if cat in table else Fraction(0)


def _default_outcomes() -> Any:
    from croupier.analysis.uth.moments import load_default_outcomes

    return load_default_outcomes()
