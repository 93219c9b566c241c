"""Windowed counters and remembered values, the storage behind every rate limit.

``MemoryCounters`` serves one instance; ``RedisCounters`` shares the counts between all the instances of a
deployment, so a limit (log-in attempts, chat lines) holds however the requests are spread over them. Both
count in fixed windows: ``hit(key, window)`` adds to the count of the window ``now`` falls in and returns it.

Each key's windows are shifted by a phase of their own (``phase``, the same on every instance): were they all
to turn at the same moments, every user held at a limit would be let through again at once. 40 users chatting
at the limit would each have their next lines accepted at the same instant, 80 commits arriving together every
10 s that the players' moves queue behind; shifted, they spread over the window.
"""

from __future__ import annotations

import time
import zlib
from abc import ABC, abstractmethod
from collections.abc import Callable

import redis.asyncio as aioredis

Clock = Callable[[], float]
MEMORY_SWEEP_EVERY = 1024  # hits between two sweeps of expired memory counters


def phase(key: str, window: float) -> float:
    """How far ``key``'s windows are shifted, in ``[0, window)``: drawn from the key (CRC-32, so that every
    instance and process finds the same), in thousandths of the window."""
    return zlib.crc32(key.encode()) % 1000 / 1000 * window


def window_of(key: str, window: float, now: float) -> tuple[int, float]:
    """The number of ``key``'s window that ``now`` falls in, and the moment that window ends."""
    shift = phase(key, window)
    number = int((now + shift) // window)
    return number, (number + 1) * window - shift


class Counters(ABC):
    @abstractmethod
    async def hit(self, key: str, window: float, cost: int = 1) -> int:
        """Add ``cost`` to ``key``'s count in the current ``window``-second window; the new count."""

    @abstractmethod
    async def swap(self, key: str, value: str, ttl: float) -> str | None:
        """Remember ``value`` under ``key`` for ``ttl`` seconds; the value it replaced (None: none or expired)."""


class MemoryCounters(Counters):
    def __init__(self, clock: Clock = time.monotonic) -> None:
        self.clock = clock
        self._counts: dict[str, tuple[float, int]] = {}  # key -> (window end, count)
        self._values: dict[str, tuple[float, str]] = {}  # key -> (expiry, value)
        self._hits = 0

    async def hit(self, key: str, window: float, cost: int = 1) -> int:
        now = self.clock()
        self._sweep(now)
        end, count = self._counts.get(key, (0.0, 0))
        if now >= end:
            end, count = window_of(key, window, now)[1], 0
        count += cost
        self._counts[key] = (end, count)
        return count

    async def swap(self, key: str, value: str, ttl: float) -> str | None:
        now = self.clock()
        self._sweep(now)
        expiry, previous = self._values.get(key, (0.0, None))
        self._values[key] = (now + ttl, value)
        return previous if now < expiry else None

    def _sweep(self, now: float) -> None:
        self._hits += 1
        if self._hits % MEMORY_SWEEP_EVERY:
            return
        self._counts = {k: item for k, item in self._counts.items() if item[0] > now}
        self._values = {k: item for k, item in self._values.items() if item[0] > now}


# KEYS[1]: the counter; ARGV: cost, window in milliseconds. The first hit of a window sets its expiry.
_HIT = """
local count = redis.call('INCRBY', KEYS[1], ARGV[1])
if count == tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return count
"""


class RedisCounters(Counters):
    """Counters under ``<prefix>limit:``; the window's number is part of the key, so windows never overlap."""

    def __init__(self, redis: aioredis.Redis, prefix: str, clock: Clock = time.time) -> None:
        self.redis = redis
        self.prefix = prefix + "limit:"
        self.clock = clock
        self._hit = redis.register_script(_HIT)

    async def hit(self, key: str, window: float, cost: int = 1) -> int:
        slot, _ = window_of(key, window, self.clock())
        return int(await self._hit(keys=[f"{self.prefix}{key}:{slot}"], args=[cost, int(window * 1000) + 1000]))

    async def swap(self, key: str, value: str, ttl: float) -> str | None:
        previous = await self.redis.set(f"{self.prefix}{key}", value, px=int(ttl * 1000), get=True)
        if isinstance(previous, bytes):
            return previous.decode()
        return previous if isinstance(previous, str) else None


def make_counters(redis: aioredis.Redis | None, prefix: str) -> Counters:
    """Shared counters on the hub's Redis when there is one, else this instance's own."""
    return MemoryCounters() if redis is None else RedisCounters(redis, prefix)
