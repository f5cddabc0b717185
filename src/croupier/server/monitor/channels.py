"""How each player comes to the tables: ``browser`` or ``api`` (the monitor's channels).

A browser always sends an ``Origin`` header with a WebSocket handshake; bots and scripts
(``croupier bots``, the ``websockets`` library) send none unless told to. The channel is a
label for the statistics, not a security boundary: a client may claim either.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import Any, cast

from sqlalchemy import Table
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from croupier.server.base import utcnow
from croupier.server.db import Database, is_postgres
from croupier.server.monitor.models import UserChannel

__all__ = ["ChannelBook", "channel_of"]

log = logging.getLogger(__name__)

BROWSER = "browser"
API = "api"


def channel_of(headers: Mapping[str, str]) -> str:
    """``browser`` when the handshake has an ``Origin``, else ``api``.

    >>> channel_of({"origin": "https://casino.example"}), channel_of({})
    ('browser', 'api')
    """
    return BROWSER if headers.get("origin") else API


_CHANNELS = cast(Table, UserChannel.__table__)
_ROWS_A_STATEMENT = 1000
"""The most rows one upsert writes (4 parameters a row: well within SQLite's and
PostgreSQL's limits on a statement's parameters)."""


def _upsert(*, postgres: bool) -> Any:
    """The upsert of one row of :data:`_CHANNELS` (executed with many rows' parameters)."""
    insert = (pg_insert if postgres else sqlite_insert)(_CHANNELS)
    return insert.on_conflict_do_update(
        index_elements=[_CHANNELS.c.user_id],
        set_={
            "channel": insert.excluded.channel,
            "agent": insert.excluded.agent,
            "seen_at": insert.excluded.seen_at,
        },
    )


class ChannelBook:
    """Each player's channel, written to the database when it changes (from the socket
    handshake, so every process of a cluster sees where its tables' players come from).

    The writes of sockets connecting together go in one transaction (:meth:`note`): a
    thousand players connecting at once cost a few upserts, not a transaction each on the
    threads the tables' own database work waits for."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._known: dict[int, str] = {}
        self._pending: dict[int, tuple[str, str]] = {}
        """The channels to store with the next transaction, by user."""
        self._stored: asyncio.Future[None] | None = None
        """Done when the channels pending now are stored."""
        self._writer: asyncio.Task[None] | None = None

    def seen(self, user_id: int, headers: Mapping[str, str]) -> str | None:
        """Note ``user_id``'s channel now; the channel when it changed (to be stored with
        :meth:`store`, off the event loop), else ``None``."""
        channel = channel_of(headers)
        if self._known.get(user_id) == channel:
            return None
        self._known[user_id] = channel
        return channel

    async def note(self, user_id: int, headers: Mapping[str, str]) -> None:
        """Note ``user_id``'s channel from its socket's handshake; stored (when it changed)
        before this returns, in one transaction with those of the sockets that connected
        while the previous one was written."""
        channel = self.seen(user_id, headers)
        if channel is None:
            return
        loop = asyncio.get_running_loop()
        if self._stored is None or self._stored.get_loop() is not loop:
            self._stored, self._writer = loop.create_future(), None
        self._pending[user_id] = (channel, headers.get("user-agent", ""))
        stored = self._stored
        if self._writer is None:
            self._writer = loop.create_task(self._write())
        await asyncio.shield(stored)

    async def _write(self) -> None:
        """Store what is pending, a transaction at a time, until nothing is."""
        try:
            while self._pending and self._stored is not None:
                batch, self._pending = self._pending, {}
                stored, self._stored = self._stored, asyncio.get_running_loop().create_future()
                try:
                    await asyncio.to_thread(self.store_many, batch)
                finally:
                    stored.set_result(None)
        finally:
            self._writer = None

    def store(self, user_id: int, channel: str, agent: str = "") -> None:
        self.store_many({user_id: (channel, agent)})

    def store_many(self, channels: Mapping[int, tuple[str, str]]) -> None:
        """Write each user's ``(channel, agent)`` in one transaction (an upsert)."""
        if not channels:
            return
        now = utcnow()
        rows: list[dict[str, Any]] = [
            {"user_id": user, "channel": channel, "agent": agent[:200], "seen_at": now}
            for user, (channel, agent) in sorted(channels.items())  # one lock order
        ]
        try:
            with self.db.session() as session:
                statement = _upsert(postgres=is_postgres(session))
                for start in range(0, len(rows), _ROWS_A_STATEMENT):
                    # one statement's parameters for many rows: compiled once and cached
                    # (rows written into the statement were compiled again for every batch:
                    # in the 3-process load benchmark, most of the connections' CPU)
                    session.execute(statement, rows[start : start + _ROWS_A_STATEMENT])
        except Exception:  # a label for the statistics: never worth a refused socket
            log.warning("the channels of %d users were not stored", len(rows), exc_info=True)
            for user in channels:
                self._known.pop(user, None)

    def forget(self, user_id: int) -> None:
        self._known.pop(user_id, None)
