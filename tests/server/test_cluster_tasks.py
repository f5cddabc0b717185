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
