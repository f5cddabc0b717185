"""The live return monitor (issue 30): its statistics, and tables rigged or fair.

- The e-values the detectors multiply have expectation at most 1 on UTH's exact distribution
  of results (the exact analysis' outcomes), for every bet size: the designed false-alarm rate
  rests on that alone.
- Fair tables simulated through the server's own monitor code raise no more alarms than the
  design allows (at most ``rounds / A`` a side).
- A table paying a Blind table other than its approved one is flagged within the number of
  rounds stated in docs/operations.md (``benchmarks/rtp_monitor.py`` measures them).
- Through a whole server: a biased deck source and a pay table changed in the database
  behind the audit log's back are flagged (an alert, a significant event, a metric, the
  webhook), the operator records an investigation; players who play badly are not taken for
  a rigged table (their decisions are valued), where a monitor of optimal play's return would
  have been.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import pytest

from croupier.analysis.monitoring import CLIP, LAMBDAS, Detector, Observation, design_threshold
from croupier.analysis.uth.moments import load_default_outcomes, moments
from croupier.analysis.uth.paytables import DEFAULT_BLIND, DEFAULT_TRIPS
from croupier.evaluator import HandCategory
from croupier.server.monitor.streams import Policy, band_label, round_streams
from croupier.server.operations import design
from croupier.server.rounds.theory import MonitorBox
from croupier.server.settings import Settings
from croupier.server.tables.uth_monitor import simulated_rounds

PRODUCTION = design(Settings())["threshold"]


def test_the_alarm_level_is_designed_for_one_false_alarm_a_table_year() -> None:
    plan = design(Settings())
    # 60 rounds an hour all year; a table's 6 streams (itself, 3 stake bands, 2 channels)
    # each watched on both sides: A = 12 x 525,960 / 1.
    assert plan["rounds_per_year"] == 60 * 8766
    assert plan["detectors_per_table"] == 12
    assert plan["threshold"] == design_threshold(
        rounds_per_year=525_960, detectors=12, alarms_per_year=1.0
    )
    assert round(plan["level"], 2) == 15.66
    faster = design(Settings(rtp_rounds_per_hour=120, rtp_false_alarms_per_year=0.5))
    assert faster["threshold"] == 4 * plan["threshold"]


def _psi_e(lam: float) -> float:
    return -math.log1p(-lam) - lam


def _psi_b(lam: float) -> float:
    return math.expm1(lam) - lam


def test_e_values_have_expectation_at_most_one_on_the_exact_uth_distribution() -> None:
    """Exact, over every way a UTH deal ends under optimal play (Ante 1, Blind 1, no Trips):
    E[e-value] <= 1 for each bet size and side, at the theory's own mean and variance."""
    outcomes = load_default_outcomes().outcomes
    m = moments(load_default_outcomes(), DEFAULT_TRIPS)
    mean, variance = float(m.ev_main), float(m.var_main)
    assert sum(p for _, p, _ in outcomes) == 1
    assert abs(sum(float(p * n) for _, p, n in outcomes) - mean) < 1e-12
    loss, margin = 6.0, 2.0
    for lam, psi_e, psi_b in zip(LAMBDAS, map(_psi_e, LAMBDAS), map(_psi_b, LAMBDAS), strict=True):
        high = low = 0.0
        for _, p, n in outcomes:
            xi = max(-1.0, min(float(n) - mean, CLIP * (loss + mean)) / (loss + mean))
            high += float(p) * math.exp(lam * xi - psi_e * xi * xi)
            shortfall = (mean - float(n)) / (loss + mean)
            low += float(p) * math.exp(
                lam * shortfall - psi_b * margin * variance / (loss + mean) ** 2
            )
        assert high <= 1 + 1e-12, (lam, high)
        assert low <= 1 + 1e-12, (lam, low)
    # And the margin is enough for any way of playing: every result is at most 6 Antes plus
    # what the Blind pays on the player's final hand, whose distribution no decision changes.
    counts = {
        HandCategory.STRAIGHT: 6_180_020, HandCategory.FLUSH: 4_047_644,
        HandCategory.FULL_HOUSE: 3_473_184, HandCategory.FOUR_OF_A_KIND: 224_848,
        HandCategory.STRAIGHT_FLUSH: 37_260, HandCategory.ROYAL_FLUSH: 4_324,
    }  # fmt: skip
    total = 133_784_560
    second = Fraction(0)
    for category in HandCategory:
        n, d = DEFAULT_BLIND.get(category, (0, 1))
        weight = Fraction(counts.get(category, 0), total)
        second += weight * (6 + Fraction(n, d)) ** 2
    second += (1 - sum(Fraction(c, total) for c in counts.values())) * 36
    assert second <= margin * variance  # 47.89 <= 2 x 24.39


def _table_alarms(
    rounds: int, seed: int, threshold: float, rig: object = None
) -> dict[str, list[int]]:
    policy, detector = Policy(), Detector.new()
    alarms: dict[str, list[int]] = {"high": [], "low": []}
    for index, played in enumerate(simulated_rounds(rounds, seed=seed, paid_blind=rig)):  # type: ignore[arg-type]
        shares = round_streams("t", played.boxes, channels={}, policy=policy)
        share = next(s for stream, s in shares.items() if stream.kind == "table")
        detector.update(share.observation(policy))
        for side in detector.alarming(threshold=threshold):
            alarms[side].append(index + 1)
            detector.restart(side)
    return alarms


@pytest.mark.parametrize("threshold", [20.0, 100.0])
def test_fair_rounds_raise_no_more_alarms_than_designed(threshold: float) -> None:
    rounds = 40_000
    alarms = _table_alarms(rounds, 11, threshold)
    for side, found in alarms.items():
        assert len(found) <= rounds / threshold, (side, len(found))


@pytest.mark.slow
def test_a_million_fair_rounds_raise_no_alarm_at_the_production_level() -> None:
    assert _table_alarms(1_000_000, 12, PRODUCTION) == {"high": [], "low": []}
    found = _table_alarms(1_000_000, 13, 1000.0)
    assert all(len(v) <= 1000 for v in found.values())


def _rig(**lines: tuple[int, int]) -> dict[HandCategory, tuple[int, int]]:
    table = dict(DEFAULT_BLIND)
    for name, value in lines.items():
        table[HandCategory[name.upper()]] = value
    return table


def test_a_blind_table_paying_far_more_is_flagged_high_within_the_stated_rounds() -> None:
    """docs/operations.md: a Blind table paying 5:1 on any pair or better is flagged within
    3,000 rounds (benchmarks/rtp_monitor.py: median about 1,100)."""
    rig = {c: (5, 1) for c in HandCategory if c >= HandCategory.PAIR}
    alarms = _table_alarms(3_000, 21, PRODUCTION, rig)
    assert alarms["high"] and not alarms["low"]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("rig", "side", "within"),
    [
        ({}, "low", 200_000),
        (_rig(straight=(5, 1)), "high", 150_000),
    ],
    ids=["blind-pays-nothing", "blind-straight-5-to-1"],
)
def test_realistic_rigs_are_flagged_within_the_stated_rounds(
    rig: dict[HandCategory, tuple[int, int]], side: str, within: int
) -> None:
    """docs/operations.md, from benchmarks/rtp_monitor.py."""
    alarms = _table_alarms(within, 31, PRODUCTION, rig)
    assert alarms[side] and alarms[side][0] <= within


def test_streams_of_a_round() -> None:
    boxes = [
        MonitorBox(seat=0, base=500, net=-600, mean=-20.0, loss=3000, variance=1e5, decisions_valued=True),
        MonitorBox(seat=1, base=5_000, net=5_000, mean=-100.0, loss=30_000, variance=1e7),
        MonitorBox(seat=2, base=50_000, net=-50_000, mean=-1000.0, loss=300_000, variance=1e9, decisions_valued=True),
    ]  # fmt: skip
    policy = Policy(bands=(1_000, 10_000), allowance=0.05, node="n1")
    shares = round_streams("casino", boxes, channels={0: "browser", 1: "api"}, policy=policy)
    keys = {s.key: share for s, share in shares.items()}
    assert set(keys) == {
        "table:casino", "table:casino|band:0", "table:casino|band:1", "table:casino|band:2",
        "table:casino|channel:browser", "table:casino|channel:api",
        "table:casino|channel:unknown", "node:n1",
    }  # fmt: skip
    whole = keys["table:casino"]
    assert (whole.boxes, whole.net, whole.base, whole.loss) == (3, -45_600, 55_500, 333_000)
    # The box whose decisions are not valued has the allowance for imperfect play below.
    assert whole.mean_low == pytest.approx(-1120.0 - 0.05 * 5_000)
    assert whole.sd == pytest.approx(math.sqrt(1e5) + math.sqrt(1e7) + math.sqrt(1e9))
    obs = whole.observation(policy)
    assert isinstance(obs, Observation) and obs.variance == pytest.approx(2 * whole.sd**2)
    assert [band_label(i, (1_000, 10_000)) for i in range(3)] == [
        "< 10.00", "10.00 - 100.00", ">= 100.00",
    ]  # fmt: skip


class _Constant:
    """A toy game's theory: every round one box that loses everything, expected to win."""

    def monitor_round(self, record: object, book: object, *, rules: object = None) -> object:
        from croupier.server.rounds.theory import MonitorRound

        box = MonitorBox(
            seat=0, base=100, net=-100, mean=50.0, loss=100, variance=100.0, decisions_valued=True
        )
        return MonitorRound(boxes=(box,))


def _toy_monitor(url: str, theory: object) -> tuple[Any, Any]:
    """A migrated database and a monitor's setup whose only game, ``toy``, has ``theory``."""
    from croupier.server.db import Database
    from croupier.server.monitor import service

    db = Database(url)
    db.migrate()
    setup = service.Setup(
        policy=Policy(bands=(), node=None),
        threshold=1.5,
        theories={"toy": theory},  # type: ignore[dict-item]
        book=None,
    )
    return db, setup


def test_one_open_alert_a_stream_and_side_until_it_is_investigated(tmp_path: object) -> None:
    from croupier.server.monitor import service
    from croupier.server.monitor.models import RtpAlert
    from croupier.server.tables import rounds
    from croupier.server.tables.models import RoundStatus

    db, setup = _toy_monitor(f"sqlite:///{tmp_path}/a.db", _Constant())

    def settle(count: int) -> None:
        with db.session() as session:
            for _ in range(count):
                row = rounds.open_round(
                    session, table="t", game="toy", commitment="c", salt="s", deck="d"
                )
                row.status, row.record = RoundStatus.SETTLED.value, {"game": "toy"}

    with db.session() as session:
        service.ensure_tables(session, ["t"])
    settle(30)
    with db.session() as session:
        done = service.process_table(session, "t", setup)
    assert done.rounds == 30
    with db.session() as session:
        alerts = session.query(RtpAlert).all()
        # the table's stream, its one stake band's and its channel's (no node stream here)
        assert sorted((a.stream, a.side) for a in alerts) == [
            ("table:t", "low"), ("table:t|band:0", "low"), ("table:t|channel:unknown", "low"),
        ]  # fmt: skip
        assert all(a.crossings > 1 for a in alerts) and {a.rounds for a in alerts} == {30}
        first = next(a for a in alerts if a.stream == "table:t").id
        service.investigate(session, first, by="boss", outcome="no_fault", note="a toy")
    settle(10)
    with db.session() as session:
        service.process_table(session, "t", setup)
        again = session.query(RtpAlert).filter(RtpAlert.stream == "table:t").all()
        assert [a.status for a in again] == ["closed", "open"]
    db.dispose()


def test_the_monitor_prepares_each_games_valuation_before_it_takes_a_round(
    tmp_path: object,
) -> None:
    """Its thread loads each game's valuation once, as it starts, before the first round it
    values (issue 26's load benchmark: the first settlement at a live table loaded the UTH
    advisor's compiled kernels while the next round's thousand bets came in)."""
    from croupier.server.monitor import service
    from croupier.server.monitor.worker import Monitor
    from croupier.server.tables import rounds
    from croupier.server.tables.models import RoundStatus

    calls: list[str] = []

    class _Prepared(_Constant):
        def prepare_monitor(self) -> None:
            calls.append("prepare")

        def monitor_round(self, record: object, book: object, *, rules: object = None) -> object:
            calls.append("round")
            return super().monitor_round(record, book, rules=rules)

    db, setup = _toy_monitor(f"sqlite:///{tmp_path}/p.db", _Prepared())
    monitor = Monitor(db, setup, owned=lambda: ["t"])
    with db.session() as session:
        service.ensure_tables(session, ["t"])
        row = rounds.open_round(session, table="t", game="toy", commitment="c", salt="s", deck="d")
        row.status, row.record = RoundStatus.SETTLED.value, {"game": "toy"}
    monitor.start(["t"])
    try:
        assert monitor.idle(60)
    finally:
        monitor.stop()
    assert calls[:2] == ["prepare", "round"] and calls.count("prepare") == 1


def test_uth_prepares_its_valuation() -> None:
    """UTH's preparation values one box's decisions (and raises nothing)."""
    from croupier.server.tables.uth import THEORY

    THEORY.prepare_monitor()
