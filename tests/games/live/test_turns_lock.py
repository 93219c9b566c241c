"""The room's lock: chat waits behind the game's actions, each queue in order, and a waiter cancelled while
it waits (or just as it was handed the lock) never keeps the lock from the others."""

from __future__ import annotations

import asyncio

import pytest

from app.games.live.turns_lock import TurnsLock


async def _turns(lock: TurnsLock, order: list[str], name: str, behind: bool) -> None:
    async with lock.behind() if behind else lock:
        order.append(name)
        await asyncio.sleep(0)


async def test_waiters_in_front_go_before_those_behind_and_each_queue_in_order() -> None:
    lock, order = TurnsLock(), list[str]()
    await lock.acquire()
    waiting = [
        asyncio.create_task(_turns(lock, order, name, behind))
        for name, behind in (("chat 1", True), ("move 1", False), ("chat 2", True), ("move 2", False))
    ]
    await asyncio.sleep(0)  # every waiter queued
    assert order == [] and lock.locked()
    lock.release()
    await asyncio.gather(*waiting)
    assert order == ["move 1", "move 2", "chat 1", "chat 2"]
    assert not lock.locked()


async def test_a_free_lock_is_taken_at_once_behind_too() -> None:
    lock = TurnsLock()
    async with lock.behind():
        assert lock.locked()
    assert not lock.locked()


@pytest.mark.parametrize("handed", [False, True])
async def test_a_cancelled_waiter_leaves_the_lock_to_the_next(handed: bool) -> None:
    lock, order = TurnsLock(), list[str]()
    await lock.acquire()
    cancelled = asyncio.create_task(_turns(lock, order, "cancelled", False))
    after = asyncio.create_task(_turns(lock, order, "after", True))
    await asyncio.sleep(0)
    if handed:
        lock.release()  # handed to the first waiter, which is cancelled before it runs
        cancelled.cancel()
    else:
        cancelled.cancel()
        await asyncio.sleep(0)
        lock.release()
    with pytest.raises(asyncio.CancelledError):
        await cancelled
    await after
    assert order == ["after"] and not lock.locked()
