"""``close_in_order``: every part is closed in order, and one that does not end within its bound (here a part
that swallows its cancellation, as a library sometimes does) is left behind without holding up the others."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from app.shutdown import close_in_order


async def test_a_part_that_never_ends_does_not_hold_up_the_others(caplog: pytest.LogCaptureFixture) -> None:
    closed: list[str] = []

    async def loop() -> None:
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.sleep(3600)
        await asyncio.sleep(3600)  # its cancellation was swallowed: the next round's wait

    task = asyncio.create_task(loop())
    await asyncio.sleep(0)

    async def stuck() -> None:
        task.cancel()
        await task

    async def hub() -> None:
        closed.append("hub")

    def failing() -> None:
        raise RuntimeError("broken")

    await close_in_order(
        [("rooms", stuck), ("broken part", failing), ("hub", hub), ("pools", lambda: closed.append("pools"))], step_seconds=0.2
    )
    assert closed == ["hub", "pools"]
    assert "closing rooms did not end within 0.2 s" in caplog.text
    assert "closing broken part failed" in caplog.text
    task.cancel()
