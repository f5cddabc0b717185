"""`croupier bots`: players over real WebSockets, for load tests and demos.

Each bot registers (or logs in), is credited by the operator when credentials are given, takes
a seat, bets as soon as the table takes bets and decides the moment it may, with zero think
time. Decisions follow a short rule of thumb (not the optimal strategy): pre-flop 4x with a
pair or an ace, on the flop 2x with a pair using a hole card, on the river 1x with such a pair,
otherwise check, and fold on the river.

The bots measure what a player waits for: the time from each request (bet, decision) to its
acknowledgement, and, at one observing seat, the time from the round's settlement event to
the ``round_closed`` frame that follows the settlement's database commit.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import typer

from croupier.cli import wsclient

__all__ = ["BotPlan", "LoadStats", "percentile", "provision", "register", "run_bots"]

_RANKS = "23456789TJQKA"
_GRACE_SECONDS = 10.0
_RECONNECTS = 5
"""How many times a bot connects again after its connection dropped."""
"""How long a bot waits, once the run stops, for answers to the requests it has sent."""


@dataclass(frozen=True, slots=True, kw_only=True)
class BotPlan:
    """What every bot does."""

    url: str
    """The server's HTTP base URL (``http://127.0.0.1:8000``); WebSockets use the same host."""
    table: str
    ante: int = 100
    trips: int = 0
    rounds: int = 10
    """Rounds each bot plays before it stops (0: until ``seconds`` run out)."""
    seconds: float = 0.0
    """Wall-clock bound for the whole run (0: none)."""
    start_at: float = 0.0
    """No bet before this wall-clock time (``time.time()``; 0: at once): the bots connect
    and sit first, then play together (a benchmark of rounds, not of thousands joining)."""

    @property
    def ws_url(self) -> str:
        return "ws" + self.url.rstrip("/")[len("http") :] + f"/ws/tables/{self.table}"


@dataclass(slots=True)
class LoadStats:
    """Everything the bots measured (seconds)."""

    act_latency: list[float] = field(default_factory=list)
    bet_latency: list[float] = field(default_factory=list)
    round_bets: dict[str, list[float]] = field(default_factory=dict)
    """Round id -> its bets' latencies (the first round's bets meet the bots' connecting)."""
    settle_gap: list[float] = field(default_factory=list)
    """At the observing seat: ``round_settled`` event to ``round_closed`` (commit included)."""
    rounds_closed: list[float] = field(default_factory=list)
    rounds_opened: dict[str, float] = field(default_factory=dict)
    """Round id -> the monotonic time the first bot saw its ``round_opened``."""
    """Monotonic times at which the observing seat saw a round closed (settled or voided)."""
    voided: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    bets: int = 0
    acts: int = 0
    sent: dict[str, int] = field(default_factory=dict)
    """Requests sent, by kind (``bet``, ``act``, ``join``)."""
    unanswered: dict[str, int] = field(default_factory=dict)
    """Requests never answered (neither ack nor error) by the end, by kind: each bot waits
    a grace period for its last answers once the run stops."""
    net: int = 0
    started: float = 0.0
    finished: float = 0.0

    def rounds_per_minute(self) -> float:
        """Closed rounds per minute between the first and the last round closed."""
        if len(self.rounds_closed) < 2:
            return 0.0
        span = self.rounds_closed[-1] - self.rounds_closed[0]
        return 60.0 * (len(self.rounds_closed) - 1) / span if span > 0 else 0.0

    def summary(self) -> dict[str, Any]:
        """The figures a report quotes, in milliseconds where they are times."""

        def ms(values: list[float], q: float) -> float | None:
            v = percentile(values, q)
            return None if v is None else round(v * 1000, 2)

        return {
            "rounds": len(self.rounds_closed),
            "rounds_per_minute": round(self.rounds_per_minute(), 2),
            "voided": self.voided,
            "bets": self.bets,
            "acts": self.acts,
            "act_ack_p50_ms": ms(self.act_latency, 50),
            "act_ack_p99_ms": ms(self.act_latency, 99),
            "bet_ack_p50_ms": ms(self.bet_latency, 50),
            "bet_ack_p99_ms": ms(self.bet_latency, 99),
            "bet_ack_p99_ms_by_round": [
                ms(self.round_bets[key], 99) for key in sorted(self.round_bets, key=int)
            ],
            "settle_p50_ms": ms(self.settle_gap, 50),
            "settle_max_ms": ms(self.settle_gap, 100),
            "errors": dict(self.errors),
            "sent": dict(self.sent),
            "unanswered": dict(self.unanswered),
            "players_net": self.net,
            "seconds": round(self.finished - self.started, 2),
        }


def percentile(values: Sequence[float], q: float) -> float | None:
    """The ``q``-th percentile (nearest rank) of ``values``; ``None`` when empty.

    >>> percentile([4.0, 1.0, 3.0, 2.0], 50)
    2.0
    >>> percentile([4.0, 1.0, 3.0, 2.0], 99)
    4.0
    """
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 100))
    return ordered[min(len(ordered), int(rank)) - 1]


def decide(legal: Sequence[str], hole: Sequence[str], board: Sequence[str]) -> dict[str, Any]:
    """The bots' rule of thumb: an ``act`` message for the legal actions ``legal``.

    >>> decide(["check", "4x", "3x"], ["As", "7d"], [])
    {'action': 'play', 'multiple': 4}
    >>> decide(["1x", "fold"], ["2s", "7d"], ["Ah", "Kd", "Qc", "Js", "9h"])
    {'action': 'fold'}
    """
    ranks = [c[0] for c in hole]
    paired = len(set(ranks)) < len(ranks) or any(c[0] in ranks for c in board)
    strong = paired or "A" in ranks
    for multiple in (4, 2, 1):
        if f"{multiple}x" in legal and (strong if multiple == 4 else paired):
            return {"action": "play", "multiple": multiple}
    return {"action": "check"} if "check" in legal else {"action": "fold"}


async def provision(
    url: str,
    names: Sequence[str],
    *,
    password: str,
    operator: tuple[str, str] | None = None,
    credit: int = 0,
    concurrency: int = 16,
) -> list[str]:
    """Register (or log in) each name; credit each with ``credit`` when operator credentials
    are given. Returns the session tokens in the order of ``names``."""
    import httpx

    async with httpx.AsyncClient(base_url=url.rstrip("/"), timeout=60) as http:
        op_token = None
        if operator is not None:
            op_token = await _login(http, *operator)
        gate = asyncio.Semaphore(concurrency)

        async def one(name: str) -> str:
            async with gate:
                response = await _post(
                    http, "/api/auth/register", {"username": name, "password": password}
                )
                if response.status_code not in (201, 409):
                    raise RuntimeError(f"cannot register {name}: {response.text}")
                token = await _login(http, name, password)
                if op_token is not None and credit > 0:
                    me = (await http.get("/api/auth/me", headers=_auth(token))).json()
                    response = await http.post(
                        f"/api/operator/accounts/{me['id']}/credit",
                        json={"amount": credit, "memo": "bots"},
                        headers={**_auth(op_token), "Idempotency-Key": uuid.uuid4().hex},
                    )
                    if response.status_code != 200:
                        raise RuntimeError(f"cannot credit {name}: {response.text}")
                return token

        return list(await asyncio.gather(*(one(n) for n in names)))


def _frames(raw: str | bytes) -> list[dict[str, Any]]:
    """The frames of one message: a batch (a JSON array) or a single frame."""
    data = json.loads(raw)
    return data if isinstance(data, list) else [data]


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _post(http: Any, path: str, body: dict[str, Any], *, attempts: int = 20) -> Any:
    """POST ``body``; while the server answers 429 (it throttles logins and registrations per
    client address), wait the ``Retry-After`` it gives and try again."""
    for _ in range(attempts - 1):
        response = await http.post(path, json=body)
        if response.status_code != 429:
            return response
        await asyncio.sleep(float(response.headers.get("Retry-After", "1")))
    return await http.post(path, json=body)


async def _login(http: Any, username: str, password: str) -> str:
    response = await _post(http, "/api/auth/login", {"username": username, "password": password})
    if response.status_code != 200:
        raise RuntimeError(f"cannot log in as {username}: {response.text}")
    token: str = response.json()["access_token"]
    return token


class _Bot:
    """One seat: answers every state frame with the bet or the decision it calls for."""

    def __init__(self, plan: BotPlan, stats: LoadStats, *, observer: bool) -> None:
        self.plan = plan
        self.stats = stats
        self.observer = observer
        self.next_id = 1
        self.inflight: dict[int, tuple[str, float]] = {}
        self.joined = False
        self.bet_rounds: set[int] = set()
        self.bet_seats: dict[int, int] = {}
        """round id -> the seat this bot bet from, to find its own result in the summary."""
        self.acted: set[tuple[int, str]] = set()
        self.results: dict[int, int] = {}
        """round id -> this seat's net, from its ``seat_settled`` event."""
        self.settled_at: float | None = None
        self.state: dict[str, Any] | None = None
        self.round_id: int | None = None
        """The round in play as the last frame told it: a live table sends no ``state``
        after a seat's own bet (its ``seat_event`` and ack say it), so the last ``state``
        may predate the round its bet opened."""
        self.turn: tuple[str, list[str]] | None = None
        """A live table's ``your_turn`` not acted on yet: the phase and its legal actions
        (a live table sends no ``state`` during a round)."""
        self.hole: list[str] = []
        self.board: list[str] = []
        """The round's cards as its events dealt them (what a live table's bot decides on)."""
        self.failed = False
        """A refused bet is not retried in the same table state (say, bets closed)."""
        self.stopping = False
        """The run is over: no new bets or seats; the answers still owed are read, and a
        round the bot has bets in is played to its end (its result is part of ``net``)."""
        self.closed_rounds: set[int] = set()
        """The rounds it bet in that have closed (how many it has played)."""

    def done(self) -> bool:
        return self.plan.rounds > 0 and len(self.closed_rounds) >= self.plan.rounds

    def owed(self) -> bool:
        """Whether answers are owed to it, or a round it bet in has not closed yet."""
        return bool(self.inflight) or not self.bet_rounds <= self.closed_rounds

    async def _send(self, ws: Any, kind: str, message: dict[str, Any]) -> None:
        if self.stopping and kind != "act":
            return
        ident = self.next_id
        self.next_id += 1
        self.inflight[ident] = (kind, time.perf_counter())
        self.stats.sent[kind] = self.stats.sent.get(kind, 0) + 1
        await ws.send(json.dumps({**message, "id": ident}))

    def unanswered(self) -> None:
        """Count the requests still waiting for an answer."""
        for kind, _ in self.inflight.values():
            self.stats.unanswered[kind] = self.stats.unanswered.get(kind, 0) + 1

    async def handle(self, ws: Any, frame: dict[str, Any]) -> None:
        kind = frame.get("type")
        if kind in ("ack", "error"):
            self._answer(frame)
        elif kind in ("event", "seat_event"):
            # A live table sends what concerns this seat alone (its result) as a seat_event.
            self._event(frame["event"])
        elif kind == "state":
            self.state = frame
            self.round_id = frame["table"].get("round_id")
        elif kind == "welcome":
            # A new greeting: the table was taken over by another server of a cluster (its
            # round voided, the seats free): sit down again.
            self.joined = False
            self.failed = False
            # The last `state` is stale (a reconnected bot bet from it, seatless): wait for
            # the one that follows the greeting.
            self.state = None
            self.turn = None
        if self.inflight:
            # Frames that arrive while a request is in flight are kept and acted on once it
            # is answered.
            return
        if self.turn is not None:
            phase, legal = self.turn
            self.turn = None
            await self._decide(ws, phase, legal, self.hole, self.board)
        elif self.state is not None:
            await self._next_move(ws, self.state)

    def _answer(self, frame: dict[str, Any]) -> None:
        ref = frame.get("ref")
        sent = self.inflight.pop(ref, None) if isinstance(ref, int) else None
        if sent is None:
            return
        what, t0 = sent
        elapsed = time.perf_counter() - t0
        if frame["type"] == "error":
            reason = frame.get("reason")
            code = f"{what}:{frame.get('code')}" + (f"/{reason}" if reason else "")
            self.stats.errors[code] = self.stats.errors.get(code, 0) + 1
            self.failed = True
        elif what == "bet":
            self.stats.bet_latency.append(elapsed)
            self.stats.bets += 1
            self.round_id = int(frame["result"]["round_id"])
            self.stats.round_bets.setdefault(str(self.round_id), []).append(elapsed)
            self.bet_rounds.add(self.round_id)
            self.bet_seats[self.round_id] = int(frame["result"]["seat"])
        elif what == "act":
            self.stats.act_latency.append(elapsed)
            self.stats.acts += 1

    async def _next_move(self, ws: Any, frame: dict[str, Any]) -> None:
        table, view = frame["table"], frame.get("view") or {}
        if table.get("your_seat") is None:
            if not self.joined and not self.done():
                self.joined = True
                await self._send(ws, "join", {"type": "join"})
            return
        status, round_id = table.get("status"), self.round_id
        if status in ("idle", "betting") and view.get("box") is None and not self.done():
            if (round_id is None or round_id not in self.bet_rounds) and not self.failed:
                if (wait := self.plan.start_at - time.time()) > 0:
                    await asyncio.sleep(wait)  # seated; play starts for everyone together
                bets = {"ante": self.plan.ante}
                if self.plan.trips:
                    bets["trips"] = self.plan.trips
                await self._send(ws, "bet", {"type": "bet", "key": uuid.uuid4().hex, "bets": bets})
            return
        legal = view.get("legal") or []
        if legal:
            await self._decide(
                ws, str(view.get("phase")), legal, view.get("hole") or [], view.get("board") or []
            )

    async def _decide(
        self, ws: Any, phase: str, legal: list[str], hole: list[str], board: list[str]
    ) -> None:
        """Act once per phase of the round in play on ``legal``."""
        if not legal or self.round_id is None:
            return
        key = (int(self.round_id), phase)
        if key not in self.acted:
            self.acted.add(key)
            act = decide(legal, hole, board)
            await self._send(ws, "act", {"type": "act", **act})

    def _event(self, event: dict[str, Any]) -> None:
        kind = event.get("kind")
        if kind == "your_turn":
            self.turn = (str(event.get("phase")), list(event.get("legal") or []))
        elif kind == "hole_cards_dealt" and isinstance(event.get("cards"), list):
            # A live table's one shared hand is dealt to seat -1, in public; a casino
            # table's own cards come in this bot's projection (the others' are hidden).
            if event.get("seat") == -1 or event.get("seat") == self.bet_seats.get(
                self.round_id or -1
            ):
                self.hole = [str(c) for c in event["cards"]]
        elif kind == "board_dealt" and isinstance(event.get("cards"), list):
            self.board = [*self.board, *(str(c) for c in event["cards"])]
        elif kind == "table_idle" and self.state is not None:
            # A live table sends no `state` when it goes idle: the next bet is due now (a
            # bet refused in the pause before does not hold this window's back).
            table = {**self.state["table"], "status": "idle", "round_id": None}
            self.state = {**self.state, "table": table, "view": None}
            self.failed = False
        if kind == "round_opened":
            self.round_id = event.get("round_id")
            self.hole, self.board, self.turn = [], [], None
            self.stats.rounds_opened.setdefault(str(self.round_id), time.perf_counter())
        if kind == "round_settled" and self.observer:
            self.settled_at = time.perf_counter()
        elif kind == "seat_settled":
            # Each bot adds its own seat's result, so rounds the observer did not wait for
            # (a bot that sat down late plays one round more) are counted too.
            result = event.get("result") or {}
            if self.bet_seats and result.get("seat") == self.bet_seats.get(max(self.bet_seats)):
                self.results[max(self.bet_seats)] = int(result.get("net") or 0)
        elif kind == "round_closed":
            self.failed = False
            self.round_id = None
            if self.state is not None:
                # The table pauses (its `pause_seconds`) until `table_idle` (or a `state`)
                # says bets are taken: a bet now would be refused, bets closed.
                table = {**self.state["table"], "status": "pause"}
                self.state = {**self.state, "table": table, "view": None}
            round_id = event.get("round_id")
            if round_id in self.bet_rounds:
                self.closed_rounds.add(round_id)
                if event.get("status") == "settled":
                    self.stats.net += self.results.pop(round_id, 0)
            if self.observer:
                self.stats.rounds_closed.append(time.perf_counter())
                if event.get("status") == "voided":
                    self.stats.voided += 1
                elif self.settled_at is not None:
                    self.stats.settle_gap.append(time.perf_counter() - self.settled_at)
                self.settled_at = None


async def _play(
    plan: BotPlan, token: str, stats: LoadStats, *, observer: bool, stop: asyncio.Event
) -> None:
    """One bot for the whole run. Like a player's client it connects again when its
    connection drops (its server died: a cluster's load balancer sends it to another
    process, where the table greets it afresh), at most :data:`_RECONNECTS` times."""
    bot = _Bot(plan, stats, observer=observer)
    for attempt in range(_RECONNECTS + 1):
        try:
            await _session(bot, plan, token, stats, observer=observer, stop=stop)
            return
        except OSError as exc:  # a refused or dropped connection (wsclient.ConnectionClosed)
            if stop.is_set() or bot.done() or attempt == _RECONNECTS:
                raise
            name = f"reconnect:{type(exc).__name__}"
            stats.errors[name] = stats.errors.get(name, 0) + 1
            bot.unanswered()  # what the dropped connection never answered
            bot.inflight.clear()
            bot.joined = False
            # What the dropped connection said is stale: the next connection's `state` says
            # (a bot that bet from the old one before its greeting was refused `not_seated`).
            bot.state, bot.turn = None, None
            await asyncio.sleep(0.2 + 0.8 * random.random())


async def _session(
    bot: _Bot,
    plan: BotPlan,
    token: str,
    stats: LoadStats,
    *,
    observer: bool,
    stop: asyncio.Event,
) -> None:
    """One connection of ``bot``, until the run ends for it (on the lean client: with
    thousands of bots in a process, :mod:`.wsclient` costs a fraction of a general one)."""
    async with wsclient.connect(plan.ws_url, max_size=2**22) as ws:
        # The token goes in the first frame, never in the URL (docs/protocol.md).
        # batch: the frames the server sends together come as one JSON array.
        await ws.send(json.dumps({"type": "auth", "token": token, "batch": True}))
        receiving = False

        async def read() -> None:
            # One task reads the whole run (not a task and a wait per message: with a
            # thousand bots in a process, those were a fifth of its CPU).
            nonlocal receiving
            while (not bot.done() or observer) and not stop.is_set():
                receiving = True
                raw = await ws.recv()
                receiving = False
                for frame in _frames(raw):
                    await bot.handle(ws, frame)
                if observer and plan.rounds and len(stats.rounds_closed) >= plan.rounds:
                    return

        reader = asyncio.ensure_future(read())
        stopper = asyncio.ensure_future(stop.wait())
        cut = False
        try:
            await asyncio.wait({reader, stopper}, return_when=asyncio.FIRST_COMPLETED)
            if not reader.done() and receiving:
                reader.cancel()  # waiting for a frame: the run is over for this bot
            with contextlib.suppress(asyncio.CancelledError):
                await reader  # a message being handled is handled; a dropped socket raises
            # The answers still owed are waited for (a while), so that a request the server
            # never answers is told from one the run's end cut short; so is the end of a
            # round the bot has bets in (the run's end, seen first by the observer, cut its
            # result short: the bots' net then missed what the ledger paid).
            bot.stopping = True
            deadline = time.monotonic() + _GRACE_SECONDS
            while bot.owed() and (left := deadline - time.monotonic()) > 0:
                try:
                    raw = await asyncio.wait_for(ws.recv(), left)
                except TimeoutError:
                    break
                for frame in _frames(raw):
                    await bot.handle(ws, frame)
        except wsclient.ConnectionClosed:
            cut = True
            raise
        finally:
            if not cut:
                bot.unanswered()
            reader.cancel()
            stopper.cancel()
            with contextlib.suppress(BaseException):
                await reader


async def run_bots(
    plan: BotPlan,
    tokens: Sequence[str],
    *,
    on_round: Callable[[int], None] | None = None,
) -> LoadStats:
    """Seat one bot per token at ``plan.table`` and play until each has played
    ``plan.rounds`` rounds or ``plan.seconds`` have passed. The first bot observes the table
    (rounds closed, settlement times)."""
    stats = LoadStats(started=time.perf_counter())
    stop = asyncio.Event()
    tasks = [
        asyncio.create_task(_play(plan, token, stats, observer=i == 0, stop=stop))
        for i, token in enumerate(tokens)
    ]

    async def watch() -> None:
        seen = 0
        while True:
            await asyncio.sleep(0.5)
            if len(stats.rounds_closed) != seen:
                seen = len(stats.rounds_closed)
                if on_round is not None:
                    on_round(seen)

    watcher = asyncio.create_task(watch())
    try:
        timeout = plan.seconds if plan.seconds > 0 else None
        await asyncio.wait(tasks[:1], timeout=timeout)
        stop.set()
        await asyncio.wait(tasks, timeout=_GRACE_SECONDS + 5)
        for task in tasks:
            if not task.done():
                task.cancel()
            elif not task.cancelled() and task.exception() is not None:
                name = type(task.exception()).__name__
                stats.errors[f"connection:{name}"] = stats.errors.get(f"connection:{name}", 0) + 1
    finally:
        watcher.cancel()
        stats.finished = time.perf_counter()
    return stats


def register(app: typer.Typer) -> None:
    """Add the ``bots`` command to ``app``."""

    @app.command("bots")
    def bots(
        url: str = typer.Option("http://127.0.0.1:8000", help="The server's base URL."),
        table: str = typer.Option(..., "--table", "-t", help="The table to sit at."),
        players: int = typer.Option(10, "--players", "-n", min=1, max=5000),
        rounds: int = typer.Option(10, help="Rounds per bot (0: until --seconds run out)."),
        seconds: float = typer.Option(0.0, help="Stop after this many seconds (0: no limit)."),
        ante: int = typer.Option(100, help="Ante in minor units."),
        trips: int = typer.Option(0, help="Trips in minor units (0: none)."),
        prefix: str = typer.Option("bot", help="Bot usernames are PREFIX-0001..."),
        password: str = typer.Option(
            "bots-play-all-night-42",
            help="The bots' password (at least 10 characters, not guessable).",
        ),
        credit: int = typer.Option(100_000, help="Credit each bot this much (needs the operator)."),
        operator: str | None = typer.Option(None, envvar="CROUPIER_OPERATOR_USERNAME"),
        operator_password: str | None = typer.Option(None, envvar="CROUPIER_OPERATOR_PASSWORD"),
    ) -> None:
        """Seat N bots at a table over WebSockets; report latencies and rounds per minute."""
        from rich.console import Console
        from rich.table import Table

        console = Console()
        if rounds == 0 and seconds <= 0:
            raise typer.BadParameter("give --rounds or --seconds so the bots stop")
        plan = BotPlan(url=url, table=table, ante=ante, trips=trips, rounds=rounds, seconds=seconds)
        names = [f"{prefix}-{i:04d}" for i in range(players)]
        creds = (operator, operator_password) if operator and operator_password else None

        async def main() -> LoadStats:
            with console.status(f"registering {players} bots"):
                tokens = await provision(
                    url, names, password=password, operator=creds, credit=credit
                )
            console.print(f"{players} bots seated at {table}; playing")
            return await run_bots(
                plan, tokens, on_round=lambda n: console.print(f"  round {n} closed")
            )

        stats = asyncio.run(main())
        out = Table(title=f"{players} bots at {table}")
        out.add_column("figure")
        out.add_column("value", justify="right")
        for key, value in stats.summary().items():
            out.add_row(key, str(value))
        console.print(out)
