"""Which streams a settled round feeds, and what it adds to each (pure arithmetic).

A round feeds its table's stream; for each box, the stream of the box's stake band and of its
player's channel at that table; and, when asked, the stream of the server process that
monitored it (a cluster's node: its owner). A stream's observation for the round sums its
boxes: results, means, the most they could lose, and the standard deviations (the boxes of
one round share the dealer's cards: their results are taken as fully correlated, the most
variance they can have together).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from croupier.analysis.monitoring import Observation
from croupier.server.rounds.theory import MonitorBox

__all__ = ["Aggregate", "Policy", "Stream", "band_label", "round_streams"]


@dataclass(frozen=True, slots=True)
class Stream:
    """A stream's identity."""

    key: str
    kind: str
    table: str | None
    label: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Policy:
    """How boxes become observations (the server's settings)."""

    bands: tuple[int, ...] = (1_000, 10_000)
    margin: float = 2.0
    """The low side's second-moment bound, in multiples of optimal play's variance."""
    allowance: float = 0.05
    """Per unit of base stake: how far below optimal play a box whose decisions are not
    valued may fall before the low side counts it."""
    node: str | None = None
    """Also feed this node's stream."""


@dataclass(slots=True)
class Aggregate:
    """One stream's share of one round (mutable while the round's boxes are added)."""

    boxes: int = 0
    base: int = 0
    net: int = 0
    mean: float = 0.0
    mean_high: float = 0.0
    mean_low: float = 0.0
    loss: int = 0
    sd: float = 0.0
    seats: set[int] = field(default_factory=set)

    def add(self, box: MonitorBox, policy: Policy) -> None:
        self.boxes += 1
        self.base += box.base
        self.net += box.net
        self.mean += box.mean
        self.mean_high += box.mean if box.mean_high is None else box.mean_high
        low = box.mean if box.mean_low is None else box.mean_low
        self.mean_low += low if box.decisions_valued else low - policy.allowance * box.base
        self.loss += box.loss
        self.sd += math.sqrt(max(box.variance, 0.0))
        self.seats.add(box.seat)

    def observation(self, policy: Policy) -> Observation:
        return Observation(
            net=self.net,
            mean=self.mean,
            loss=max(self.loss, 1),
            variance=policy.margin * self.sd * self.sd,
            mean_high=self.mean_high,
            mean_low=self.mean_low,
        )


def _money(minor: int) -> str:
    return f"{minor / 100:,.2f}"


def band_label(index: int, bounds: Sequence[int]) -> str:
    """``"< 10.00"``, ``"10.00 - 100.00"``, ``">= 100.00"`` (base stake per box)."""
    if not bounds:
        return "all"
    if index == 0:
        return f"< {_money(bounds[0])}"
    if index >= len(bounds):
        return f">= {_money(bounds[-1])}"
    return f"{_money(bounds[index - 1])} - {_money(bounds[index])}"


def _band(base: int, bounds: Sequence[int]) -> int:
    return sum(1 for bound in bounds if base >= bound)


def round_streams(
    table: str,
    boxes: Sequence[MonitorBox],
    *,
    channels: Mapping[int, str],
    policy: Policy,
) -> dict[Stream, Aggregate]:
    """Each stream the round feeds, with its share (``channels``: seat -> channel)."""
    out: dict[Stream, Aggregate] = {}
    whole = Stream(f"table:{table}", "table", table, table)
    for box in boxes:
        band = _band(box.base, policy.bands)
        channel = channels.get(box.seat, "unknown")
        streams = [
            whole,
            Stream(f"table:{table}|band:{band}", "band", table, band_label(band, policy.bands)),
            Stream(f"table:{table}|channel:{channel}", "channel", table, channel),
        ]
        if policy.node is not None:
            streams.append(Stream(f"node:{policy.node}", "node", None, policy.node))
        for stream in streams:
            out.setdefault(stream, Aggregate()).add(box, policy)
    return out
