"""Closing the AI loop leaves no task half-done: what cancelling a turn starts (closing the
provider's abandoned stream generators, which await the connection's close in their
``finally``) is awaited too, so nothing is left pending for "Task was destroyed but it is
pending!" at exit."""

from __future__ import annotations

import asyncio
import gc
import logging
import threading
import time

import pytest

from swebash.host.loop import AiLoop


async def stream(closed: list[str]) -> object:
    """Like httpcore's ``PoolByteStream.__aiter__``: closing it awaits something."""
    try:
        yield b"chunk"
        await asyncio.sleep(3600)
    finally:
        await asyncio.sleep(0.05)  # the connection's close
        closed.append("closed")


def test_close_awaits_the_cleanup_a_cancelled_turn_starts(
        caplog: pytest.LogCaptureFixture) -> None:
    closed: list[str] = []
    ai = AiLoop()

    async def turn() -> None:
        chunks = stream(closed)
        await anext(chunks)  # type: ignore[call-overload]
        await asyncio.sleep(3600)  # cancelled at close: ``chunks`` is dropped mid-stream

    ai.submit(turn())
    time.sleep(0.1)
    loop = ai.loop
    with caplog.at_level(logging.ERROR, logger="asyncio"):
        ai.close()
        time.sleep(0.2)
        assert closed == ["closed"]
        assert [t for t in asyncio.all_tasks(loop) if not t.done()] == []
        gc.collect()
    assert "Task was destroyed" not in caplog.text


def test_close_closes_generators_left_suspended() -> None:
    closed: list[str] = []
    ai = AiLoop()
    kept: list[object] = []

    async def start() -> None:
        chunks = stream(closed)
        await anext(chunks)  # type: ignore[call-overload]
        kept.append(chunks)  # still referenced: only closing the loop's generators ends it

    ai.run(start())
    ai.close()
    assert closed == ["closed"]


def test_close_lets_a_turn_already_cancelled_finish_its_cleanup() -> None:
    """Ctrl-C cancels the turn (its conversation note, the stream's close still to come);
    the exit right after must not cancel that cleanup a second time."""
    cleaned: list[str] = []
    ai = AiLoop()
    started = threading.Event()

    async def turn() -> None:
        try:
            started.set()
            await asyncio.sleep(3600)
        finally:
            await asyncio.sleep(0.1)  # e.g. closing the HTTP response
            cleaned.append("cleaned")

    future = ai.submit(turn())
    started.wait(5)
    future.cancel()  # what AiLoop.run does on KeyboardInterrupt
    ai.close()
    assert cleaned == ["cleaned"]
