"""A request that reaches a table's new owner from a socket it never saw connect (sent to the
old owner's stream just before the takeover) is answered with ``table_moved``, not dropped in
silence: the client hears that nothing of it was done (and that a stake its gateway held comes
back when the window closes, or is placed if it sends the bet again)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from croupier.server.cluster import messages as m
from croupier.server.cluster.host import TableHost
from croupier.server.tables.connection import Prepaid


class _Config:
    name = "uth-1"


class _Table:
    config = _Config()

    def seat_of(self, user_id: int) -> int | None:
        return None


class _Bus:
    async def publish(self, channel: str, data: bytes) -> None:
        return None


def _sent(host: TableHost) -> list[m.Item]:
    return host.outlet._items("gw", host.outlet._pending.get("gw", []))


@pytest.mark.parametrize("paid", [False, True], ids=["bet", "prepaid bet"])
def test_a_request_from_a_socket_the_owner_never_saw_is_answered_table_moved(paid: bool) -> None:
    async def run() -> list[m.Item]:
        host = TableHost(_Table(), token=2, bus=_Bus(), start_id="0")  # type: ignore[arg-type]
        prepaid = (
            Prepaid(round_id=9, transaction_id=41, amount=200, balance=800, replayed=False, seat=0)
            if paid
            else None
        )
        text = json.dumps({"type": "bet", "id": "b-1", "key": "k1", "bets": {"ante": 100}})
        host.command(m.Submit("gw", 7, 3, text, prepaid))
        return _sent(host)

    items = asyncio.run(run())
    frames = [(item.conns, json.loads(item.text)) for item in items if item.text is not None]
    assert len(frames) == 1, items
    conns, frame = frames[0]
    assert conns == [7]
    assert frame["type"] == "error"
    assert frame["reason"] == "table_moved"
    assert frame["ref"] == "b-1"
    assert "nothing" in frame["message"]
    if paid:
        assert "returned when betting closes at the latest" in frame["message"]
    answered = [item.answered for item in items if item.answered]
    assert answered == [3]
    # The answer follows the error, so the gateway's waiting request ends after it is sent.
    assert items.index(next(i for i in items if i.answered)) > items.index(
        next(i for i in items if i.text is not None)
    )


def test_a_stranger_frame_that_does_not_validate_is_still_answered() -> None:
    async def run() -> list[Any]:
        host = TableHost(_Table(), token=2, bus=_Bus(), start_id="0")  # type: ignore[arg-type]
        host.command(m.Submit("gw", 7, 5, "{not json", None))
        return _sent(host)

    items = asyncio.run(run())
    assert [item.answered for item in items if item.answered] == [5]
