"""A table's connections and the commands its inbox takes.

A :class:`Connection` is one WebSocket of one user at one table; the table task puts frames in
its ``outbox`` and the socket's writer sends them. Everything that reaches the table -- a
request, a connect or disconnect, a timer -- is one command in its inbox
(:class:`croupier.server.tables.table.Table` handles them one batch at a time).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from croupier.server.tables.wire import ClientMessage, ServerFrame, Shared
from croupier.server.wallet.service import Movement

__all__ = [
    "Command",
    "Connect",
    "Connection",
    "Disconnect",
    "Frame",
    "Prepaid",
    "Reconfigure",
    "Request",
    "Shared",
    "Stop",
    "Tick",
    "Timer",
]

Frame = ServerFrame | Shared
"""What a connection's outbox holds: a frame for it alone, or one shared (encoded once)."""
_OUTBOX_LIMIT = 2048


@dataclass(eq=False, slots=True)
class Connection:
    """One WebSocket of one user at one table; frames for it wait in ``outbox``."""

    user_id: int
    username: str
    outbox: asyncio.Queue[Frame | None] = field(default_factory=asyncio.Queue)
    closed: bool = False
    close_code: int = 1000
    """The WebSocket close code the writer closes with once it reaches the end of the
    outbox (``None`` in it)."""

    def send(self, frame: Frame) -> None:
        if self.closed:
            return
        if self.outbox.qsize() >= _OUTBOX_LIMIT:
            # A client this far behind cannot catch up frame by frame: drop it; it can
            # reconnect and resync.
            self.close(1008)
            return
        self.outbox.put_nowait(frame)

    def close(self, code: int = 1000, *, last: Frame | None = None) -> None:
        """Send ``last`` (an error frame saying why), then close the socket with ``code``."""
        if self.closed:
            return
        if last is not None:
            self.outbox.put_nowait(last)
        self.closed = True
        self.close_code = code
        self.outbox.put_nowait(None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Prepaid:
    """A bet whose stake a cluster's gateway has held already (issue 18, see
    :mod:`.window`): the round it was held for, its hold transaction, the stake, the player's
    balance after it, whether the hold was a replay of its key, and the seat it was held for.
    The table places the bet (applies the decision) or refuses it (the hold is then
    released)."""

    round_id: int
    transaction_id: int
    amount: int
    balance: int
    replayed: bool
    seat: int
    phase: str | None = None
    """A decision's extra stake (a UTH Play bet), held in this decision phase; ``None``: a
    bet's, held in the round's betting."""
    decision: str | None = None
    """The decision's id (:class:`.turns.DecisionId`) whose stake was held, as its key names
    it (``None``: a bet's)."""

    @classmethod
    def of(
        cls,
        round_id: int,
        hold: Movement,
        *,
        seat: int,
        phase: str | None = None,
        decision: str | None = None,
    ) -> Prepaid:
        """The bet (or, in decision phase ``phase``, decision ``decision``) at ``seat`` whose
        stake ``hold`` (a wallet's answer) holds for round ``round_id``."""
        return cls(
            round_id=round_id,
            transaction_id=hold.transaction_id,
            amount=int(hold.amount),
            balance=int(hold.balance),
            replayed=bool(hold.replayed),
            seat=seat,
            phase=phase,
            decision=decision,
        )


@dataclass(frozen=True, slots=True)
class Request:
    """A client's message; ``done`` is set once the table has answered it."""

    conn: Connection
    message: ClientMessage
    done: asyncio.Future[None]
    prepaid: Prepaid | None = None
    """A bet's stake held by a gateway already (a cluster's; ``None``: the table holds it)."""


@dataclass(frozen=True, slots=True)
class Connect:
    conn: Connection


@dataclass(frozen=True, slots=True)
class Disconnect:
    conn: Connection


@dataclass(frozen=True, slots=True)
class Timer:
    """The table's timer ran out (ignored unless ``generation`` is still the current one)."""

    generation: int


@dataclass(frozen=True, slots=True)
class Stop:
    reason: str


@dataclass(frozen=True, slots=True)
class Tick:
    """Time to send a live table's delayed ``tally``."""


@dataclass(frozen=True, slots=True)
class Reconfigure:
    """An operator changed the table (issue 16): new settings from the next round on, or
    open/closed; ``done`` is set once the table has applied them."""

    config: Any
    """The new :class:`croupier.server.tables.config.TableConfig`."""
    closed: bool
    changed: Mapping[str, Any]
    done: asyncio.Future[None]


@dataclass(frozen=True, slots=True)
class GatewayLost:
    """A cluster's gateway stopped beating (its process died): stakes it held for bets the
    table never received are to be returned."""

    gateway: str


@dataclass(frozen=True, slots=True)
class LookForHolds:
    """A cluster's owner looks again for stakes its gateways held for the table's round
    recorded whose bets never came (:meth:`.nextround.NextRounds.unclaimed`)."""


Command = (
    Request | Connect | Disconnect | Timer | Tick | Stop | Reconfigure | GatewayLost | LookForHolds
)
