"""A heartbeat on the event loop, to measure its stalls.

Every ``interval`` the heartbeat asks to be woken up again; how much later than asked it wakes is how long
the loop was busy with something else and could not run anything: a move, a socket's message, a timer. Work
that should have left the loop (hashing, scoring, parsing) or a long garbage collection shows up here. Each
lateness is observed in ``tengen_event_loop_lag_seconds`` (a stall of length ``s`` shows as a lateness of up
to ``s``, at least ``s - interval``). The heartbeat costs about 100 wake-ups a second.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable

INTERVAL = 0.01


class LoopWatch:
    def __init__(self, observe: Callable[[float], None], interval: float = INTERVAL,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.observe = observe
        self.interval = interval
        self.clock = clock
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._beat(), name="loop-watch")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _beat(self) -> None:
        while True:
            asked = self.clock()
            await asyncio.sleep(self.interval)
            self.observe(max(0.0, self.clock() - asked - self.interval))
