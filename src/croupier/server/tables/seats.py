"""Seats that are scarce are for players (issue 13, seat squatting).

At a table with a seat limit -- a casino UTH table, a Russian Poker table, a Hold'em cash
table -- a seat is taken only by an account that can play: its wallet holds at least the
table's least bet (a cash table: the minimum buy-in). A seat whose player lets
``idle_rounds`` rounds pass without playing is freed, and that account waits one
``betting_seconds`` window before it may sit again at the table:

- a round counts when it closes, for every seat without a bet in it;
- while no round is played (every seat taken by players who never bet opens none), each
  ``betting_seconds`` window counts for every seated player;
- at a cash table, a hand counts for a seat not dealt in (no chips, sitting out) or one that
  timed out in it; an idle window only for the seats that are not ready to play.

One account holds one seat per table (joining again returns the seat it has). The live table
(no seat limit) keeps its rules: nobody can take a seat from anybody there.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable, Collection, Sequence
from typing import Any

from croupier.errors import IllegalActionError, InsufficientFunds
from croupier.server.db import Database
from croupier.server.errors import ConflictError
from croupier.server.tables.clock import Clock
from croupier.server.tables.config import TableConfig
from croupier.server.tables.connection import Connection, Timer
from croupier.server.tables.frames import Occupant, TableFrames
from croupier.server.tables.games import GameFactory
from croupier.server.tables.wire import Left, Result, Seated
from croupier.server.wallet import service as wallet

__all__ = ["SeatRules"]


class SeatRules(TableFrames):
    """The seat rules of a table; :class:`croupier.server.tables.table.Table` runs them."""

    _db: Database
    _next_live_seat: int

    def __init__(
        self, config: TableConfig, factory: GameFactory, *, clock: Clock, history: int
    ) -> None:
        super().__init__(config, factory, clock=clock, history=history)
        self._idle: dict[int, int] = {}
        """seat -> rounds (or idle windows) let pass without playing."""
        self._cooldown: dict[int, float] = {}
        """user id -> clock time before which a user freed for idleness may not sit again."""
        self._idle_generation = -1
        self._to_free: list[int] = []
        self._timer_generation = 0
        self._timer_task: asyncio.Task[None] | None = None

    # -- taking and giving up a seat --------------------------------------------------------

    def _join(self, conn: Connection, wanted: int | None) -> Result:
        if conn.user_id in self._seat_of:
            seat = self._seat_of[conn.user_id]
            if wanted is not None and wanted != seat:
                raise ConflictError(
                    f"you already sit in seat {seat}; leave it first",
                    reason="already_seated",
                    params={"seat": seat},
                )
            return Result(seat=seat)
        limit = self.factory.max_seats()
        if wanted is None:
            if limit is None:
                while self._next_live_seat in self._seats:
                    self._next_live_seat += 1
                wanted = self._next_live_seat
            else:
                free = [s for s in range(limit) if s not in self._seats]
                if not free:
                    raise ConflictError(
                        f"the table is full ({limit} seats)",
                        reason="table_full",
                        params={"seats": limit},
                    )
                wanted = free[0]
        elif limit is not None and wanted >= limit:
            raise IllegalActionError(
                f"seat {wanted} does not exist: seats are 0..{limit - 1}",
                reason="seat_does_not_exist",
                params={"seat": wanted, "seats": limit},
            )
        if wanted in self._seats:
            raise ConflictError(
                f"seat {wanted} is taken", reason="seat_taken", params={"seat": wanted}
            )
        self._seats[wanted] = Occupant(conn.user_id, conn.username)
        self._seat_of[conn.user_id] = wanted
        self._announce(conn.user_id, Seated(seat=wanted, username=conn.username))
        self._send_state_to(conn.user_id)
        return Result(seat=wanted)

    def _leave(self, conn: Connection) -> Result:
        seat = self._seat_of.get(conn.user_id)
        if seat is None:
            raise IllegalActionError("you are not seated at this table", reason="not_seated")
        if self.status in ("betting", "playing") and seat in self._round_users:
            raise IllegalActionError(
                f"seat {seat} has bets in round {self._round_id}: leave after it ends",
                reason="leave_with_bets",
            )
        del self._seats[seat]
        del self._seat_of[conn.user_id]
        self._idle.pop(seat, None)
        self._announce(conn.user_id, Left(seat=seat, username=conn.username))
        self._send_state_to(conn.user_id)
        return Result(seat=None)

    # -- the table's timer and database calls ------------------------------------------------

    def _arm(self, seconds: float) -> None:
        self._timer_generation += 1
        generation = self._timer_generation
        deadline = self._deadline = self._clock.now() + seconds
        if self._timer_task is not None:
            self._timer_task.cancel()

        async def fire() -> None:
            # Measured from the deadline fixed now, not from when this task first runs.
            await self._clock.sleep(deadline - self._clock.now())
            await self._inbox.put(Timer(generation))

        self._timer_task = asyncio.create_task(fire())

    async def _db_call(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        """``fn(*args, **kwargs)`` in a worker thread: the database never blocks the loop."""
        return await asyncio.to_thread(fn, *args, **kwargs)

    # -- seats ---------------------------------------------------------------------------------

    @property
    def _guarded(self) -> bool:
        """Seats are scarce (a seat limit): squatting them is refused."""
        return self.factory.max_seats() is not None

    def _seat_minimum(self) -> int:
        """What a new seat needs in the wallet: the table's least bet."""
        minimum = getattr(self.factory, "min_stake", None)
        return int(minimum()) if callable(minimum) else 0

    def _wallet_balance(self, user_id: int) -> int:
        with self._db.session() as session:
            return int(wallet.player_balance(session, user_id=user_id))

    async def _may_sit(self, conn: Connection) -> None:
        """Refuse a new seat to a player who cannot play, or was just freed for idleness.

        Raises:
            IllegalActionError: freed for not playing less than a window ago.
            InsufficientFunds: the wallet holds less than the table minimum.
        """
        if not self._guarded or conn.user_id in self._seat_of:
            return
        wait = self._cooldown.get(conn.user_id, 0.0) - self._clock.now()
        if wait > 0:
            raise IllegalActionError(
                f"your seat was freed for not playing: you may sit again in {math.ceil(wait)} s",
                reason="seat_wait",
                params={"seconds": math.ceil(wait)},
            )
        need = self._seat_minimum()
        if need > 0:
            have = await self._db_call(self._wallet_balance, conn.user_id)
            if have < need:
                raise InsufficientFunds(
                    f"a seat at {self.config.name} needs {need} in your wallet (the table "
                    f"minimum); you have {have}",
                    reason="seat_needs_funds",
                    params={"need": need, "balance": have},
                )

    def _arm_idle(self) -> None:
        """While no round is played, let a ``betting_seconds`` window count as a round let
        pass (a table whose every seat is squatted plays no round)."""
        if (
            self._guarded
            and self._idle_candidates()
            and self.status == "idle"
            and self._idle_generation != self._timer_generation
        ):
            self._arm(self.config.betting_seconds)
            self._deadline = None
            self._idle_generation = self._timer_generation

    def _idle_candidates(self) -> list[int]:
        """The seats an idle window counts against (every seat; a cash table: those not
        ready to play)."""
        return sorted(self._seats)

    def _idle_seats(self, seats: Sequence[int]) -> list[int]:
        """Count one more round let pass for ``seats``; return the seats now over the limit."""
        over = []
        for seat in seats:
            self._idle[seat] = self._idle.get(seat, 0) + 1
            if self._idle[seat] >= self.config.idle_rounds:
                over.append(seat)
        return over

    def _count_round(self, played: Collection[int]) -> list[int]:
        """After a round: reset the seats that played, count the others; the seats to free."""
        for seat in played:
            self._idle.pop(seat, None)
        if not self._guarded:
            return []
        return self._idle_seats([s for s in self._seats if s not in played])

    def _unseat_idle(self, seat: int, occupant: Occupant) -> None:
        """Free the seat of a player who did not play."""
        del self._seats[seat]
        del self._seat_of[occupant.user_id]
        self._idle.pop(seat, None)
        self._cooldown[occupant.user_id] = self._clock.now() + self.config.betting_seconds
        self._announce(
            occupant.user_id,
            Left(seat=seat, username=occupant.username, reason="idle"),
        )
        self._send_state_to(occupant.user_id)

    def _free_counted(self) -> None:
        """Free the seats the last round found over the limit (once the table is idle)."""
        for seat in self._to_free:
            occupant = self._seats.get(seat)
            if occupant is not None:
                self._unseat_idle(seat, occupant)
        self._to_free = []

    async def _free_idle(self, seats: Sequence[int]) -> None:
        for seat in seats:
            occupant = self._seats.get(seat)
            if occupant is not None:
                self._unseat_idle(seat, occupant)

    async def _idle_window(self) -> None:
        """The idle timer ran out: the seated players let one more window pass."""
        self._idle_generation = -1
        await self._free_idle(self._idle_seats(self._idle_candidates()))
        if self._seats:
            self._broadcast_state()
        self._arm_idle()
