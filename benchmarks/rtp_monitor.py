"""The live return monitor's figures (docs/operations.md): its alarm level, how many rounds it
takes to flag a table rigged behind the theory's back, and how many alarms fair tables raise.

Rounds of one UTH box (Ante 1.00, optimal play, the exact analysis' simulator) go through the
server's own monitor code (:func:`croupier.server.monitor.streams.round_streams`, the
detector of :mod:`croupier.analysis.monitoring`) at the production alarm level (60 rounds an
hour, one false alarm per table-year: ``log A`` = 15.66). Each rig is run from ``--runs``
seeds until its first alarm (at most ``--max`` rounds); prints the median and the largest.

Run: nice .venv/bin/python benchmarks/rtp_monitor.py [--runs 10] [--max 600000] [--fair 2000000]
"""

from __future__ import annotations

import argparse
import statistics
import time

from croupier.analysis.monitoring import Detector
from croupier.analysis.uth.paytables import DEFAULT_BLIND, PayTable
from croupier.evaluator import HandCategory
from croupier.server.monitor.streams import Policy, round_streams
from croupier.server.operations import design
from croupier.server.settings import Settings
from croupier.server.tables.uth_monitor import simulated_rounds

H = HandCategory


def _rig(**lines: tuple[int, int] | None) -> PayTable:
    table = dict(DEFAULT_BLIND)
    for name, value in lines.items():
        category = H[name.upper()]
        if value is None:
            table.pop(category, None)
        else:
            table[category] = value
    return table


RIGS: dict[str, PayTable] = {
    "Blind pays nothing": {},
    "Blind straight 1:1 -> 5:1": _rig(straight=(5, 1)),
    "Blind full house 3:1 -> 1:1, flush 3:2 -> 1:1": _rig(full_house=(1, 1), flush=(1, 1)),
    "Blind pays 5:1 on any pair or better": {
        **{c: (5, 1) for c in H if c >= H.PAIR},
        H.ROYAL_FLUSH: (500, 1),
    },
}


def first_alarm(rounds: int, seed: int, threshold: float, rig: PayTable | None) -> tuple[int, str]:
    """The round of the first alarm (``rounds`` if none) and its side."""
    policy, detector = Policy(), Detector.new()
    for index, played in enumerate(simulated_rounds(rounds, seed=seed, paid_blind=rig)):
        shares = round_streams("t", played.boxes, channels={}, policy=policy)
        share = next(s for stream, s in shares.items() if stream.kind == "table")
        detector.update(share.observation(policy))
        sides = detector.alarming(threshold=threshold)
        if sides:
            return index + 1, sides[0]
    return rounds, "none"


def fair_alarms(rounds: int, seed: int, threshold: float) -> dict[str, int]:
    policy, detector = Policy(), Detector.new()
    alarms = {"high": 0, "low": 0}
    for played in simulated_rounds(rounds, seed=seed):
        shares = round_streams("t", played.boxes, channels={}, policy=policy)
        detector.update(
            next(s for st, s in shares.items() if st.kind == "table").observation(policy)
        )
        for side in detector.alarming(threshold=threshold):
            alarms[side] += 1
            detector.restart(side)
    return alarms


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--max", type=int, default=600_000)
    parser.add_argument("--fair", type=int, default=2_000_000)
    args = parser.parse_args()
    plan = design(Settings())
    threshold = plan["threshold"]
    print(
        f"alarm level A = {threshold:,.0f} (log {plan['level']:.2f}): {plan['rounds_per_year']:,.0f}"
        f" rounds a table-year, {plan['detectors_per_table']} detectors a table, "
        f"{plan['false_alarms_per_table_year']} false alarm a table-year designed"
    )
    for name, rig in RIGS.items():
        started = time.monotonic()
        found = [first_alarm(args.max, 1000 + run, threshold, rig) for run in range(args.runs)]
        delays = sorted(n for n, _ in found)
        sides = {side for _, side in found}
        print(
            f"{name}: flagged ({'/'.join(sorted(sides))}) after median {statistics.median(delays):,.0f}"
            f" rounds, at most {delays[-1]:,} in {args.runs} runs "
            f"[{time.monotonic() - started:.0f} s]"
        )
    for level in (threshold, 1000.0, 100.0):
        started = time.monotonic()
        alarms = fair_alarms(args.fair, 7, level)
        print(
            f"fair table, {args.fair:,} rounds, A = {level:,.0f}: alarms {alarms} "
            f"(design allows at most {args.fair / level:,.1f} a side) "
            f"[{time.monotonic() - started:.0f} s]"
        )


if __name__ == "__main__":
    main()
