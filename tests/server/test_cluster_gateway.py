"""A cluster's gateway without Redis (issue 18): requests the owner never answers, frames
relayed to the right sockets only, and batches from a stale owner dropped."""

from __future__ import annotations

import asyncio
from typing import Any

from croupier.server.cluster import messages as m
from croupier.server.cluster.gateway import ClusterAccess
from croupier.server.tables.protocol import PingMessage
from croupier.server.tables.wire import Shared, encode


class _Bus:
    """Takes every command, answers nothing."""

    node = "gw"

    def __init__(self) -> None:
        self.sent: list[tuple[str, Any]] = []

    async def send(self, table: str, command: Any) -> None:
        self.sent.append((table, command))

    async def send_many(self, commands: list[tuple[str, Any]]) -> None:
        self.sent.extend(commands)


def _frames(conn: Any) -> list[str]:
    out = []
    while not conn.outbox.empty():
        frame = conn.outbox.get_nowait()
        if frame is not None:
            out.append(frame.text if isinstance(frame, Shared) else encode(frame))
    return out


def test_a_request_its_owner_never_answers_is_refused_after_the_timeout() -> None:
    async def scenario() -> list[str]:
        gateway = ClusterAccess(_Bus(), check=lambda name: None, timeout=0.05)  # type: ignore[arg-type]
        conn = await gateway.connect("live", user_id=1, username="ann")
        await asyncio.wait_for(gateway.submit(conn, PingMessage(id="p1"), '{"type":"ping"}'), 5)
        assert not gateway._pending  # nothing left waiting
        return _frames(conn)

    (error,) = asyncio.run(scenario())
    assert '"reason":"table_unreachable"' in error and '"ref":"p1"' in error


def test_frames_reach_only_their_sockets_and_a_stale_owner_is_ignored() -> None:
    async def scenario() -> tuple[list[str], list[str]]:
        gateway = ClusterAccess(_Bus(), check=lambda name: None, timeout=5)  # type: ignore[arg-type]
        ann = await gateway.connect("live", user_id=1, username="ann")
        bob = await gateway.connect("live", user_id=2, username="bob")
        batch = m.Frames(
            "live",
            2,
            [
                m.Item('{"type":"welcome","to":"ann"}', [ann.cid]),  # type: ignore[attr-defined]
                m.Item('{"type":"welcome","to":"bob"}', [bob.cid]),  # type: ignore[attr-defined]
                m.Item('{"type":"event","everyone":true}', None),
            ],
        )
        gateway.on_frames(m.encode(batch))
        stale = m.Frames("live", 1, [m.Item('{"type":"state","stale":true}', None)])
        gateway.on_frames(m.encode(stale))
        return _frames(ann), _frames(bob)

    ann, bob = asyncio.run(scenario())
    assert ann == ['{"type":"welcome","to":"ann"}', '{"type":"event","everyone":true}']
    assert bob == ['{"type":"welcome","to":"bob"}', '{"type":"event","everyone":true}']
