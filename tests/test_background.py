"""``BackgroundTask``: the task runs until ``close``, which cancels it and waits for its clean-up."""

from __future__ import annotations

import asyncio

from app.background import BackgroundTask


async def test_close_cancels_the_task_and_waits_for_it() -> None:
    events: list[str] = []

    async def work() -> None:
        events.append("started")
        try:
            await asyncio.Event().wait()
        finally:
            await asyncio.sleep(0)  # clean-up that itself awaits is waited for
            events.append("cleaned up")

    task = BackgroundTask("test-work")
    task.start(work())
    await asyncio.sleep(0)
    assert events == ["started"]
    await task.close()
    assert events == ["started", "cleaned up"]
    await task.close()  # a second close does nothing


async def test_close_before_start_does_nothing() -> None:
    await BackgroundTask("never-started").close()
