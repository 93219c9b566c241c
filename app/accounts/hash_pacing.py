"""Pacing of password hashes: on average a hashing worker uses at most ``share`` of one core.

One worker at nice +10 running hash after hash under a log-in flood takes a whole core; on a small host that
core is one the database and the server need, and every game's moves wait for it. Niceness alone does not
prevent that: it puts the worker behind the server's own process, but the database's backends are other
processes (often in another scheduling group) and, measured under a flood, waited for a core while the worker
hashed. So each worker is given a duty cycle as well: after a hash that took ``d`` seconds, the next hash on
that worker starts no earlier than ``d / share`` seconds after that one started. A request waiting for its
turn waits here, on the event loop's timer, holding its place in the pool's queue as if it were waiting for
the worker.

``d`` is the CPU time the worker spent on the hash, when the work reports it (``Turn.seconds``; the pool
measures it in the worker), so neither the worker's start nor waiting for a core counts as hashing; otherwise
the time the turn lasted on the pacer's clock (never less than the CPU time). ``share`` 1 means no pacing (a worker never starts
a hash before the last one ended anyway).

The clock and the sleep are given, so that the delays asked for can be checked without waiting for them.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass


@dataclass
class Turn:
    """One hash's turn on a worker: ``seconds`` is what the hash cost, if the work tells."""

    seconds: float | None = None


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
    async def turn(self) -> AsyncIterator[Turn]:
        """Wait for a free lane and for its next start time; the work done in the block paces the next."""
        lane = await self._free.get()
        try:
            wait = self._next_start[lane] - self._clock()
            if wait > 0:
                await self._sleep(wait)
            started = self._clock()
            turn = Turn()
            try:
                yield turn
            finally:
                took = turn.seconds if turn.seconds is not None else self._clock() - started
                self._next_start[lane] = started + took / self.share
        finally:
            self._free.put_nowait(lane)
