"""How a socket reaches its table: :class:`TableAccess`, the one interface of the WebSocket
endpoint, and :class:`LocalAccess`, one process's (its own tables, directly).

A cluster's is :class:`croupier.server.cluster.gateway.ClusterAccess` (the table may be owned
by another process: commands and frames go over Redis).
"""

from __future__ import annotations

from typing import Protocol

from croupier.server.tables.connection import Connection
from croupier.server.tables.manager import TableManager
from croupier.server.tables.table import Table
from croupier.server.tables.wire import ClientMessage

__all__ = ["LocalAccess", "TableAccess"]


class TableAccess(Protocol):
    """What the WebSocket endpoint asks of the tables."""

    def check(self, name: str) -> None:
        """Raises NotFoundError: no open table ``name``."""
        ...

    async def connect(self, name: str, *, user_id: int, username: str) -> Connection:
        """A connection to table ``name``; the table greets it (``welcome``, ``state``)."""
        ...

    async def submit(self, conn: Connection, message: ClientMessage, raw: str | bytes) -> None:
        """Hand a validated request to its table; return once it has been answered."""
        ...

    def disconnect(self, conn: Connection) -> None:
        """The socket closed."""
        ...


class LocalAccess:
    """One process: every table is here."""

    def __init__(self, manager: TableManager) -> None:
        self.manager = manager
        self._tables: dict[Connection, Table] = {}

    def check(self, name: str) -> None:
        self.manager.get(name)

    async def connect(self, name: str, *, user_id: int, username: str) -> Connection:
        table = self.manager.get(name)
        conn = table.connect(user_id=user_id, username=username)
        self._tables[conn] = table
        return conn

    async def submit(self, conn: Connection, message: ClientMessage, raw: str | bytes) -> None:
        await self._tables[conn].submit(conn, message)

    def disconnect(self, conn: Connection) -> None:
        table = self._tables.pop(conn, None)
        if table is not None:
            table.disconnect(conn)
