"""The socket writer (``router._pump``): one frame per message, or, for a socket that asked
for ``batch``, the frames waiting together as one JSON array, the last one before a close
included."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from croupier.server.tables.connection import Connection
from croupier.server.tables.router import BATCH_MOST, _pump
from croupier.server.tables.wire import Shared


class _Socket:
    def __init__(self) -> None:
        self.texts: list[str] = []
        self.closed: int | None = None

    async def send_text(self, text: str) -> None:
        self.texts.append(text)

    async def close(self, code: int) -> None:
        self.closed = code


class _Count:
    def __init__(self) -> None:
        self.n = 0

    def inc(self, n: int = 1) -> None:
        self.n += n


def _written(batch: bool, frames: list[Any], *, close: int | None) -> tuple[_Socket, int]:
    socket, count = _Socket(), _Count()

    async def scenario() -> None:
        conn = Connection(user_id=1, username="alice")
        for frame in frames:
            conn.send(frame)
        if close is None:
            conn.close()  # the socket goes, with nothing more to say
        else:
            conn.close(close, last={"type": "error", "code": "unauthenticated", "message": "x"})
        await asyncio.wait_for(_pump(socket, conn, count, batch=batch), timeout=5)  # type: ignore[arg-type]

    asyncio.run(scenario())
    return socket, count.n


def _frames(n: int) -> list[Any]:
    return [
        Shared.encoded(json.dumps({"type": "event", "seq": i}))
        if i % 2
        else {"type": "pong", "n": i}
        for i in range(n)
    ]


def test_without_batch_each_frame_is_its_own_message() -> None:
    socket, sent = _written(False, _frames(3), close=4401)
    assert [json.loads(t) for t in socket.texts][:3] == [
        {"type": "pong", "n": 0},
        {"type": "event", "seq": 1},
        {"type": "pong", "n": 2},
    ]
    assert json.loads(socket.texts[3])["code"] == "unauthenticated"
    assert socket.closed == 4401 and sent == 4


def test_a_batching_socket_gets_what_waits_as_one_array_and_the_last_frame_before_closing() -> None:
    socket, sent = _written(True, _frames(3), close=4401)
    (only,) = socket.texts
    batch = json.loads(only)
    assert [f["type"] for f in batch] == ["pong", "event", "pong", "error"]
    assert batch[1] == {"type": "event", "seq": 1}
    assert socket.closed == 4401 and sent == 4


def test_a_batch_holds_at_most_batch_most_frames_in_order() -> None:
    socket, sent = _written(True, _frames(BATCH_MOST + 5), close=None)
    assert socket.closed == 1000
    first, second = (json.loads(t) for t in socket.texts)
    assert len(first) == BATCH_MOST and len(second) == 5
    flat = first + second
    assert [f.get("seq", f.get("n")) for f in flat] == list(range(BATCH_MOST + 5))
    assert sent == BATCH_MOST + 5


def test_a_lone_frame_is_not_wrapped_in_an_array() -> None:
    socket, _ = _written(True, _frames(1), close=None)
    assert json.loads(socket.texts[0]) == {"type": "pong", "n": 0}
