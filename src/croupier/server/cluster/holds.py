"""A gateway's wallet holds (issue 18): the stakes of the bets its sockets make, held by the
gateway itself for the round whose betting is open, batched, before the bets go to their
table's owner; and at a live table the extra stakes of its decisions (a UTH Play bet), held
for the round's decision phase open, at the price the seat's ``your_turn`` named.

Bets that arrive together at one table are held in one database transaction
(:func:`croupier.server.tables.stakes.hold_in_window`): the owner of a live table with
thousands of players then places bets whose money has moved already, and the wallet's work
is spread over every gateway. The stake is the one the owner would hold -- the same amount
(the game's price of the spots), idempotency key and details (spots and seat) -- so a bet
resent reaches the same record whichever process holds it.

A bet is passed on as it is, for the owner to hold (or refuse), when the gateway cannot hold
it: no round of the table takes bets now (a table between two rounds, or one whose next
round could not be recorded, :mod:`croupier.server.tables.nextround`), the socket's seat is
not known here, the game refuses the spots as they are, the key was used before for
something else, or the database failed. A refusal that moved no money -- funds short, a
limit reached -- is answered by the gateway; so is every bet while the bus is down (nothing
held). A decision likewise goes on as it is when its phase's window is not open in the
database (the phase closed), or the ``your_turn`` it answers named no stake for it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field

from croupier.errors import CroupierError
from croupier.server.cluster.tasks import Background
from croupier.server.db import Database
from croupier.server.errors import IdempotencyConflict, ServiceUnavailable
from croupier.server.rounds.store import Stake
from croupier.server.tables import stakes
from croupier.server.tables.connection import Prepaid
from croupier.server.tables.staking import stake_order
from croupier.server.tables.wire import ActMessage, BetMessage
from croupier.server.wallet.service import Movement, StakeCheck

__all__ = ["GatewayHolds", "Turn"]

log = logging.getLogger(__name__)

BATCH_MOST = 500
"""The most stakes one transaction holds."""
AT_ONCE = 2
"""The most transactions of holds at one table in flight together: one batch's database
work overlaps the next one's Python (the escrow's credit waits for each commit, so they do
not wait for each other: :mod:`croupier.server.wallet.ledger`)."""

Outcome = Prepaid | CroupierError | None
"""A bet's stake held (:class:`~croupier.server.tables.connection.Prepaid`), refused with
nothing held, or ``None``: the bet goes to its table's owner as it is."""


Window = tuple[str, tuple[int, str] | None]
"""Where a stake is held: a table, and a round's decision phase (``None``: its betting)."""


@dataclass(frozen=True, slots=True)
class Turn:
    """A seat's turn to decide at a live table, as its ``your_turn`` said."""

    round_id: int
    phase: str
    legal: frozenset[str]
    stakes: Mapping[str, int]
    """The extra stake of each decision that needs one, by its wire name."""
    decision: str
    """The decision's id (:class:`croupier.server.tables.turns.DecisionId`)."""


@dataclass(slots=True)
class _Waiting:
    stake: Stake
    answer: asyncio.Future[Outcome]
    decision: str | None = None


@dataclass(slots=True)
class GatewayHolds:
    """The holds of one gateway's bets, batched per table."""

    db: Database
    price: Callable[[str, Mapping[str, int]], int | None]
    """A bet's stake at a table (``TableManager.bet_stake``); ``None``: not held here."""
    word: Callable[[str, ActMessage], str | None] = lambda table, act: None
    """The wire name of a decision at a table (``TableManager.decision_word``)."""
    check: StakeCheck | None = None
    """The players' limits (the tables' :class:`~croupier.server.tables.admission.Admission`)."""
    count: Callable[[str, str, str], None] | None = None
    """Told each request's table, outcome (held, replayed, refused, passed) and type
    (``bet``, ``act``)."""
    reachable: Callable[[], Awaitable[None]] | None = None
    """Raises when the table's owner cannot be reached (the bus's ``ping``): asked before
    each batch, so that no stake is held for bets that could not reach it."""
    _waiting: dict[Window, list[_Waiting]] = field(default_factory=dict)
    _woken: dict[Window, asyncio.Event] = field(default_factory=dict)
    _background: Background = field(default_factory=Background)

    async def hold(self, table: str, *, user_id: int, seat: int, bet: BetMessage) -> Outcome:
        """Hold the stake of ``bet`` (from ``user_id`` at ``seat``) for ``table``'s round in
        betting, with the other bets waiting at that table."""
        bets = dict(bet.bets)
        amount = self.price(table, bets)
        if amount is None or amount <= 0:
            if self.count is not None:
                self.count(table, "passed", "bet")
            return None
        # The owner's stake of a bet exactly: one function builds both.
        stake = stake_order(user_id, seat=seat, amount=amount, key=bet.key, bets=bets)
        return await self._wait((table, None), stake)

    async def decide(
        self, table: str, *, user_id: int, seat: int, act: ActMessage, turn: Turn
    ) -> Outcome:
        """Hold the extra stake of decision ``act`` (from ``user_id`` at ``seat``, on its
        ``turn``) for ``table``'s round in that decision phase, with the other decisions
        waiting there; ``None`` (the owner decides) for a decision that adds no stake."""
        if act.decision is not None and act.decision != turn.decision:
            return None  # not this turn's: the owner answers it (a resend, or stale)
        if act.seat is not None and act.seat != seat:
            # Another seat's: the owner refuses it. Held, its refusal would return the stake
            # under this turn's key and so refuse the seat's own decision after it.
            return None
        word = self.word(table, act)
        amount = turn.stakes.get(word) if word in turn.legal else None
        if word is None or amount is None or amount <= 0:
            return None
        # The owner's stake of the decision exactly: one function builds both.
        stake = stake_order(user_id, seat=seat, amount=amount, decision=turn.decision, word=word)
        return await self._wait((table, (turn.round_id, turn.phase)), stake, turn.decision)

    async def _wait(self, window: Window, stake: Stake, decision: str | None = None) -> Outcome:
        waiting = _Waiting(stake, asyncio.get_running_loop().create_future(), decision)
        queue = self._waiting.get(window)
        if queue is None:
            queue = self._waiting[window] = []
            self._woken[window] = asyncio.Event()
            self._background.start(self._flush(window))
        queue.append(waiting)
        self._woken[window].set()
        try:
            return await waiting.answer
        except CroupierError as exc:  # the process stopping mid-hold
            return exc

    async def _flush(self, window: Window) -> None:
        """Hold what waits in ``window``, a batch at a time (:data:`AT_ONCE` in flight),
        until nothing does."""
        woken = self._woken[window]
        running: dict[asyncio.Task[None], set[int]] = {}  # each batch's players
        try:
            while True:
                woken.clear()
                queue = self._waiting.get(window)
                if queue and len(running) < AT_ONCE:
                    holding = set().union(*running.values())
                    batch, self._waiting[window] = _batch(queue, holding=holding)
                    if batch:
                        task = asyncio.create_task(self._hold(window, batch))
                        running[task] = {one.stake.user_id for one in batch}
                        continue
                if not running:
                    break  # nothing waits: with none in flight, a batch is always taken
                wake = asyncio.create_task(woken.wait())
                await asyncio.wait({*running, wake}, return_when=asyncio.FIRST_COMPLETED)
                wake.cancel()
                for finished in [t for t in running if t.done()]:
                    del running[finished]
        finally:
            for task in running:
                task.cancel()
            # Stopped (the process shuts down): what still waits goes to the owner as it is.
            self._woken.pop(window, None)
            for one in self._waiting.pop(window, []):
                if not one.answer.done():
                    one.answer.set_result(None)

    async def _hold(self, window: Window, batch: list[_Waiting]) -> None:
        table, decisions = window
        kind = "bet" if decisions is None else "act"
        if not await self._reached(table, kind, batch):
            return
        try:
            round_id, answers = await self._held(window, batch)
        except asyncio.CancelledError:
            # The holds may be done: the bets are not passed on (their resend replays them).
            for one in batch:
                if not one.answer.done():
                    one.answer.set_exception(
                        ServiceUnavailable(
                            "the server is stopping: send the bet again, under its key",
                            reason="table_unreachable",
                        )
                    )
            raise
        for i, one in enumerate(batch):
            if one.answer.done():
                continue
            answer = answers[i] if round_id is not None and i < len(answers) else None
            phase = None if decisions is None else decisions[1]
            outcome = _outcome(round_id, one, answer, phase)
            one.answer.set_result(outcome)
            if self.count is not None:
                self.count(table, _counted(outcome), kind)

    async def _reached(self, table: str, kind: str, batch: list[_Waiting]) -> bool:
        """Whether the table's owner can be reached; if not, every bet of ``batch`` is
        refused, nothing held (a stake held for a bet that cannot reach the owner would wait
        for the close of a betting window)."""
        if self.reachable is None:
            return True
        try:
            await self.reachable()
        except Exception as exc:
            refusal = ServiceUnavailable(
                f"bet refused: the table cannot be reached now ({exc}); nothing was done, "
                "send it again shortly",
                reason="table_unreachable",
            )
            for one in batch:
                if not one.answer.done():
                    one.answer.set_result(refusal)
                    if self.count is not None:
                        self.count(table, "refused", kind)
            return False
        return True

    async def _held(
        self, window: Window, batch: list[_Waiting]
    ) -> tuple[int | None, list[Movement | CroupierError]]:
        table, decisions = window
        try:
            return await asyncio.to_thread(
                stakes.hold_in_window,
                self.db,
                table=table,
                stakes=[one.stake for one in batch],
                check=self.check,
                decisions=decisions,
            )
        except Exception as exc:
            log.warning("%d holds at %s failed: %s (the owner takes them)", len(batch), table, exc)
            return None, []


def _batch(queue: list[_Waiting], *, holding: set[int]) -> tuple[list[_Waiting], list[_Waiting]]:
    """The next batch to hold, and what waits after it: a player once per transaction, and
    not while a batch in flight holds for them (their second bet goes after the first)."""
    batch: list[_Waiting] = []
    rest: list[_Waiting] = []
    users = set(holding)
    for one in queue:
        if one.stake.user_id in users or len(batch) >= BATCH_MOST:
            rest.append(one)
        else:
            users.add(one.stake.user_id)
            batch.append(one)
    return batch, rest


def _counted(outcome: Outcome) -> str:
    if outcome is None:
        return "passed"
    if isinstance(outcome, CroupierError):
        return "refused"
    return "replayed" if outcome.replayed else "held"


def _outcome(
    round_id: int | None,
    one: _Waiting,
    answer: Movement | CroupierError | None,
    phase: str | None,
) -> Outcome:
    if round_id is None or answer is None or isinstance(answer, IdempotencyConflict):
        return None  # not held: the owner holds it, or explains the key's conflict
    if isinstance(answer, CroupierError):
        return answer
    return Prepaid.of(round_id, answer, seat=one.stake.seat, phase=phase, decision=one.decision)
