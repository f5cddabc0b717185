"""The cluster's bus on Redis: a stream of commands per table, a channel per gateway, one
channel for everyone, and each process's heartbeat (:class:`Bus`).

Redis is an existing engine doing what it is built for (issue 18): Streams keep a table's
commands in order for its owner, whoever that is when it reads them; pub/sub fans frames out;
keys with a time to live say which processes are alive.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

import redis.asyncio as redis

from croupier.server.cluster import messages as m

__all__ = ["Bus", "BusUnavailable"]

log = logging.getLogger(__name__)

_STREAM_LENGTH = 100_000
"""About how many commands a table's stream keeps (older ones are trimmed)."""
_READ_BLOCK_MS = 1000
_CONNECTIONS = 32
"""The most connections to Redis a process opens for its commands, frames and beats."""
_READ_COUNT = 4096


class BusUnavailable(Exception):
    """Redis cannot be reached."""


Handler = Callable[[str, bytes], None]
"""Called with a channel and a message."""


class Bus:
    """One process's connection to the cluster's Redis."""

    def __init__(self, url: str, *, node: str, heartbeat_seconds: float) -> None:
        self.url = url
        self.node = node
        self.heartbeat_seconds = heartbeat_seconds
        # A bounded pool: callers wait for a connection rather than open one each.
        pool = redis.BlockingConnectionPool.from_url(
            url,
            max_connections=_CONNECTIONS,
            timeout=5,
            socket_connect_timeout=2,
            socket_timeout=5,
            health_check_interval=10,
        )
        self._redis: redis.Redis = redis.Redis.from_pool(pool)  # closes the pool with it
        self._outgoing: list[tuple[list[tuple[str, m.Command]], asyncio.Future[None]]] = []
        self._sender: asyncio.Task[None] | None = None
        # Blocking reads get their own connection pool (a blocked XREAD holds a connection).
        self._reader: redis.Redis = redis.Redis.from_url(
            url, socket_connect_timeout=2, socket_timeout=_READ_BLOCK_MS / 1000 + 5
        )

    async def close(self) -> None:
        if self._sender is not None:
            with contextlib.suppress(Exception):
                await self._sender
        await self._redis.aclose()
        await self._reader.aclose()

    async def ping(self) -> None:
        try:
            await self._redis.ping()
        except Exception as exc:
            raise BusUnavailable(f"Redis at {_where(self.url)} does not answer: {exc}") from None

    # -- commands (gateway -> owner) ---------------------------------------------------

    async def send(self, table: str, command: m.Command) -> None:
        """Put ``command`` on the table's stream.

        Raises:
            BusUnavailable: Redis cannot be reached; nothing was sent.
        """
        await self.send_many([(table, command)])

    async def send_many(self, commands: list[tuple[str, m.Command]]) -> None:
        """Put commands on their tables' streams, in order.

        The commands of every caller waiting meanwhile go together, in one pipelined round
        trip on one connection: a thousand sockets betting at once are a few round trips,
        not a thousand connections.

        Raises:
            BusUnavailable: Redis cannot be reached; none was sent.
        """
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._outgoing.append((commands, done))
        if self._sender is None or self._sender.done():
            self._sender = asyncio.create_task(self._send_waiting())
        await done

    async def _send_waiting(self) -> None:
        while self._outgoing:
            batch, self._outgoing = self._outgoing, []
            try:
                async with self._redis.pipeline(transaction=False) as pipe:
                    for commands, _ in batch:
                        for table, command in commands:
                            pipe.xadd(
                                m.command_stream(table),
                                {"m": m.encode(command)},
                                maxlen=_STREAM_LENGTH,
                                approximate=True,
                            )
                    await pipe.execute()
            except Exception as exc:
                failure = BusUnavailable(f"the cluster's bus is unreachable: {exc}")
                for _, done in batch:
                    if not done.done():
                        done.set_exception(failure)
            else:
                for _, done in batch:
                    if not done.done():
                        done.set_result(None)

    async def last_id(self, table: str) -> str:
        """The id of the table's newest command (``0-0`` when none): an owner taking over
        reads what comes after it."""
        found = await self._redis.xrevrange(m.command_stream(table), count=1)
        if not found:
            return "0-0"
        entry_id = found[0][0]
        return entry_id.decode() if isinstance(entry_id, bytes) else str(entry_id)

    async def read_stream(self, stream: str, after: str) -> list[tuple[str, bytes]]:
        """The commands after ``after`` (waits up to a second for some)."""
        found: Any = await self._reader.xread(
            {stream: after}, count=_READ_COUNT, block=_READ_BLOCK_MS
        )
        out: list[tuple[str, bytes]] = []
        for _, entries in found or ():
            for entry_id, fields in entries:
                raw = fields.get(b"m", b"")
                out.append((entry_id.decode(), raw))
        return out

    # -- frames and notices ------------------------------------------------------------

    async def publish(self, channel: str, payload: bytes) -> None:
        await self._redis.publish(channel, payload)

    async def subscribe(self, channels: list[str], handler: Handler) -> None:
        """Call ``handler`` for every message on ``channels`` until cancelled; reconnects
        when Redis comes back."""
        while True:
            pubsub = self._reader.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(*channels)
                while True:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is None:
                        continue
                    channel = message["channel"]
                    name = channel.decode() if isinstance(channel, bytes) else str(channel)
                    try:
                        handler(name, message["data"])
                    except Exception:
                        log.exception("handling a message on %s failed", name)
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
                raise
            except Exception as exc:
                log.warning("lost the subscription to %s: %s (retrying)", channels, exc)
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
                await asyncio.sleep(0.5)

    # -- heartbeats --------------------------------------------------------------------

    async def beat(self) -> None:
        """Say this process is alive (for a few heartbeat periods)."""
        ttl = max(1, round(self.heartbeat_seconds * 3))
        await self._redis.set(m.node_key(self.node), str(time.time()), ex=ttl)
        await self._redis.zadd("croupier:nodes", {self.node: time.time()})

    async def alive(self, node: str) -> bool:
        return bool(await self._redis.exists(m.node_key(node)))

    async def live_nodes(self) -> int:
        """How many processes beat within the last few heartbeat periods."""
        since = time.time() - self.heartbeat_seconds * 3
        return int(await self._redis.zcount("croupier:nodes", since, "+inf"))

    async def forget(self) -> None:
        """This process stops: no longer alive."""
        with contextlib.suppress(Exception):
            await self._redis.delete(m.node_key(self.node))
            await self._redis.zrem("croupier:nodes", self.node)

    async def set_lobby(self, table: str, entry: bytes) -> None:
        await self._redis.hset("croupier:lobby", table, entry)

    async def lobby(self) -> dict[str, bytes]:
        found: dict[Any, Any] = await self._redis.hgetall("croupier:lobby")
        return {(k.decode() if isinstance(k, bytes) else k): v for k, v in found.items()}


def _where(url: str) -> str:
    """The URL without its password."""
    return url.split("@")[-1]
