"""What plays a table's rounds: the :class:`Driver` protocol, and the :class:`Parts` of a
table a driver works with.

A table owns its seats, its inbox and its broadcaster, and hands the round's life to one
driver, chosen by the game's kind (:attr:`croupier.server.tables.games.GameFactory.kind`):

- :class:`croupier.server.tables.banked.BankedDriver` for games against the house (UTH,
  Russian Poker): the first bet opens a round, betting closes, the seats decide, the house
  settles;
- :class:`croupier.server.tables.cash.CashDriver` for the Hold'em cash game: stacks bought in
  from the wallet, hands dealt continuously.

The driver is also the seats' :class:`croupier.server.tables.seats.SeatPolicy`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from croupier.server.tables.broadcast import Broadcaster
from croupier.server.tables.connection import Connection, Request
from croupier.server.tables.core import TableCore
from croupier.server.tables.escrow import Escrow
from croupier.server.tables.seats import SeatPolicy, Seats
from croupier.server.tables.wire import (
    BuyInMessage,
    LeaveMessage,
    Result,
    SitInMessage,
    SitOutMessage,
)

__all__ = ["Driver", "Parts"]


@dataclass(frozen=True, slots=True)
class Parts:
    """The parts of one table a driver plays with."""

    core: TableCore
    out: Broadcaster
    seats: Seats
    escrow: Escrow
    """The money of the round in play (a banked table's; :mod:`.escrow`)."""


class Driver(SeatPolicy, Protocol):
    """Plays the rounds of one table, on the table's task."""

    async def start(self) -> None:
        """Before the table takes its first command (a cash table returns the stacks a crash
        left at it)."""
        ...

    async def bets(self, requests: list[Request]) -> None:
        """Bets, one path: a lone bet is a batch of one. Answers each request."""
        ...

    async def acts(self, requests: list[Request]) -> None:
        """Decisions, one path: a lone decision is a batch of one. Answers each request."""
        ...

    async def seat_request(
        self, conn: Connection, message: BuyInMessage | SitOutMessage | SitInMessage
    ) -> Result | None:
        """A buy-in, or sitting out or in (cash tables)."""
        ...

    async def leave(self, conn: Connection, message: LeaveMessage) -> Result:
        """Give a seat up (a cash table also cashes the stack out)."""
        ...

    async def release_ghosts(self, user_id: int) -> None:
        """After user ``user_id``'s disconnect: free the seats nobody is connected to any
        more."""
        ...

    async def on_timer(self) -> None:
        """The table's timer ran out."""
        ...

    async def reconfigured(self) -> None:
        """An operator changed the table's settings or opened or closed it."""
        ...

    async def gateway_lost(self) -> None:
        """A cluster's gateway died: what it held for bets never received is returned."""
        ...

    async def unclaimed_holds(self) -> None:
        """A cluster's owner looks for stakes held for bets that never came (returned)."""
        ...

    async def shutdown(self, reason: str) -> None:
        """The server stops: the round in play is voided (every stake back)."""
        ...
