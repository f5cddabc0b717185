"""How each player comes to the tables: ``browser`` or ``api`` (the monitor's channels).

A browser always sends an ``Origin`` header with a WebSocket handshake; bots and scripts
(``croupier bots``, the ``websockets`` library) send none unless told to. The channel is a
label for the statistics, not a security boundary: a client may claim either.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from croupier.server.base import utcnow
from croupier.server.db import Database
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


class ChannelBook:
    """Each player's channel, written to the database when it changes (from the socket
    handshake, so every process of a cluster sees where its tables' players come from)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._known: dict[int, str] = {}

    def seen(self, user_id: int, headers: Mapping[str, str]) -> str | None:
        """Note ``user_id``'s channel now; the channel when it changed (to be stored with
        :meth:`store`, off the event loop), else ``None``."""
        channel = channel_of(headers)
        if self._known.get(user_id) == channel:
            return None
        self._known[user_id] = channel
        return channel

    def store(self, user_id: int, channel: str, agent: str = "") -> None:
        try:
            with self.db.session() as session:
                row = session.get(UserChannel, user_id)
                if row is None:
                    session.add(UserChannel(user_id=user_id, channel=channel, agent=agent[:200]))
                else:
                    row.channel, row.agent, row.seen_at = channel, agent[:200], utcnow()
        except Exception:  # a label for the statistics: never worth a refused socket
            log.warning("the channel of user %s was not stored", user_id, exc_info=True)
            self._known.pop(user_id, None)

    def forget(self, user_id: int) -> None:
        self._known.pop(user_id, None)
