"""The cluster's bus on Redis: a stream of commands per table, a channel per gateway, one
channel for everyone, and each process's heartbeat (:class:`Bus`).

Redis is an existing engine doing what it is built for (issue 18): Streams keep a table's
commands in order for its owner, whoever that is when it reads them; pub/sub fans frames out;
keys with a time to live say which processes are alive.

The bus is the cluster's alone (issue 27). Redis asks for a password or an ACL user (the
settings ``redis_username`` / ``redis_password``; a process refuses to join a Redis that
answers without one), and every message the processes exchange through it -- commands,
frames, notices, heartbeats, lobby entries -- is sealed here as it is written and opened here
as it is read (:mod:`.seal`): what does not open (written by anyone without the cluster's
key, altered, copied from another stream, channel or purpose, too old, or a replay) is logged
without its content and dropped, and never reaches the tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import redis.asyncio as redis

from croupier.server.cluster import messages as m
from croupier.server.cluster.seal import (
    MARGIN_SECONDS,
    ChannelGuard,
    Opened,
    Purpose,
    Refused,
    Seal,
    StreamGuard,
)

__all__ = ["Bus", "BusRefused", "BusUnavailable"]

log = logging.getLogger(__name__)

_STREAM_LENGTH = 100_000
"""About how many entries a table's stream keeps (older ones are trimmed)."""
_ENTRY_COMMANDS = 256
"""The most commands one entry of a table's stream holds (a batch of more takes several)."""
_READ_BLOCK_MS = 1000
_CONNECTIONS = 32
"""The most connections to Redis a process opens for its commands, frames and beats."""
_READ_COUNT = 4096


class BusUnavailable(Exception):
    """Redis cannot be reached."""


class BusRefused(Exception):
    """This process may not join: Redis answers without a password, or the cluster's
    processes seal with another key."""


Handler = Callable[[str, bytes], None]
"""Called with a channel and a message."""


class Bus:
    """One process's connection to the cluster's Redis."""

    def __init__(
        self,
        url: str,
        *,
        node: str,
        heartbeat_seconds: float,
        seal: Seal,
        username: str | None = None,
        password: str | None = None,
    ) -> None:
        self.url = url
        self.node = node
        self.heartbeat_seconds = heartbeat_seconds
        self.seal = seal
        credentials: dict[str, Any] = {"username": username, "password": password}
        # A bounded pool: callers wait for a connection rather than open one each.
        pool = redis.BlockingConnectionPool.from_url(
            url,
            max_connections=_CONNECTIONS,
            timeout=5,
            socket_connect_timeout=2,
            socket_timeout=5,
            health_check_interval=10,
            **credentials,
        )
        self._redis: redis.Redis = redis.Redis.from_pool(pool)  # closes the pool with it
        self._outgoing: list[tuple[list[tuple[str, m.Command]], asyncio.Future[None]]] = []
        self._sender: asyncio.Task[None] | None = None
        # Blocking reads get their own connection pool (a blocked XREAD holds a connection).
        self._reader: redis.Redis = redis.Redis.from_url(
            url,
            socket_connect_timeout=2,
            socket_timeout=_READ_BLOCK_MS / 1000 + 5,
            **credentials,
        )
        self._streams: dict[str, _StreamReading] = {}
        self._channels: ChannelGuard | None = None
        self._dropped = _DropLog()

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

    async def check_access(self) -> None:
        """Refuse to join a bus others could use: a Redis that answers a client without
        credentials, or a cluster whose live processes seal with another key.

        Raises:
            BusRefused: either of these.
        """
        anonymous = redis.Redis.from_url(_anonymous(self.url), socket_connect_timeout=2)
        try:
            await anonymous.ping()
        except Exception:  # NOAUTH, WRONGPASS, or the default user disabled: as it should be
            pass
        else:
            raise BusRefused(
                f"Redis at {_where(self.url)} answers without a password: anyone who reaches "
                "it could read and disrupt the cluster's bus; give it a password "
                "(requirepass) or an ACL user and set CROUPIER_REDIS_USERNAME / "
                "CROUPIER_REDIS_PASSWORD"
            )
        finally:
            await anonymous.aclose()
        beats = await self._beats()
        if beats and not any(isinstance(b, Opened) for b in beats.values()):
            raise BusRefused(
                f"the cluster's live processes ({', '.join(sorted(beats))}) seal their "
                "messages with another key: set CROUPIER_BUS_KEY to the cluster's"
            )

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
            # Each table's commands of the batch, in order, go in entries of up to
            # _ENTRY_COMMANDS: one seal, one entry and one decoding at the owner for many.
            by_stream: dict[str, list[m.Command]] = {}
            for commands, _ in batch:
                for table, command in commands:
                    by_stream.setdefault(m.command_stream(table), []).append(command)
            try:
                async with self._redis.pipeline(transaction=False) as pipe:
                    for stream, listed in by_stream.items():
                        for start in range(0, len(listed), _ENTRY_COMMANDS):
                            part = m.encode_commands(listed[start : start + _ENTRY_COMMANDS])
                            # Sealed here, in the order they go out (see .seal.StreamGuard).
                            sealed = self.seal.seal(Purpose.COMMAND, stream, part)
                            pipe.xadd(
                                stream,
                                {"m": sealed},
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
        """The commands after ``after`` whose seals hold, each once (waits up to a second
        for some). Reading from an id past the last one read here begins a new reading (a
        table taken over): nothing sealed before it began is taken."""
        reading = self._streams.get(stream)
        if reading is None or _entry(after) > _entry(reading.position):
            reading = await self._begin(stream, after)
        start = reading.position if _entry(reading.position) > _entry(after) else after
        found: Any = await self._reader.xread(
            {stream: start}, count=_READ_COUNT, block=_READ_BLOCK_MS
        )
        out: list[tuple[str, bytes]] = []
        for _, entries in found or ():
            for entry_id, fields in entries:
                reading.position = entry_id.decode()
                try:
                    opened = self.seal.open(Purpose.COMMAND, stream, fields.get(b"m", b""))
                    reading.guard.admit(opened)
                except Refused as exc:
                    self._dropped.log(stream, str(exc))
                    continue
                out.append((reading.position, opened.payload))
        return out

    async def _begin(self, stream: str, after: str) -> _StreamReading:
        """A new reading of ``stream`` from ``after``: the messages sealed shortly before it
        began, stored up to ``after``, count as read (their replays are refused)."""
        now = self.seal.clock()
        reading = _StreamReading(StreamGuard(since=now), after)
        self._streams[stream] = reading
        if after != "0-0":
            since = int((now - MARGIN_SECONDS - _FUTURE_SLACK) * 1000)
            recent: Any = await self._reader.xrange(stream, min=str(since), max=after)
            for _, fields in recent or ():
                try:
                    reading.guard.seen(self.seal.open(Purpose.COMMAND, stream, fields[b"m"]))
                except (Refused, KeyError):
                    continue
        return reading

    # -- frames and notices ------------------------------------------------------------

    async def publish(self, channel: str, payload: bytes) -> None:
        await self._redis.publish(channel, self.seal.seal(_purpose(channel), channel, payload))

    async def subscribe(self, channels: list[str], handler: Handler) -> None:
        """Call ``handler`` for every message on ``channels`` until cancelled; reconnects
        when Redis comes back. A message whose seal does not hold, or seen before, is
        logged and dropped."""
        if self._channels is None:
            self._channels = ChannelGuard(since=self.seal.clock(), max_age=self.seal.max_age)
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
                    payload = self._open_published(name, message["data"])
                    if payload is None:
                        continue
                    try:
                        handler(name, payload)
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

    def _open_published(self, channel: str, raw: Any) -> bytes | None:
        """The payload of a message read on ``channel``, or ``None`` (logged) when its seal
        does not hold or it was taken before."""
        guard = self._channels
        assert guard is not None
        try:
            opened = self.seal.open(_purpose(channel), channel, raw)
            guard.admit(opened, now=self.seal.clock())
        except Refused as exc:
            self._dropped.log(channel, str(exc))
            return None
        return opened.payload

    # -- heartbeats --------------------------------------------------------------------

    async def beat(self) -> None:
        """Say this process is alive (for a few heartbeat periods)."""
        ttl = max(1, round(self.heartbeat_seconds * 3))
        sealed = self.seal.seal(Purpose.BEAT, self.node, b"alive")
        await self._redis.set(m.node_key(self.node), sealed, ex=ttl)
        await self._redis.zadd("croupier:nodes", {self.node: time.time()})

    async def alive(self, node: str) -> bool:
        """Whether ``node`` beat within the last few heartbeat periods (a heartbeat whose
        seal does not hold is no heartbeat)."""
        return isinstance(self._beat_of(node, await self._redis.get(m.node_key(node))), Opened)

    async def live_nodes(self) -> int:
        """How many processes beat within the last few heartbeat periods."""
        return sum(isinstance(b, Opened) for b in (await self._beats()).values())

    async def _beats(self) -> dict[str, Opened | Refused]:
        """The heartbeats of the processes listed as alive lately: opened, or why not."""
        since = time.time() - self.heartbeat_seconds * 3
        names = [
            n.decode() if isinstance(n, bytes) else str(n)
            for n in await self._redis.zrangebyscore("croupier:nodes", since, "+inf")
        ]
        if not names:
            return {}
        values = await self._redis.mget([m.node_key(n) for n in names])
        found: dict[str, Opened | Refused] = {}
        for name, value in zip(names, values, strict=True):
            beat = self._beat_of(name, value)
            if beat is not None:
                found[name] = beat
        return found

    def _beat_of(self, node: str, value: Any) -> Opened | Refused | None:
        if value is None:
            return None
        try:
            opened = self.seal.open(Purpose.BEAT, node, value)
        except Refused as exc:
            self._dropped.log(m.node_key(node), str(exc))
            return exc
        if self.seal.clock() - opened.sealed_at > self.heartbeat_seconds * 3 + 1:
            return Refused("an old heartbeat")
        return opened

    async def forget(self) -> None:
        """This process stops: no longer alive."""
        with contextlib.suppress(Exception):
            await self._redis.delete(m.node_key(self.node))
            await self._redis.zrem("croupier:nodes", self.node)

    async def set_lobby(self, table: str, entry: bytes) -> None:
        await self._redis.hset("croupier:lobby", table, self.seal.seal(Purpose.LOBBY, table, entry))

    async def lobby(self) -> dict[str, bytes]:
        """Each table's lobby entry, as its owner wrote it (one whose seal does not hold is
        left out, logged)."""
        found: dict[Any, Any] = await self._redis.hgetall("croupier:lobby")
        entries: dict[str, bytes] = {}
        for key, value in found.items():
            table = key.decode() if isinstance(key, bytes) else str(key)
            try:
                # No age: an entry is written when it changes (a stale one shows a table's
                # old description until its owner writes it again; it moves no money).
                entries[table] = self.seal.open(Purpose.LOBBY, table, value, fresh=False).payload
            except Refused as exc:
                self._dropped.log(f"croupier:lobby {table}", str(exc))
        return entries


_FUTURE_SLACK = 1.0
"""Seconds more read back when a stream's reading begins (the clocks of Redis and of this
process may differ a little)."""


class _StreamReading:
    """One reading of a table's stream: what it took, and the last entry it read."""

    __slots__ = ("guard", "position")

    def __init__(self, guard: StreamGuard, position: str) -> None:
        self.guard = guard
        self.position = position


class _DropLog:
    """Messages dropped, logged without their content: each place and reason at once the
    first time, then at most every ``every`` seconds with how many were dropped meanwhile
    (a flood of forgeries does not flood the log)."""

    def __init__(self, every: float = 10.0) -> None:
        self.every = every
        self._last: dict[tuple[str, str], tuple[float, int]] = {}

    def log(self, place: str, reason: str) -> None:
        now = time.monotonic()
        key = (place, reason)
        last = self._last.get(key)
        if last is not None and now - last[0] < self.every:
            self._last[key] = (last[0], last[1] + 1)
            return
        more = f" (and {last[1]} more since the last report)" if last and last[1] else ""
        log.error("dropped a message on %s: %s%s", place, reason, more)
        self._last[key] = (now, 0)


def _purpose(channel: str) -> Purpose:
    return Purpose.NOTICE if channel == m.CLUSTER_CHANNEL else Purpose.FRAMES


def _entry(entry_id: str) -> tuple[int, int]:
    """A stream entry id ``ms-seq`` as numbers (ids compare as these)."""
    ms, _, seq = entry_id.partition("-")
    return int(ms or 0), int(seq or 0)


def _where(url: str) -> str:
    """The URL without its credentials."""
    return url.split("@")[-1]


def _anonymous(url: str) -> str:
    """The URL without its user name and password."""
    parts = urlsplit(url)
    host = parts.netloc.rsplit("@", 1)[-1]
    return urlunsplit((parts.scheme, host, parts.path, parts.query, parts.fragment))
