"""A cluster's gateway: :class:`ClusterAccess`, the sockets of this process at tables any
process may own.

The WebSocket endpoint authenticates, validates and rate-limits as in one process; then each
request goes on its table's Redis Stream, for whichever process owns the table, and the
gateway waits for its answer. The frames the owner publishes for this gateway's sockets are
written to them as they came (encoded once by the owner). A table that changes owner
(:class:`.messages.TakenOver`) tells its sockets here that the round in play was voided,
answers their waiting requests so, and connects them to the new owner, who greets them with a
fresh ``welcome`` and ``state``: the sockets stay open.

When Redis cannot be reached a request is refused with ``unavailable`` (nothing was done) and
the socket stays open; a request its owner does not answer within
``request_timeout_seconds`` is answered the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from croupier.errors import CroupierError
from croupier.server.accounts.sessions import LiveSessions
from croupier.server.cluster import messages as m
from croupier.server.cluster.bus import Bus, BusUnavailable
from croupier.server.cluster.holds import GatewayHolds, Turn
from croupier.server.cluster.tasks import Background
from croupier.server.errors import ServiceUnavailable
from croupier.server.tables.connection import Connection, Prepaid
from croupier.server.tables.wire import (
    ActMessage,
    BetMessage,
    ClientMessage,
    Shared,
    encode,
    error_frame,
)

__all__ = ["ClusterAccess", "GatewayConnection"]

log = logging.getLogger(__name__)


@dataclass(eq=False, slots=True)
class GatewayConnection(Connection):
    """A socket of this gateway at one table."""

    table: str = ""
    cid: int = 0
    seat: int | None = None
    """The seat the table last said this socket's player has (its ``welcome``, the answer
    to its ``join`` or ``leave``): the seat a bet's stake is held for here. The owner checks
    it; a stale one gets the bet refused and its stake returned."""
    turn: Turn | None = None
    """Its seat's last ``your_turn`` at a live table: the stakes its decisions are held at
    here (a stale one is not held: the database's window has moved on)."""


class ClusterAccess:
    """This process's sockets, at tables owned anywhere in the cluster."""

    def __init__(
        self,
        bus: Bus,
        *,
        check: Callable[[str], None],
        timeout: float,
        holds: GatewayHolds | None = None,
    ) -> None:
        self.bus = bus
        self.node = bus.node
        self._check = check
        self.timeout = timeout
        self.conns: dict[int, GatewayConnection] = {}
        self.by_table: dict[str, set[int]] = {}
        self._greeted: set[int] = set()
        """Sockets the table's owner has greeted (an ``all`` frame goes to these)."""
        self._pending: dict[int, tuple[int, asyncio.Future[None], str | int | None]] = {}
        self._ids = itertools.count(1)
        self._background = Background()
        self._tokens: dict[str, int] = {}
        """Each table's newest lease token heard of: frames from an older owner are stale."""
        self.sessions: LiveSessions | None = None
        """This process's live sessions (revocations and frames from other processes)."""
        self.holds = holds
        """Where this gateway holds its bets' stakes (``None``: the owners hold them)."""
        self._loop: asyncio.AbstractEventLoop | None = None

    def attach(self, sessions: LiveSessions) -> None:
        """Relay this process's revocations and user frames, apply the others' (on the
        running loop)."""
        self.sessions = sessions
        self._loop = asyncio.get_running_loop()
        sessions.relay = self.relay

    def check(self, name: str) -> None:
        self._check(name)

    async def connect(self, name: str, *, user_id: int, username: str) -> Connection:
        cid = next(self._ids)
        conn = GatewayConnection(user_id=user_id, username=username, table=name, cid=cid)
        self.conns[cid] = conn
        self.by_table.setdefault(name, set()).add(cid)
        try:
            await self.bus.send(name, m.Connect(self.node, cid, user_id, username))
        except BusUnavailable as exc:
            self._forget(conn)
            raise ServiceUnavailable(
                f"table {name!r} cannot be reached now ({exc}): try again shortly",
                reason="bus_unavailable",
            ) from None
        return conn

    async def submit(self, conn: Connection, message: ClientMessage, raw: str | bytes) -> None:
        assert isinstance(conn, GatewayConnection)
        prepaid = None
        held: Prepaid | CroupierError | None = None
        if self.holds is not None and conn.seat is not None:
            if isinstance(message, BetMessage):
                held = await self.holds.hold(
                    conn.table, user_id=conn.user_id, seat=conn.seat, bet=message
                )
            elif isinstance(message, ActMessage) and conn.turn is not None:
                held = await self.holds.decide(
                    conn.table, user_id=conn.user_id, seat=conn.seat, act=message, turn=conn.turn
                )
            if isinstance(held, CroupierError):
                conn.send(error_frame(held, ref=message.id))  # nothing was held
                return
            prepaid = held
        request = next(self._ids)
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending[request] = (conn.cid, done, message.id)
        text = raw if isinstance(raw, str) else raw.decode("utf-8", "replace")
        try:
            await self.bus.send(
                conn.table,
                m.Submit(
                    self.node,
                    conn.cid,
                    request,
                    text,
                    prepaid,
                    user_id=conn.user_id,
                    username=conn.username,
                ),
            )
        except BusUnavailable:
            self._pending.pop(request, None)
            held_note = "nothing was done"
            if prepaid is not None:
                closes = (
                    "betting closes (within a minute if no round starts)"
                    if prepaid.phase is None
                    else "the decision phase closes"
                )
                held_note = f"its stake is returned when {closes}"
            refusal = ServiceUnavailable(
                f"{message.type} refused: the table cannot be reached now (the cluster's bus "
                f"is down); {held_note}, send it again shortly",
                reason="table_unreachable",
            )
            conn.send(error_frame(refusal, ref=message.id))
            return
        # A timer handle, not wait_for (a task and two futures per request, the most
        # frequent thing a gateway does).
        timer = asyncio.get_running_loop().call_later(
            self.timeout, self._unanswered, request, conn, message
        )
        try:
            await done
        finally:
            timer.cancel()

    def _unanswered(self, request: int, conn: GatewayConnection, message: ClientMessage) -> None:
        """The owner did not answer ``request`` in time: say so, and stop waiting."""
        found = self._pending.pop(request, None)
        if found is None:
            return
        refusal = ServiceUnavailable(
            f"{message.type}: the table did not answer within {self.timeout:g} s (its server "
            "may have stopped; another takes it over): check the table's state before sending "
            "it again",
            reason="table_unreachable",
        )
        conn.send(error_frame(refusal, ref=message.id))
        if not found[1].done():
            found[1].set_result(None)

    def disconnect(self, conn: Connection) -> None:
        assert isinstance(conn, GatewayConnection)
        conn.closed = True
        conn.outbox.put_nowait(None)
        if self.conns.get(conn.cid) is conn:
            self._forget(conn)
            self._background.start(self._gone(conn))

    async def _gone(self, conn: GatewayConnection) -> None:
        # Redis down: the owner sees this gateway's sockets go when its heartbeat stops.
        with contextlib.suppress(BusUnavailable):
            await self.bus.send(conn.table, m.Disconnect(self.node, conn.cid))

    def _forget(self, conn: GatewayConnection) -> None:
        self.conns.pop(conn.cid, None)
        self._greeted.discard(conn.cid)
        at = self.by_table.get(conn.table)
        if at is not None:
            at.discard(conn.cid)
            if not at:
                del self.by_table[conn.table]
        for request, (cid, done, _) in list(self._pending.items()):
            if cid == conn.cid:
                del self._pending[request]
                if not done.done():
                    done.set_result(None)

    # -- from the bus ------------------------------------------------------------------

    def on_frames(self, raw: bytes) -> None:
        """A batch of frames from a table's owner for this gateway's sockets."""
        batch = m.decode_frames(raw, m.gateway_channel(self.node))
        if batch is None:
            return
        if batch.token < self._tokens.get(batch.table, 0):
            # An owner that lost the table and does not know it yet (a process paused past
            # its lease): what its table says is no longer true, and the requests it answers
            # are the new owner's to answer.
            log.warning(
                "dropped frames for %s from a stale owner (token %d < %d)",
                batch.table, batch.token, self._tokens[batch.table],
            )  # fmt: skip
            return
        self._tokens[batch.table] = batch.token
        at = self.by_table.get(batch.table, set())
        everyone: list[int] | None = None  # the table's greeted sockets, found once a batch
        for item in batch.items:
            if item.conns is None:
                if everyone is None:
                    everyone = [c for c in at if c in self._greeted]
                targets = everyone
            else:
                targets = [c for c in item.conns if c in at]
                if item.text is not None and not self._greeted.issuperset(targets):
                    self._greeted.update(targets)
                    everyone = None
            if item.text is not None:
                frame = Shared.encoded(item.text)
                for cid in targets:
                    self.conns[cid].send(frame)
                if item.turn is not None:
                    turn = _turn(item.turn)
                    for cid in targets:
                        self.conns[cid].turn = turn
                if item.seated and len(targets) == 1:
                    self.conns[targets[0]].seat = item.seat
            if item.close:
                for cid in targets:
                    self.conns[cid].close(item.close)
            if item.answered:
                found = self._pending.pop(item.answered, None)
                if found is not None and not found[1].done():
                    found[1].set_result(None)

    def on_cluster(self, raw: bytes) -> None:
        message = m.decode_cluster(raw, m.CLUSTER_CHANNEL)
        match message:
            case m.TakenOver():
                self._background.start(self._taken_over(message))
            case m.UserNotice():
                self._user_notice(message)

    async def _taken_over(self, message: m.TakenOver) -> None:
        """The table changed owner: its sockets here hear that the round was voided, their
        waiting requests are answered so, and they connect to the new owner."""
        if message.token < self._tokens.get(message.table, 0):
            return  # an older takeover heard late
        self._tokens[message.table] = message.token
        cids = sorted(self.by_table.get(message.table, ()))
        frame = Shared.encoded(message.frame) if message.frame else None
        seated: dict[int, tuple[int, int]] = {}
        """user id -> one of their sockets and the seat it had."""
        for cid in cids:
            conn = self.conns[cid]
            if conn.seat is not None:
                seated.setdefault(conn.user_id, (cid, conn.seat))
            conn.seat = None  # the new owner's table has its seats free (its welcome says)
            conn.turn = None
            self._greeted.discard(cid)
            if frame is not None:
                conn.send(frame)
        for request, (cid, done, ref) in list(self._pending.items()):
            conn_at = self.conns.get(cid)
            if conn_at is None or conn_at.table != message.table:
                continue
            del self._pending[request]
            moved = ServiceUnavailable(
                "the table moved to another server: any round in play was voided and every "
                "stake returned; nothing of this request was done",
                reason="table_moved",
            )
            conn_at.send(error_frame(moved, ref=ref))
            if not done.done():
                done.set_result(None)
        commands: list[tuple[str, m.Command]] = [
            (
                message.table,
                m.Connect(self.node, cid, self.conns[cid].user_id, self.conns[cid].username),
            )
            for cid in cids
            if cid in self.conns
        ]
        # Each player seated here sits down again at the seat they had (the new owner's
        # table starts with its seats free, as after a restart): a `join` in their name,
        # whose answer reaches their socket as one to a join of theirs would.
        for cid, seat in seated.values():
            request = next(self._ids)
            join = json.dumps({"type": "join", "seat": seat})
            conn = self.conns[cid]
            submit = m.Submit(
                self.node, cid, request, join, user_id=conn.user_id, username=conn.username
            )
            commands.append((message.table, submit))
        if commands:
            try:
                await self.bus.send_many(commands)
            except BusUnavailable as exc:
                log.error("could not connect sockets to %s's new owner: %s", message.table, exc)

    def _user_notice(self, notice: m.UserNotice) -> None:
        """A revocation or a user's frame from another process, applied to the sessions of
        this one's sockets."""
        live = self.sessions
        if live is None or notice.origin == self.node:
            return
        if notice.kind == "revoke_token" and notice.token_hash:
            live.revoke_token(notice.token_hash, notice.reason, relayed=True)
        elif notice.kind == "revoke_user" and notice.user_id is not None:
            live.revoke_user(notice.user_id, notice.reason, relayed=True)
        elif notice.kind == "frame" and notice.user_id is not None and notice.frame:
            live.notify_user(notice.user_id, Shared.encoded(notice.frame), relayed=True)

    def relay(self, kind: str, **fields: Any) -> None:
        """Tell the other processes of a revocation or a user's frame made here (called from
        any thread: :attr:`croupier.server.accounts.sessions.LiveSessions.relay`)."""
        frame = fields.pop("frame", None)
        text = (
            None if frame is None else (frame.text if isinstance(frame, Shared) else encode(frame))
        )
        notice = m.UserNotice(origin=self.node, kind=kind, frame=text, **fields)  # type: ignore[arg-type]
        loop = self._loop
        if loop is None:
            return
        payload = m.encode(notice)

        async def send() -> None:
            try:
                await self.bus.publish(m.CLUSTER_CHANNEL, payload)
            except Exception as exc:
                log.warning("could not tell the cluster of a %s: %s", kind, exc)

        loop.call_soon_threadsafe(lambda: self._background.start(send()))


def _turn(offer: m.TurnOffer) -> Turn | None:
    """The turn a ``your_turn`` offers (``None``: its decisions add no stake)."""
    if not offer.stakes:
        return None
    return Turn(offer.round_id, offer.phase, frozenset(offer.legal), offer.stakes, offer.decision)
