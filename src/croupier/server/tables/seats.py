"""Who sits where at one table, and the seat rules: the :class:`Seats` of a table.

Seats that are scarce are for players (issue 13, seat squatting). At a table with a seat
limit -- a casino UTH table, a Russian Poker table, a Hold'em cash table -- a seat is taken
only by an account that can play: its wallet holds at least the table's least bet (a cash
table: the minimum buy-in). A seat whose player lets ``idle_rounds`` rounds pass without
playing is freed, and that account waits one ``betting_seconds`` window before it may sit
again at the table:

- a round counts when it closes, for every seat without a bet in it;
- while no round is played (every seat taken by players who never bet opens none), each
  ``betting_seconds`` window counts for every seated player;
- at a cash table, a hand counts for a seat not dealt in (no chips, sitting out) or one that
  timed out in it; an idle window only for the seats that are not ready to play.

What differs between kinds of table (the least a seat needs, which seats an idle window
counts, how a seat is freed) is the driver's :class:`SeatPolicy`. One account holds one seat
per table (joining again returns the seat it has). The live table (no seat limit) keeps its
rules: nobody can take a seat from anybody there. A closed table (issue 16) takes no new
seat, and the table's :class:`.admission.Admission` may refuse one (a self-excluded player).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from typing import Protocol

from croupier.errors import CroupierError, IllegalActionError, InsufficientFunds
from croupier.server.errors import ConflictError, PermissionDeniedError
from croupier.server.tables.admission import NO_CHECKS, Admission
from croupier.server.tables.broadcast import Broadcaster
from croupier.server.tables.connection import Connection
from croupier.server.tables.core import Occupant, TableCore, TableStatus
from croupier.server.tables.wire import JoinResult, LeaveResult, Left, Seated
from croupier.server.wallet import service as wallet

__all__ = ["NO_CHECKS", "Admission", "SeatPolicy", "Seats"]


class SeatPolicy(Protocol):
    """What the seat rules ask of the table's driver."""

    def seat_minimum(self) -> int:
        """What a new seat needs in the wallet (the table's least bet, or buy-in)."""
        ...

    def idle_candidates(self) -> list[int]:
        """The seats an idle window counts against."""
        ...

    async def free_idle(self, seats: Sequence[int]) -> None:
        """Free ``seats``, whose players let too many rounds pass."""
        ...


class Seats:
    """The seats of one table and their rules; the seat map itself is the core's."""

    def __init__(self, core: TableCore, out: Broadcaster) -> None:
        self.core = core
        self.out = out
        self.policy: SeatPolicy | None = None
        """The driver's (set once it is built)."""
        self.idle: dict[int, int] = {}
        """seat -> rounds (or idle windows) let pass without playing."""
        self.cooldown: dict[int, float] = {}
        """user id -> clock time before which a user freed for idleness may not sit again."""
        self._idle_generation = -1
        self.to_free: list[int] = []
        self._next_live_seat = 0

    @property
    def _policy(self) -> SeatPolicy:
        assert self.policy is not None, "a table sets its driver as its seat policy"
        return self.policy

    # -- taking and giving up a seat --------------------------------------------------------

    def seat(self, conn: Connection) -> int:
        """The seat of ``conn``'s user.

        Raises:
            IllegalActionError: not seated (``not_seated``).
        """
        seat = self.core.seat_of.get(conn.user_id)
        if seat is None:
            raise IllegalActionError("take a seat first (join)", reason="not_seated")
        return seat

    def deciding(self, conn: Connection, claimed: int | None) -> int:
        """The seat of ``conn``'s user deciding, where the decision names seat ``claimed``
        (``None``: it names none).

        Raises:
            IllegalActionError: not seated (``not_seated``).
            PermissionDeniedError: it names another seat (``not_your_seat``).
        """
        seat = self.seat(conn)
        if claimed is not None and claimed != seat:
            raise PermissionDeniedError(
                f"seat {claimed} is not yours (you sit in {seat})", reason="not_your_seat"
            )
        return seat

    def join(self, conn: Connection, wanted: int | None) -> JoinResult:
        core = self.core
        if conn.user_id in core.seat_of:
            seat = core.seat_of[conn.user_id]
            if wanted is not None and wanted != seat:
                raise ConflictError(
                    f"you already sit in seat {seat}; leave it first",
                    reason="already_seated",
                    params={"seat": seat},
                )
            return JoinResult(seat=seat)
        wanted = self._free_seat(wanted)
        core.seats[wanted] = Occupant(conn.user_id, conn.username)
        core.seat_of[conn.user_id] = wanted
        self.out.announce(conn.user_id, Seated(seat=wanted, username=conn.username))
        self.out.send_state_to(conn.user_id)
        return JoinResult(seat=wanted)

    def _free_seat(self, wanted: int | None) -> int:
        """The seat a new player takes: ``wanted``, or the first free one."""
        core = self.core
        limit = core.factory.max_seats()
        if wanted is None:
            if limit is None:
                while self._next_live_seat in core.seats:
                    self._next_live_seat += 1
                return self._next_live_seat
            free = [s for s in range(limit) if s not in core.seats]
            if not free:
                raise ConflictError(
                    f"the table is full ({limit} seats)",
                    reason="table_full",
                    params={"seats": limit},
                )
            return free[0]
        if limit is not None and wanted >= limit:
            raise IllegalActionError(
                f"seat {wanted} does not exist: seats are 0..{limit - 1}",
                reason="seat_does_not_exist",
                params={"seat": wanted, "seats": limit},
            )
        if wanted in core.seats:
            raise ConflictError(
                f"seat {wanted} is taken", reason="seat_taken", params={"seat": wanted}
            )
        return wanted

    def leave(self, conn: Connection) -> LeaveResult:
        """Give a seat up (a table against the house: not with bets in the round in play)."""
        core = self.core
        seat = core.seat_of.get(conn.user_id)
        if seat is None:
            raise IllegalActionError("you are not seated at this table", reason="not_seated")
        if core.status in (TableStatus.BETTING, TableStatus.PLAYING) and seat in core.round_users:
            raise IllegalActionError(
                f"seat {seat} has bets in round {core.round_id}: leave after it ends",
                reason="leave_with_bets",
            )
        self.vacate(seat, conn.user_id)
        self.out.announce(conn.user_id, Left(seat=seat, username=conn.username))
        self.out.send_state_to(conn.user_id)
        return LeaveResult(seat=None)

    def vacate(self, seat: int, user_id: int) -> None:
        """Empty ``seat`` (its idle count goes with it)."""
        self.core.seats.pop(seat, None)
        self.core.seat_of.pop(user_id, None)
        self.idle.pop(seat, None)

    def free_ghost_seats(self, users: Collection[int] | None = None) -> None:
        """Free the seats of users with no connection left, unless they have bets in play
        (those keep their seat until the round ends: a reconnect resumes it). ``users``: look
        at their seats only -- a disconnect's (a seat kept for bets in play is freed when its
        round ends, so no other can have become free): a dead gateway's thousand sockets at
        a live table's thousands of seats are then a thousand lookups, not millions."""
        core = self.core
        playing = core.status in (TableStatus.BETTING, TableStatus.PLAYING)
        if users is None:
            seated = list(core.seats.items())
        else:
            seats = (core.seat_of.get(user) for user in users)
            seated = [(seat, core.seats[seat]) for seat in seats if seat in core.seats]
        for seat, occupant in seated:
            if occupant.user_id in self.out.by_user:
                continue
            if playing and core.round_users.get(seat) == occupant.user_id:
                continue
            del core.seats[seat]
            del core.seat_of[occupant.user_id]
            self.out.announce(occupant.user_id, Left(seat=seat, username=occupant.username))

    # -- who may sit -----------------------------------------------------------------------

    @property
    def guarded(self) -> bool:
        """Seats are scarce (a seat limit): squatting them is refused."""
        return self.core.factory.max_seats() is not None

    def check_open(self) -> None:
        """Refuse a new bet, seat or buy-in at a closed table.

        Raises:
            IllegalActionError: the table is closed (``reason`` ``table_closed``).
        """
        if self.core.closed:
            raise IllegalActionError(
                f"table {self.core.name} is closed: no new bets or seats",
                reason="table_closed",
                params={"table": self.core.name},
            )

    def wallet_balance(self, user_id: int) -> int:
        with self.core.db.session() as session:
            return int(wallet.player_balance(session, user_id=user_id))

    async def may_sit(self, conn: Connection) -> None:
        """Refuse a new seat to a player who cannot play, or was just freed for idleness:
        :meth:`may_sit_many` of one.

        Raises:
            IllegalActionError: the table is closed, or the player was freed for not playing
                less than a window ago.
            PermissionDeniedError: the player excluded themselves (:class:`Admission`).
            InsufficientFunds: the wallet holds less than the table minimum.
        """
        refused = await self.may_sit_many([conn])
        if conn in refused:
            raise refused[conn]

    async def may_sit_many(self, conns: Sequence[Connection]) -> dict[Connection, CroupierError]:
        """The connections among ``conns`` refused a new seat, each with why; the players of
        a live table sitting down together are checked in one query.

        Raises:
            IllegalActionError: the table is closed (every seat refused).
        """
        core = self.core
        new = [conn for conn in conns if conn.user_id not in core.seat_of]
        if not new:
            return {}
        self.check_open()
        users = [conn.user_id for conn in new]
        excluded = await core.db_call(core.admission.refused_seats, core.db, users)
        refused = {conn: excluded[conn.user_id] for conn in new if conn.user_id in excluded}
        if self.guarded:
            for conn in new:
                if conn not in refused:
                    try:
                        await self._may_take_scarce(conn)
                    except CroupierError as exc:
                        refused[conn] = exc
        return refused

    async def _may_take_scarce(self, conn: Connection) -> None:
        """At a table with a seat limit: not freed for idleness a moment ago, and the
        table's minimum in the wallet."""
        core = self.core
        wait = self.cooldown.get(conn.user_id, 0.0) - core.clock.now()
        if wait > 0:
            raise IllegalActionError(
                f"your seat was freed for not playing: you may sit again in {math.ceil(wait)} s",
                reason="seat_wait",
                params={"seconds": math.ceil(wait)},
            )
        need = self._policy.seat_minimum()
        if need > 0:
            have = await core.db_call(self.wallet_balance, conn.user_id)
            if have < need:
                raise InsufficientFunds(
                    f"a seat at {core.name} needs {need} in your wallet (the table "
                    f"minimum); you have {have}",
                    reason="seat_needs_funds",
                    params={"need": need, "balance": have},
                )

    # -- seats let idle --------------------------------------------------------------------

    def arm_idle(self) -> None:
        """While no round is played, let a ``betting_seconds`` window count as a round let
        pass (a table whose every seat is squatted plays no round)."""
        core = self.core
        if (
            self.guarded
            and self._policy.idle_candidates()
            and core.status is TableStatus.IDLE
            and self._idle_generation != core.timer_generation
        ):
            core.arm(core.config.betting_seconds)
            core.deadline = None
            self._idle_generation = core.timer_generation

    def idle_seats(self, seats: Sequence[int]) -> list[int]:
        """Count one more round let pass for ``seats``; return the seats now over the limit."""
        over = []
        for seat in seats:
            self.idle[seat] = self.idle.get(seat, 0) + 1
            if self.idle[seat] >= self.core.config.idle_rounds:
                over.append(seat)
        return over

    def count_round(self, played: Collection[int]) -> list[int]:
        """After a round: reset the seats that played, count the others; the seats to free."""
        for seat in played:
            self.idle.pop(seat, None)
        if not self.guarded:
            return []
        return self.idle_seats([s for s in self.core.seats if s not in played])

    def wait_after_idle(self, user_id: int) -> None:
        """A player freed for idleness waits one betting window before sitting again."""
        self.cooldown[user_id] = self.core.clock.now() + self.core.config.betting_seconds

    def unseat_idle(self, seat: int, occupant: Occupant) -> None:
        """Free the seat of a player who did not play."""
        self.vacate(seat, occupant.user_id)
        self.wait_after_idle(occupant.user_id)
        self.out.announce(
            occupant.user_id,
            Left(seat=seat, username=occupant.username, reason="idle"),
        )
        self.out.send_state_to(occupant.user_id)

    def free_counted(self) -> None:
        """Free the seats the last round found over the limit (once the table is idle)."""
        for seat in self.to_free:
            occupant = self.core.seats.get(seat)
            if occupant is not None:
                self.unseat_idle(seat, occupant)
        self.to_free = []

    async def idle_window(self) -> None:
        """The idle timer ran out: the seated players let one more window pass."""
        self._idle_generation = -1
        await self._policy.free_idle(self.idle_seats(self._policy.idle_candidates()))
        if self.core.seats:
            self.out.broadcast_state()
        self.arm_idle()
