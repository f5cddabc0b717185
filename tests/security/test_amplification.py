"""Issue 13, item 5: one client cannot make the server talk to everybody else.

A request that changes nothing (``sit_out`` when out already) is acknowledged to its sender
and broadcast to nobody. A client sending faster than its token bucket for that kind of
message allows gets an ``error`` frame (``rate_limited``) and is closed (4429): 20,000
``sit_out``/``sit_in`` or ``resync`` frames never reach the table. Other sockets, at that
table and at others, are served as before.
"""

from __future__ import annotations

import pytest
from sec_testkit import SecServer

pytestmark = pytest.mark.timeout(90)

_RATE_LIMITED = 4429


def test_a_repeated_no_op_is_broadcast_to_nobody(shared: SecServer) -> None:
    player = shared.player("noop", credit=10_000)
    watcher = shared.player("watch")
    ws = shared.socket("sec-cash", player.token)
    other = shared.socket("sec-cash", watcher.token)
    assert other.request({"type": "ping"}) is not None
    assert ws.request({"type": "join"})["type"] == "ack"  # type: ignore[index]
    out = ws.request({"type": "sit_out"})
    assert out is not None and out["result"]["sitting_out"] is True
    other.event("sat_out")
    # The state frame that follows the event may still be on its way: a ping answered means
    # everything sent before it has arrived.
    assert other.request({"type": "ping"}) is not None
    before = len(other.frames)
    for _ in range(5):
        again = ws.request({"type": "sit_out"})
        assert again is not None and again["result"] == {
            "seat": out["result"]["seat"],
            "sitting_out": True,
        }
    assert other.request({"type": "ping"}) is not None  # everything sent before it has arrived
    heard = [f for f in other.frames[before:] if f["type"] != "pong"]
    assert heard == []
    ws.close()
    other.close()


def test_a_flood_is_cut_off_and_others_are_served(shared: SecServer) -> None:
    player = shared.player("flood", credit=10_000)
    watcher = shared.player("bystander")
    far = shared.player("elsewhere")
    ws = shared.socket("sec-cash", player.token)
    other = shared.socket("sec-cash", watcher.token)
    elsewhere = shared.socket("sec-uth-2", far.token)
    assert ws.request({"type": "join"})["type"] == "ack"  # type: ignore[index]
    assert other.request({"type": "ping"}) is not None
    start = len(other.frames)
    sent = 0
    try:
        for i in range(20_000):
            ws.send({"type": "sit_out" if i % 2 == 0 else "sit_in", "id": i})
            sent += 1
    except Exception:
        pass  # the server closed the socket under the flood
    assert ws.wait_closed(10) == _RATE_LIMITED
    error = next(f for f in ws.frames if f["type"] == "error")
    assert error["code"] == "rate_limited" and error["retry_after"] > 0
    acks = [f for f in ws.frames if f["type"] == "ack"]
    assert len(acks) <= 16  # the join, and the two buckets' bursts: not 20,000
    # The bystander heard a handful of events, and both tables still answer at once.
    assert other.request({"type": "ping"}) is not None
    assert len(other.frames) - start < 30
    assert elsewhere.request({"type": "ping"}) is not None


def test_a_resync_flood_is_cut_off(shared: SecServer) -> None:
    player = shared.player("resync", credit=1_000)
    far = shared.player("calm")
    ws = shared.socket("sec-uth", player.token)
    elsewhere = shared.socket("sec-uth-2", far.token)
    assert ws.request({"type": "ping"}) is not None
    for i in range(200):
        try:
            ws.send({"type": "resync", "last_seq": 0, "id": i})
        except Exception:
            break
    assert ws.wait_closed(10) == _RATE_LIMITED
    answered = [f for f in ws.frames if f["type"] == "state" and f.get("resynced")]
    assert 1 <= len(answered) <= 4
    pong = elsewhere.request({"type": "ping"})
    assert pong is not None and pong["type"] == "pong"
