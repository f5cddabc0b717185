"""What the parts of one table share: :class:`TableCore`, the table's state.

A table (:class:`croupier.server.tables.table.Table`) is composed of parts that each own one
concern and meet here: the broadcaster (:mod:`.broadcast`: connections, the event log, the
frames), the seats (:mod:`.seats`: who sits where, the seat rules) and the driver that plays
the rounds (:mod:`.banked`, :mod:`.cash`). They all run on the table's one task, so this
state has a single writer and needs no locks. Nothing here sends a frame or knows a game.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from croupier.deck import Shoe
from croupier.server.db import Database
from croupier.server.metrics import NO_METRICS, TableObserver
from croupier.server.tables.admission import NO_CHECKS, Admission
from croupier.server.tables.clock import Clock
from croupier.server.tables.config import TableConfig
from croupier.server.tables.connection import Command, Timer
from croupier.server.tables.games import GameFactory, GameRound

__all__ = ["Occupant", "TableCore", "TableStatus"]


class TableStatus(StrEnum):
    """Where a table is in its rounds (its wire name in ``state`` and the lobby)."""

    IDLE = "idle"
    """No round in play: the next bet (or, at a cash table, enough seats) opens one."""
    BETTING = "betting"
    PLAYING = "playing"
    PAUSE = "pause"
    """A round closed; the next opens after the table's pause."""
    CLOSED = "closed"
    """A cash table's last hand played: the table stops."""


@dataclass(slots=True)
class Occupant:
    """Who sits in a seat."""

    user_id: int
    username: str


class TableCore:
    """One table's state: its settings, its inbox and timer, its seats and its round in play."""

    def __init__(
        self,
        config: TableConfig,
        factory: GameFactory,
        *,
        db: Database,
        clock: Clock,
        shoe_factory: Callable[[], Shoe],
    ) -> None:
        self.config = config
        self.factory = factory
        self.db = db
        self.clock = clock
        self.shoe_factory = shoe_factory
        self.inbox: asyncio.Queue[Command] = asyncio.Queue()
        self.metrics: TableObserver = NO_METRICS
        """Told of every round closed and request answered (the app sets its own)."""
        self.admission: Admission = NO_CHECKS
        self.status = TableStatus.IDLE
        self.closed = False
        """Closed by an operator: the round in play finishes, no new bets, seats or hands."""
        self.crowd = factory.max_seats() is None
        """A live table: per-seat events go to their seat only (see :mod:`.broadcast`)."""
        self.seats: dict[int, Occupant] = {}
        self.seat_of: dict[int, int] = {}
        """user id -> seat."""
        # The round in play.
        self.round: GameRound | None = None
        self.round_id: int | None = None
        self.commitment: str | None = None
        self.salt = ""
        self.deck = ""
        self.round_users: dict[int, int] = {}
        """seat -> user id of everyone with a stake in the current round."""
        self.cursor = 0
        """How many of the round's engine events were sent."""
        self.rounds_played = 0
        # The timer.
        self.deadline: float | None = None
        self.timer_generation = 0
        self.timer_task: asyncio.Task[None] | None = None
        self.retries: set[asyncio.Task[None]] = set()
        """Voids the database did not take, tried again (:mod:`.voiding`)."""

    @property
    def name(self) -> str:
        return self.config.name

    def begin_round(
        self,
        game_round: GameRound,
        *,
        round_id: int,
        commitment: str,
        salt: str,
        deck: str,
        users: dict[int, int],
    ) -> None:
        """A round opened (recorded with its commitment): it is now the one in play."""
        self.round, self.round_id = game_round, round_id
        self.commitment, self.salt, self.deck = commitment, salt, deck
        self.cursor = 0
        self.round_users = users

    def end_round(self) -> None:
        """The round closed: none in play, its timer disarmed."""
        self.round = None
        self.round_id = None
        self.commitment = None
        self.salt = self.deck = ""
        self.round_users = {}
        self.deadline = None
        self.timer_generation += 1

    def in_round(self, seat: int | None, user_id: int) -> bool:
        """Whether ``user_id`` has a stake (or is dealt in) at ``seat`` in the round in play."""
        return seat is not None and self.round_users.get(seat) == user_id

    def arm(self, seconds: float) -> None:
        """Set the table's timer ``seconds`` from now (a :class:`Timer` in the inbox then);
        the timer set before is disarmed."""
        self.timer_generation += 1
        generation = self.timer_generation
        deadline = self.deadline = self.clock.now() + seconds
        if self.timer_task is not None:
            self.timer_task.cancel()

        async def fire() -> None:
            # Measured from the deadline fixed now, not from when this task first runs.
            await self.clock.sleep(deadline - self.clock.now())
            await self.inbox.put(Timer(generation))

        self.timer_task = asyncio.create_task(fire())

    async def db_call(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        """``fn(*args, **kwargs)`` in a worker thread: the database never blocks the loop."""
        return await asyncio.to_thread(fn, *args, **kwargs)

    async def in_session(self, fn: Callable[..., Any], /, **kwargs: Any) -> Any:
        """``fn(session, **kwargs)`` in one transaction of its own, in a worker thread."""

        def run() -> Any:
            with self.db.session() as session:
                return fn(session, **kwargs)

        return await asyncio.to_thread(run)
