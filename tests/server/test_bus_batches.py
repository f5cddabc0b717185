"""A gateway's commands sent together go on a table's stream as few entries, each sealed once
and holding its commands in order; the owner drops a command that does not validate alone,
and still reads an entry of one command alone."""

from __future__ import annotations

import asyncio
from typing import Any

import msgspec
import pytest

from croupier.server.cluster import messages as m
from croupier.server.cluster.bus import Bus
from croupier.server.cluster.seal import Purpose, Seal, StreamGuard

KEY = "k" * 40


class _Pipe:
    def __init__(self, added: list[tuple[str, bytes]]) -> None:
        self.added = added

    async def __aenter__(self) -> _Pipe:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None

    def xadd(self, stream: str, fields: dict[str, bytes], **_: Any) -> None:
        self.added.append((stream, fields["m"]))

    async def execute(self) -> None:
        await asyncio.sleep(0.01)  # the round trip: what callers send meanwhile waits


class _Redis:
    def __init__(self) -> None:
        self.added: list[tuple[str, bytes]] = []
        self.executed = 0

    def pipeline(self, transaction: bool = True) -> _Pipe:
        self.executed += 1
        return _Pipe(self.added)


def _submit(i: int) -> m.Submit:
    return m.Submit("gw", i, i, f'{{"type":"bet","n":{i}}}')


def test_commands_sent_together_are_few_entries_each_in_order() -> None:
    seal = Seal(KEY, max_age=60)
    bus = Bus("redis://localhost:1/0", node="gw", heartbeat_seconds=1, seal=seal)
    fake = _Redis()
    bus._redis = fake  # type: ignore[assignment]

    async def run() -> None:
        # One socket's command, then a thousand sockets' and another table's while it is out.
        first = asyncio.create_task(bus.send("a", _submit(0)))
        await asyncio.sleep(0)
        rest = [bus.send("a", _submit(i)) for i in range(1, 601)]
        rest += [bus.send("b", _submit(1000 + i)) for i in range(3)]
        await asyncio.gather(first, *rest)

    asyncio.run(run())
    streams = [stream for stream, _ in fake.added]
    a, b = m.command_stream("a"), m.command_stream("b")
    assert streams == [a, a, a, a, b], streams  # 1, then 600 as 256 + 256 + 88, and b's 3
    guards = {a: StreamGuard(since=0), b: StreamGuard(since=0)}
    read: dict[str, list[int]] = {a: [], b: []}
    sizes = []
    for stream, raw in fake.added:
        opened = seal.open(Purpose.COMMAND, stream, raw)
        guards[stream].admit(opened)
        commands = m.decode_commands(opened.payload, stream)
        sizes.append(len(commands))
        read[stream] += [c.conn for c in commands if isinstance(c, m.Submit)]
    assert sizes == [1, 256, 256, 88, 3]
    assert read[a] == list(range(601)) and read[b] == [1000, 1001, 1002]
    assert fake.executed == 2  # two round trips for 604 commands


def test_a_command_that_does_not_validate_is_dropped_alone(
    caplog: pytest.LogCaptureFixture,
) -> None:
    one = msgspec.json.encode(_submit(7))
    assert m.decode_commands(one, "s") == [_submit(7)]  # an entry of one command alone
    good = m.encode_commands([_submit(1), _submit(2), _submit(3)])
    assert m.decode_commands(good, "s") == [_submit(1), _submit(2), _submit(3)]
    bad = good.replace(b'"conn":2', b'"conn":"two"')
    assert bad != good and m.decode_commands(bad, "s") == [_submit(1), _submit(3)]
    assert "dropped a message on s that does not validate" in caplog.text
    assert m.decode_commands(b"[]", "s") == []
    assert m.decode_commands(b'{"type":"submit"}', "s") == []
    assert m.decode_commands(b"not json", "s") == []
