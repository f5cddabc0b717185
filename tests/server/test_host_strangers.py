"""A request that reaches a table's owner from a socket it does not know is not swallowed
(found by red-teaming, issue 26). Before, the owner answered nothing: the client's request
went unanswered and a stake its gateway held waited for a close of betting that might never
come. Now a socket of a gateway the owner took for dead when its heartbeat came late (alive
after all: it sent this) is connected again and its request taken as any other, applied or
refused with any stake held for it returned; one the owner never saw connect (sent to the
old owner's stream just before a takeover) is answered ``table_moved``, as its gateway
answers the requests waiting at the takeover: nothing of it is done."""

from __future__ import annotations

import asyncio
import json
import time
from functools import partial
from typing import Any

import pytest
from server_testkit import Seat, Server, table_ws

from croupier.server.cluster import messages as m
from croupier.server.cluster.host import TableHost
from croupier.server.tables.connection import Connect, Prepaid, Request

BET = json.dumps({"type": "bet", "id": "b-1", "key": "k1", "bets": {"ante": 100}})


class _Config:
    name = "uth-1"


class _Core:
    def __init__(self) -> None:
        self.inbox: asyncio.Queue[Any] = asyncio.Queue()


class _Table:
    config = _Config()

    def __init__(self) -> None:
        self.core = _Core()

    def seat_of(self, user_id: int) -> int | None:
        return None

    def disconnect(self, conn: Any) -> None:
        self.core.inbox.put_nowait(("disconnect", conn))


class _Bus:
    async def publish(self, channel: str, data: bytes) -> None:
        return None


def _sent(host: TableHost) -> list[m.Item]:
    return host.outlet._items("gw", host.outlet._pending.get("gw", []))


@pytest.mark.parametrize("paid", [False, True], ids=["bet", "prepaid bet"])
def test_a_request_from_a_socket_never_seen_is_answered_table_moved(paid: bool) -> None:
    async def run() -> tuple[list[m.Item], int]:
        table = _Table()
        host = TableHost(table, token=2, bus=_Bus(), start_id="0")  # type: ignore[arg-type]
        prepaid = (
            Prepaid(round_id=9, transaction_id=41, amount=200, balance=800, replayed=False, seat=0)
            if paid
            else None
        )
        host.command(m.Submit("gw", 7, 3, BET, prepaid, user_id=42, username="ann"))
        return _sent(host), table.core.inbox.qsize()

    items, queued = asyncio.run(run())
    assert queued == 0  # nothing reaches the table
    frames = [(item.conns, json.loads(item.text)) for item in items if item.text is not None]
    assert len(frames) == 1, items
    conns, frame = frames[0]
    assert conns == [7]
    assert (frame["type"], frame["reason"], frame["ref"]) == ("error", "table_moved", "b-1")
    assert "nothing" in frame["message"]
    if paid:
        assert "returned when betting closes at the latest" in frame["message"]
    assert [item.answered for item in items if item.answered] == [3]
    # The answer follows the error, so the gateway's waiting request ends after it is sent.
    assert [item.answered for item in items] == [0, 3]


def test_a_request_from_a_socket_reaped_by_mistake_connects_it_first() -> None:
    async def run() -> tuple[TableHost, list[Any]]:
        table = _Table()
        host = TableHost(table, token=2, bus=_Bus(), start_id="0")  # type: ignore[arg-type]
        host.command(m.Connect("gw", 7, 42, "ann"))
        host._drop("gw", 7, reaped=True)  # its gateway's heartbeat came late
        while not table.core.inbox.empty():
            table.core.inbox.get_nowait()
        # Another player's frame from that socket is not taken for it.
        host.command(m.Submit("gw", 7, 2, BET, None, user_id=43, username="eve"))
        assert table.core.inbox.empty() and ("gw", 7) not in host.remote
        host.command(m.Submit("gw", 7, 3, BET, None, user_id=42, username="ann"))
        queued = []
        while not table.core.inbox.empty():
            queued.append(table.core.inbox.get_nowait())
        return host, queued

    host, queued = asyncio.run(run())
    assert [type(q) for q in queued] == [Connect, Request]
    conn = host.remote[("gw", 7)]
    assert (conn.user_id, conn.username) == (42, "ann")
    assert host.outlet.members["gw"][7] is conn
    assert queued[0].conn is conn and queued[1].conn is conn
    assert queued[1].message.key == "k1"


def test_a_reaped_socket_silent_for_minutes_is_forgotten() -> None:
    """Its gateway truly gone, the owner does not keep its sockets' players for ever: a
    request from one after that is answered as from a socket never seen."""

    async def run() -> tuple[int, int, list[m.Item], int]:
        table = _Table()
        host = TableHost(table, token=2, bus=_Bus(), start_id="0")  # type: ignore[arg-type]
        host.command(m.Connect("gw", 7, 42, "ann"))
        host._drop("gw", 7, reaped=True)
        now = asyncio.get_running_loop().time()
        host.forget_reaped(now + 290)
        kept = len(host._reaped)
        host.forget_reaped(now + 301)  # silent five minutes
        left = len(host._reaped)
        while not table.core.inbox.empty():
            table.core.inbox.get_nowait()
        host.command(m.Submit("gw", 7, 3, BET, None, user_id=42, username="ann"))
        return kept, left, _sent(host), table.core.inbox.qsize()

    kept, left, items, queued = asyncio.run(run())
    assert (kept, left, queued) == (1, 0, 0)
    frames = [json.loads(item.text) for item in items if item.text is not None]
    assert [(f["type"], f["reason"]) for f in frames] == [("error", "table_moved")]


def test_a_stranger_frame_that_does_not_validate_is_still_answered() -> None:
    async def run() -> list[Any]:
        host = TableHost(_Table(), token=2, bus=_Bus(), start_id="0")  # type: ignore[arg-type]
        host.command(m.Submit("gw", 7, 5, "{not json", None, user_id=42, username="ann"))
        return _sent(host)

    items = asyncio.run(run())
    assert [item.answered for item in items if item.answered] == [5]
    assert not [item for item in items if item.text is not None]


# -- through a two-process cluster's gateway and owner -------------------------------------

cluster = pytest.mark.parametrize(
    "db_url", [pytest.param("cluster", marks=pytest.mark.postgres)], indirect=True
)


def _forget(server: Server, user_id: int) -> None:
    """The owner forgets the user's sockets, as a reaper that took their gateway for dead."""
    host = server.app.state.node.hosts["live"]
    keys = [k for k, c in host.remote.items() if c.user_id == user_id]
    assert keys
    for gateway, cid in keys:
        server.app.state.test_client.portal.call(partial(host._drop, gateway, cid, reaped=True))


def _answer(seat: Seat, ref: str, seconds: float) -> dict[str, Any] | None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for frame in seat.frames:
            if frame.get("ref") == ref and frame["type"] in ("ack", "error"):
                return frame
        try:
            raw = seat.ws.ws.recv(timeout=0.5)
        except TimeoutError:
            continue
        got = json.loads(raw)
        seat.frames.extend(got if isinstance(got, list) else [got])
    return None


@cluster
@pytest.mark.timeout(120)
def test_a_forgotten_socket_is_answered_and_its_stake_is_placed_or_returned(
    server: Server,
) -> None:
    (_, ann), (bob_id, bob) = (server.player(n, credit=5_000) for n in ("ann", "bob"))
    with table_ws(server.client, "live", ann) as wa, table_ws(server.client, "live", bob) as wb:
        a, b = Seat(wa), Seat(wb)
        for seat in (a, b):
            seat.welcome()
            assert seat.request({"type": "join"})["type"] == "ack"
        assert a.request({"type": "bet", "key": "ka", "bets": {"ante": 100}})["type"] == "ack"
        _forget(server, bob_id)
        b.send({"type": "bet", "key": "kb", "bets": {"ante": 100}, "id": "late"})
        answer = _answer(b, "late", 8)  # within the gateway's 10 s: the owner answered
        assert answer is not None
        if answer["type"] == "ack":
            assert answer["result"]["staked"] == 200
            assert server.balance(bob) == 5_000 - 200 == answer["result"]["balance"]
        else:  # refused: whatever was held for it is back before it is told
            assert server.balance(bob) == 5_000, answer
        # The socket works again: the owner knows it.
        assert b.request({"type": "ping"})["type"] == "pong"


@cluster
@pytest.mark.timeout(120)
def test_a_lone_players_bet_from_a_forgotten_socket_is_not_left_held(server: Server) -> None:
    """No other player: the gateway holds the bet for the round the owner prepared, which
    nobody else's bet opens -- a stake left held there waited indefinitely."""
    ann_id, ann = server.player("ann", credit=5_000)
    with table_ws(server.client, "live", ann) as wa:
        a = Seat(wa)
        a.welcome()
        assert a.request({"type": "join"})["type"] == "ack"
        time.sleep(1)  # the prepared round recorded
        _forget(server, ann_id)
        a.send({"type": "bet", "key": "ka", "bets": {"ante": 100}, "id": "lone"})
        answer = _answer(a, "lone", 8)
        assert answer is not None
        if answer["type"] == "ack":  # placed: its round runs and settles
            assert answer["result"]["balance"] == 5_000 - 200
        else:
            assert server.balance(ann) == 5_000, answer
