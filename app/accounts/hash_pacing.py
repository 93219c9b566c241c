"""Pacing of password hashes: on average a hashing worker uses at most ``share`` of one core.

One worker at nice +10 running hash after hash under a log-in flood takes a whole core; on a small host that
core is one the database and the server need, and every game's moves wait for it. Niceness alone does not
prevent that: it puts the worker behind the server's own process, but the database's backends are other
processes (often in another scheduling group) and, measured under a flood, waited for a core while the worker
hashed. So each worker is given a duty cycle as well: after a hash that took ``d`` seconds, the next hash on that worker
starts no earlier than ``d / share`` seconds after that one started. A request waiting for its turn waits
here, on the event loop's timer, holding its place in the pool's queue as if it were waiting for the worker.

``d`` is the time the hash took as seen from the server (sent, computed, answered): never less than the CPU
time the worker spent, so the share used is at most ``share`` and less when the host is busy. ``share`` 1
means no pacing (a worker never starts a hash before the last one ended anyway).

The clock and the sleep are given, so that the delays asked for can be checked without waiting for them.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager


class HashPacer:
    """``lanes`` workers, each with the earliest time its next hash may start."""

    def __init__(
        self,
        share: float,
        lanes: int = 1,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        if not 0 < share <= 1:
            raise ValueError(f"a hashing share is more than 0 and at most 1 (one core), not {share}")
        self.share = share
        self._clock = clock
        self._sleep = sleep
        self._next_start = [float("-inf")] * max(1, lanes)
        self._free: asyncio.Queue[int] = asyncio.Queue()
        for lane in range(len(self._next_start)):
            self._free.put_nowait(lane)

    @asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        """Wait for a free lane and for its next start time, then time the work done in the block."""
        lane = await self._free.get()
        try:
            wait = self._next_start[lane] - self._clock()
            if wait > 0:
                await self._sleep(wait)
            started = self._clock()
            try:
                yield
            finally:
                self._next_start[lane] = started + (self._clock() - started) / self.share
        finally:
            self._free.put_nowait(lane)
