"""A heartbeat on the event loop, to measure its stalls.

Every ``interval`` the heartbeat asks to be woken up again; how much later than asked it wakes is how long
the loop could not run anything: a move, a socket's message, a timer. Each lateness is observed in
``tengen_event_loop_lag_seconds`` (a stall of length ``s`` shows as a lateness of up to ``s``, at least
``s - interval``). A late wake-up has two causes: the loop was busy (work that should have left it, such as
hashing, scoring or parsing, or a long garbage collection), or the process waited for a core on a busy
machine. The CPU time the loop's thread used meanwhile tells them apart: the lateness, capped at that CPU
time, is observed in ``tengen_event_loop_busy_lag_seconds``: the stalls of the server's own making. The
heartbeat costs about 100 wake-ups a second.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from app.background import BackgroundTask

INTERVAL = 0.01


class LoopWatch:
    def __init__(
        self,
        observe: Callable[[float], None],
        interval: float = INTERVAL,
        clock: Callable[[], float] = time.perf_counter,
        observe_busy: Callable[[float], None] | None = None,
        cpu_clock: Callable[[], float] = time.thread_time,
    ) -> None:
        self.observe = observe
        self.observe_busy = observe_busy
        self.interval = interval
        self.clock = clock
        self.cpu_clock = cpu_clock
        self._task = BackgroundTask("loop-watch")

    async def start(self) -> None:
        self._task.start(self._beat())

    async def close(self) -> None:
        await self._task.close()

    async def _beat(self) -> None:
        while True:
            asked, cpu = self.clock(), self.cpu_clock()
            await asyncio.sleep(self.interval)
            late = max(0.0, self.clock() - asked - self.interval)
            self.observe(late)
            if self.observe_busy is not None:
                self.observe_busy(min(late, self.cpu_clock() - cpu))
