"""Stopping a cluster's tasks for sure (:func:`croupier.server.cluster.tasks.stop`)."""

from __future__ import annotations

import asyncio
import logging

import pytest

from croupier.server.cluster import tasks


async def _swallows_one_cancel(woken: asyncio.Event, calls: list[str]) -> None:
    """A publisher's loop whose library call swallows a cancellation (as the Redis client
    did once at a fenced owner's stop): it goes back to waiting for work."""
    while True:
        await woken.wait()
        woken.clear()
        try:
            await asyncio.sleep(30)  # the call in flight
        except asyncio.CancelledError:
            calls.append("swallowed")
            continue
        calls.append("published")


async def _fails() -> None:
    raise RuntimeError("boom")


def test_a_task_that_swallows_its_cancellation_is_stopped_all_the_same() -> None:
    async def run() -> list[str]:
        woken, calls = asyncio.Event(), []
        stubborn = asyncio.create_task(_swallows_one_cancel(woken, calls), name="outlet")
        failed = asyncio.create_task(_fails(), name="failed")
        plain = asyncio.create_task(asyncio.sleep(30), name="plain")
        woken.set()
        await asyncio.sleep(0.01)  # the stubborn one is in its call
        await asyncio.wait_for(tasks.stop([stubborn, failed, plain]), timeout=10)
        assert stubborn.cancelled() and plain.cancelled() and failed.done()
        return calls

    assert asyncio.run(run()) == ["swallowed"]


def test_a_task_that_never_stops_is_named_and_left(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(tasks, "STOP_WAIT", 0.01)

    listening = asyncio.Event()

    async def deaf() -> None:
        while not listening.is_set():
            try:
                await asyncio.sleep(30)
            except asyncio.CancelledError:
                continue

    async def run() -> bool:
        task = asyncio.create_task(deaf(), name="deaf")
        await asyncio.sleep(0)
        await asyncio.wait_for(tasks.stop([task], what="the tasks of table t"), timeout=10)
        left = not task.done()
        listening.set()  # let it end before the loop closes
        task.cancel()
        await asyncio.wait([task])
        return left

    with caplog.at_level(logging.ERROR):
        assert asyncio.run(run())
    assert "the tasks of table t would not stop when cancelled: deaf" in caplog.text


class _Bus:
    """What a node's stop asks of its bus."""

    node = "n1"

    def __init__(self) -> None:
        self.calls: list[str] = []

    async def forget(self) -> None:
        self.calls.append("forget")

    async def close(self) -> None:
        self.calls.append("close")


def test_a_nodes_stop_ends_though_its_subscriber_swallows_a_cancellation() -> None:
    """A CI run's cluster test hung past its 90 s at the owner's shutdown: the node waited
    for each of its tasks for ever, one of them in a Redis call that can lose its
    cancellation. The node now stops its tasks as a table does (:func:`tasks.stop`)."""
    from croupier.server.cluster.node import Node

    async def run() -> tuple[list[str], list[str], bool]:
        woken, calls = asyncio.Event(), []
        node = Node.__new__(Node)  # only what stop() touches: no database, no Redis
        node.name, node.bus, node.hosts, node.leases = "n1", _Bus(), {}, {}
        subscriber = asyncio.create_task(_swallows_one_cancel(woken, calls), name="bus")
        beat = asyncio.create_task(asyncio.sleep(30), name="heartbeat")
        node._tasks = [subscriber, beat]  # type: ignore[list-item]
        woken.set()
        await asyncio.sleep(0.01)  # the subscriber is in its call
        stop = asyncio.create_task(node.stop())
        # Waited for, not cancelled on time out: a cancellation would reach the task the
        # stop awaits and end it, as nothing in a real shutdown does.
        await asyncio.wait([stop], timeout=10)
        ended = stop.done() and stop.exception() is None
        if not ended:
            woken.set()
            subscriber.cancel()
            stop.cancel()
            await asyncio.wait([stop, subscriber])
        return calls, node.bus.calls, ended and subscriber.cancelled() and beat.cancelled()

    calls, bus_calls, stopped = asyncio.run(run())
    assert calls == ["swallowed"] and bus_calls == ["forget", "close"] and stopped
