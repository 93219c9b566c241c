"""Run a coroutine at once, in the caller's turn of the event loop, and make a task only if it has to wait.

Sending a message to a socket whose transport has room never waits: the frame is written and the send
returns. Started as a task, each such send would cost a task (allocated, scheduled, run in a later turn of
the loop, then collected) for work that takes microseconds; fanning one move out to a thousand sockets made a
thousand of them at once. ``start`` runs the coroutine right away instead and only when it really waits (a
paused transport, a read from the database) hands the rest of it to a task, which resumes it exactly where it
stopped. (Python 3.12 offers the same as ``asyncio.eager_task_factory``, for every task of a loop.)
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any


def start(coro: Coroutine[Any, Any, None]) -> asyncio.Task[None] | None:
    """Run ``coro`` until it finishes or first waits; None when it finished, else the task running the rest.

    An exception ``coro`` raises before its first wait propagates to the caller."""
    try:
        waiting_for = coro.send(None)
    except StopIteration:
        return None
    return asyncio.get_running_loop().create_task(_resume(coro, waiting_for))


async def _resume(coro: Coroutine[Any, Any, None], waiting_for: Any) -> None:
    """Go on with a coroutine that yielded ``waiting_for`` (a future, or None for a bare yield), as a task would."""
    while True:
        try:
            if waiting_for is None:
                await asyncio.sleep(0)
            else:
                waiting_for._asyncio_future_blocking = False  # taken over here, as a task takes it over
                await asyncio.wait((waiting_for,))
        except BaseException as error:  # cancelled while waiting: the coroutine gets it where it waits
            if waiting_for is not None:
                waiting_for.cancel()
            try:
                waiting_for = coro.throw(error)
            except StopIteration:
                return
            continue
        try:
            waiting_for = coro.send(None)
        except StopIteration:
            return
