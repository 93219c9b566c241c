"""``eager.start``: a coroutine runs at once in the caller's turn; only one that waits becomes a task."""

from __future__ import annotations

import asyncio

import pytest

from app.transport import eager


async def test_a_coroutine_that_never_waits_finishes_at_once_with_no_task() -> None:
    done: list[str] = []

    async def work() -> None:
        done.append("ran")

    tasks = len(asyncio.all_tasks())
    assert eager.start(work()) is None
    assert done == ["ran"] and len(asyncio.all_tasks()) == tasks


async def test_a_coroutine_that_waits_goes_on_in_a_task_where_it_stopped() -> None:
    steps: list[str] = []
    gate: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    async def work() -> None:
        steps.append("before")
        steps.append(await gate)
        await asyncio.sleep(0)  # a bare yield too
        steps.append("after")

    task = eager.start(work())
    assert task is not None and steps == ["before"]
    gate.set_result("value")
    await task
    assert steps == ["before", "value", "after"]


async def test_an_error_before_the_first_wait_reaches_the_caller_and_one_after_it_the_task() -> None:
    async def fails_at_once() -> None:
        raise ValueError("at once")

    with pytest.raises(ValueError, match="at once"):
        eager.start(fails_at_once())

    gate: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    async def fails_later() -> None:
        await gate
        raise ValueError("later")

    task = eager.start(fails_later())
    assert task is not None
    gate.set_exception(KeyError("from the awaited future"))
    with pytest.raises(KeyError):
        await task
    with pytest.raises(KeyError):  # the future has failed already: awaited again, it raises before any wait
        eager.start(fails_later())


async def test_cancelling_the_task_cancels_the_coroutine_where_it_waits() -> None:
    cleaned: list[str] = []
    gate: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    async def work() -> None:
        try:
            await gate
        finally:
            cleaned.append("finally")

    task = eager.start(work())
    assert task is not None
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert cleaned == ["finally"] and gate.cancelled()
