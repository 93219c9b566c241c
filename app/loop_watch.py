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

import time
from collections.abc import Callable

from app.background import Periodic

INTERVAL = 0.01


class LoopWatch(Periodic):
    def __init__(
        self,
        observe: Callable[[float], None],
        interval: float = INTERVAL,
        clock: Callable[[], float] = time.perf_counter,
        observe_busy: Callable[[float], None] | None = None,
        cpu_clock: Callable[[], float] = time.thread_time,
    ) -> None:
        super().__init__("loop-watch", interval)
        self.observe = observe
        self.observe_busy = observe_busy
        self.clock = clock
        self.cpu_clock = cpu_clock
        self._asked = self._cpu = 0.0

    def start(self) -> None:
        self._ask()
        super().start()

    def _ask(self) -> None:
        """Note when the next wake-up is asked for, on both clocks."""
        self._asked, self._cpu = self.clock(), self.cpu_clock()

    async def run_once(self) -> None:
        late = max(0.0, self.clock() - self._asked - self.interval)
        self.observe(late)
        if self.observe_busy is not None:
            self.observe_busy(min(late, self.cpu_clock() - self._cpu))
        self._ask()
