"""A table's money in play, in one place: :class:`Escrow` (one process) and
:class:`WindowedEscrow` (a cluster's table, whose gateways hold stakes themselves).

A banked table's driver (:mod:`.banked`) asks its escrow for every movement of money of the
round in play, and nothing else in the table touches the wallet:

- ``open``: the round opened with its opening stakes, in one transaction (:mod:`.stakes`);
- ``hold``: stakes (bets, or decisions' fees and bets) held, each under its idempotency key,
  in one transaction per part; ``replayed``: the answers of stakes resent; ``earlier``:
  those of bets resent after their round moved on (betting closed, or the round over);
- ``verify``: a gateway's prepaid holds checked in the database (the hold exists, is that
  user's, for that round, that bet or decision and that amount: :func:`.window.verified_holds`);
- ``keep`` / ``kept`` / ``returned``: the holds of the round the table took, and those it
  refused and returned (``release``);
- ``move_window``: a phase closed (the holds the table did not take returned) and the next
  decision phase opened for the gateways; nothing to do in one process;
- ``settle``, ``void``: the round paid out, or every stake returned.

Each stake's record is built by :func:`.staking.stake_order`, which a cluster's gateway
(:mod:`..cluster.holds`) calls too: whichever process holds a stake finds the other's.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from croupier.errors import CroupierError
from croupier.server.rounds import store as rounds
from croupier.server.tables import stakes, window
from croupier.server.tables.connection import Prepaid
from croupier.server.tables.core import TableCore
from croupier.server.wallet.service import Movement

__all__ = ["Escrow", "WindowedEscrow"]

log = logging.getLogger(__name__)


class Escrow:
    """The money of one table's round in play, in one process."""

    windowed = False
    """Whether a cluster's gateways hold stakes for this table (:class:`WindowedEscrow`)."""

    def __init__(self, core: TableCore) -> None:
        self._core = core
        self._kept: set[int] = set()
        self._returned: set[int] = set()
        self.decision_window: str | None = None
        """The decision phase whose stakes may be held now (``None``: none this round)."""

    # -- the round's holds -------------------------------------------------------------

    def begin(self, returned: Iterable[int] = ()) -> None:
        """A round is in play: nothing kept yet; ``returned``, the holds refused before it
        opened (a cluster's round prepared)."""
        self._kept, self._returned = set(), set(returned)
        self.decision_window = None

    def end(self) -> None:
        """The round closed."""
        self.begin()

    def keep(self, hold: int) -> None:
        """The table took the stake of hold ``hold`` (a bet placed, a decision applied)."""
        self._kept.add(hold)

    def kept(self, hold: int) -> bool:
        return hold in self._kept

    def returned(self, hold: int) -> bool:
        """Whether hold ``hold`` was refused and its stake returned (never placed)."""
        return hold in self._returned

    # -- the database ------------------------------------------------------------------

    async def open(
        self, opening: stakes.Opening, batch: list[rounds.Stake], *, recorded: int | None
    ) -> tuple[int | None, list[Any]]:
        """Open a round with its first stakes (:func:`.stakes.open_and_stake`)."""
        core = self._core
        round_id, answers = await core.db_call(
            stakes.open_and_stake,
            core.db,
            opening=opening,
            stakes=batch,
            check=core.admission.check_stakes,
            recorded=recorded,
        )
        return round_id, list(answers)

    async def hold(self, batch: list[rounds.Stake]) -> list[Any]:
        """Hold stakes for the round in play, each answer in order (in parts held at once:
        :func:`.stakes.parts`)."""
        core = self._core
        held = await asyncio.gather(
            *(
                core.db_call(
                    stakes.hold,
                    core.db,
                    round_id=core.round_id,
                    stakes=part,
                    check=core.admission.check_stakes,
                )
                for part in stakes.parts(core.db, batch)
            )
        )
        return [answer for part in held for answer in part]

    async def replayed(self, batch: list[rounds.Stake]) -> list[Any]:
        """Each stake resent's first answer (:func:`.stakes.replayed_stakes`)."""
        core = self._core
        return list(
            await core.db_call(
                stakes.replayed_stakes, core.db, round_id=core.round_id, stakes=batch
            )
        )

    async def earlier(
        self, batch: list[rounds.Stake]
    ) -> list[tuple[int, int, Movement] | CroupierError | None]:
        """Each bet resent whose round has moved on: the round it was taken in, the seat and
        its first answer, or why not (:func:`.stakes.earlier_stakes`)."""
        core = self._core
        found: list[tuple[int, int, Movement] | CroupierError | None] = await core.db_call(
            stakes.earlier_stakes, core.db, table=core.name, stakes=batch
        )
        return found

    async def verify(self, claims: Sequence[tuple[Prepaid, rounds.Stake]]) -> list[window.Verdict]:
        """Whether each prepaid hold is, in the database, the hold of that stake (its user,
        round, key -- the bet or the decision -- and amount) and still held (issue 26)."""
        core = self._core
        found = [window.Claim(paid.round_id, paid.transaction_id, stake) for paid, stake in claims]
        verdicts: list[window.Verdict] = await core.db_call(
            stakes.verify_holds, core.db, found, table=core.name
        )
        return verdicts

    async def release(
        self, holds: Collection[int], *, round_id: int, returned: set[int] | None = None
    ) -> None:
        """Return the stakes of ``holds`` the table refused (``returned``: where they are
        counted, the round's own by default). A failure is logged: the window's close (or
        the settlement) returns them."""
        if not holds:
            return
        (self._returned if returned is None else returned).update(holds)
        core = self._core
        try:
            await core.db_call(stakes.release, core.db, round_id=round_id, holds=list(holds))
        except Exception:
            log.exception("releasing %d holds at %s failed", len(holds), core.name)

    async def move_window(self, phase: str | None) -> None:
        """Betting, or a decision phase, closed; decision phase ``phase`` open (``None``:
        none). One process has no window: nothing moves."""
        self.decision_window = phase

    async def settle(
        self, *, returns: Mapping[int, int], record: Mapping[str, Any], summary: Mapping[str, Any]
    ) -> None:
        """Record the round's result and pay escrow out."""
        core = self._core
        await core.db_call(
            stakes.settle,
            core.db,
            round_id=core.round_id,
            returns=returns,
            record=record,
            summary=summary,
            kept=self._settled_window(),
        )

    def _settled_window(self) -> set[int] | None:
        return None

    async def void(self, *, round_id: int, reason: str, record: Mapping[str, Any]) -> None:
        """Void round ``round_id`` (the one in play, or one whose void the database refused
        before: :mod:`.voiding`): every stake back."""
        core = self._core
        await core.db_call(stakes.void, core.db, round_id=round_id, reason=reason, record=record)


class WindowedEscrow(Escrow):
    """A cluster's table: its gateways hold bets' stakes for the round's betting window, and
    at a live table decisions' stakes for its decision phase (issue 18, :mod:`.window`);
    each move of the window returns the holds the table did not take."""

    windowed = True

    async def move_window(self, phase: str | None) -> None:
        """Close the round's betting, or its decision phase, in the database and open
        decision phase ``phase``; every hold of the round the table did not take is returned
        (:func:`.window.close_window`).

        Raises:
            Exception: the database failed (the caller voids the round).
        """
        core = self._core
        if core.round_id is None:
            return
        released = await core.db_call(
            stakes.close_window,
            core.db,
            round_id=core.round_id,
            kept=set(self._kept),
            decisions=phase,
        )
        self.decision_window = phase
        self._returned.update(one.hold_id for one in released)
        if released:
            log.warning(
                "%s: %d stakes held for bets or decisions the table never took returned",
                core.name, len(released),
            )  # fmt: skip

    def _settled_window(self) -> set[int] | None:
        # A live table's last decision window is closed with the settlement.
        return set(self._kept) if self._core.crowd else None
