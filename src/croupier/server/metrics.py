"""Prometheus metrics, one registry per application (``create_app`` builds one), so tests
can build several apps side by side; nothing is registered at import.

What the tables report goes through :class:`TableObserver`, a two-method protocol: the table
code calls it where a round closes and where a request is answered; the WebSocket endpoint
counts sockets, frames and acknowledgement latency itself.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Protocol

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.registry import Collector

__all__ = ["CONTENT_TYPE_LATEST", "NO_METRICS", "Counts", "Metrics", "TableObserver", "Tally"]

_LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class Tally:
    """One labelled value of a :class:`Counts`: a plain integer."""

    __slots__ = ("value",)

    def __init__(self) -> None:
        self.value = 0

    def inc(self, amount: int = 1) -> None:
        self.value += amount


class Counts(Collector):
    """A counter family counted in plain integers and read when scraped: what the event
    loop counts thousands of times a round (requests answered, frames written). A
    :class:`prometheus_client.Counter` takes a lock on every ``inc``; these are only ever
    added to from the event loop's thread."""

    def __init__(
        self, name: str, documentation: str, labels: Sequence[str], *, registry: CollectorRegistry
    ) -> None:
        self.name = name
        self.documentation = documentation
        self.labels = tuple(labels)
        self._values: dict[tuple[str, ...], Tally] = {}
        registry.register(self)

    def child(self, *values: str) -> Tally:
        """The value of these label values (one per label, in order)."""
        if len(values) != len(self.labels):
            raise ValueError(f"{self.name} has labels {self.labels}, not {values}")
        tally = self._values.get(values)
        if tally is None:
            tally = self._values[values] = Tally()
        return tally

    def describe(self) -> Iterator[CounterMetricFamily]:
        yield CounterMetricFamily(self.name, self.documentation, labels=self.labels)

    def collect(self) -> Iterator[CounterMetricFamily]:
        family = CounterMetricFamily(self.name, self.documentation, labels=self.labels)
        for values, tally in list(self._values.items()):
            family.add_metric(list(values), tally.value)
        yield family


class TableObserver(Protocol):
    """What a table tells about itself."""

    def round_closed(self, *, table: str, game: str, status: str) -> None: ...

    def answered(self, *, table: str, kind: str, ok: bool) -> None: ...


class _Nothing:
    def round_closed(self, *, table: str, game: str, status: str) -> None:
        del table, game, status

    def answered(self, *, table: str, kind: str, ok: bool) -> None:
        del table, kind, ok


NO_METRICS: TableObserver = _Nothing()
"""The observer of a table nobody measures."""


class Metrics:
    """The application's metrics and their registry."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.rounds = Counter(
            "croupier_rounds", "Rounds closed", ["table", "game", "status"], registry=r
        )
        self.requests = Counts(
            "croupier_requests",
            "Table requests answered (type bet: the bets), by outcome",
            ["table", "type", "outcome"],
            registry=r,
        )
        self.frames = Counts("croupier_frames_sent", "WebSocket frames sent", ["table"], registry=r)
        self.ack_latency = Histogram(
            "croupier_ack_latency_seconds",
            "From a table request's arrival to its acknowledgement or error",
            ["type"],
            buckets=_LATENCY_BUCKETS,
            registry=r,
        )
        self.gateway_holds = Counter(
            "croupier_gateway_holds",
            "Bets and decisions whose stakes this process (a cluster's gateway) handled before "
            "their table's owner, by outcome: held, replayed, refused (nothing held), passed "
            "(left to the owner); and by type (bet, act)",
            ["table", "outcome", "type"],
            registry=r,
        )
        self._answered: dict[tuple[str, str, bool], Tally] = {}
        self.sockets = Gauge(
            "croupier_open_sockets", "Open table WebSockets", ["table"], registry=r
        )

    def round_closed(self, *, table: str, game: str, status: str) -> None:
        self.rounds.labels(table=table, game=game, status=status).inc()

    def answered(self, *, table: str, kind: str, ok: bool) -> None:
        # The labelled child looked up once per (table, type, outcome): ``labels`` builds and
        # checks its key on every call, and a live table answers thousands a round.
        key = (table, kind, ok)
        child = self._answered.get(key)
        if child is None:
            outcome = "ack" if ok else "error"
            child = self._answered[key] = self.requests.child(table, kind, outcome)
        child.value += 1

    def render(self) -> bytes:
        """The text exposition format."""
        return generate_latest(self.registry)
