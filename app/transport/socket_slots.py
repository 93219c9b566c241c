"""Socket slots shared by every instance, so the caps per user and per address hold across a deployment.

Each capped key (a user, a client address) is a sorted set in Redis, ``<prefix>limit:sock:<kind>:<key>``:
one member per open socket (``<instance>:<n>``), scored by when it lapses. Taking a slot is one script that
drops lapsed members, checks every cap and adds the socket to all its keys, or to none. The instance that
holds a socket renews its slots every ``ttl / 3`` seconds; a killed instance renews nothing, so its slots
lapse after ``ttl`` seconds and no user or address is locked out by sockets that no longer exist.

Without Redis (the in-process hub) there is one instance, and ``SocketRegistry`` counts its own sockets.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
import uuid
from collections.abc import Callable

import redis.asyncio as aioredis

from app.background import BackgroundTask

log = logging.getLogger(__name__)

SLOT_TTL = 30.0  # seconds a slot lives without being renewed

# KEYS: the capped keys.  ARGV: now (ms), lapse (ms), ttl (ms), member, then one cap per key.
# Returns 0 when the member took a slot in every key, else the (1-based) index of the key that is full.
TAKE = """
local now, lapse, ttl, member = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  if redis.call('ZCARD', key) >= tonumber(ARGV[4 + i]) then return i end
end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, lapse, member)
  redis.call('PEXPIRE', key, ttl)
end
return 0
"""


class SharedSlots:
    """One instance's view of the shared slots: take, give back, and keep its own alive."""

    def __init__(self, redis: aioredis.Redis, prefix: str, ttl: float = SLOT_TTL, clock: Callable[[], float] = time.time) -> None:
        self.redis = redis
        self.prefix = prefix + "limit:sock:"
        self.ttl = ttl
        self.clock = clock
        self._take = redis.register_script(TAKE)
        self._instance = uuid.uuid4().hex[:12]
        self._numbers = itertools.count(1)
        self._held: dict[str, list[str]] = {}  # member -> its keys
        self._renewer = BackgroundTask("socket-slots")

    def key(self, kind: str, value: str | int) -> str:
        return f"{self.prefix}{kind}:{value}"

    async def take(self, caps: list[tuple[str, int]]) -> str | None:
        """A slot under every ``(key, cap)``: its member name, or None when one of the keys is full."""
        member = f"{self._instance}:{next(self._numbers)}"
        if not caps:
            return member
        now = self.clock()
        keys = [key for key, _ in caps]
        full = await self._take(
            keys=keys,
            args=[int(now * 1000), int((now + self.ttl) * 1000), int(self.ttl * 1000), member, *(cap for _, cap in caps)],
        )
        if int(full):
            return None
        self._held[member] = keys
        return member

    async def give_back(self, member: str) -> None:
        keys = self._held.pop(member, None)
        if not keys:
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.zrem(key, member)
            await pipe.execute()

    async def renew(self) -> None:
        """Push the lapse of every slot this instance holds ``ttl`` seconds on (and put back any lost in a
        flush of Redis)."""
        if not self._held:
            return
        lapse = int((self.clock() + self.ttl) * 1000)
        async with self.redis.pipeline(transaction=False) as pipe:
            for member, keys in list(self._held.items()):
                for key in keys:
                    pipe.zadd(key, {member: lapse})
                    pipe.pexpire(key, int(self.ttl * 1000))
            await pipe.execute()

    def start(self) -> None:
        self._renewer.start(self._renew_loop())

    async def close(self) -> None:
        await self._renewer.close()

    async def _renew_loop(self) -> None:
        while True:
            await asyncio.sleep(self.ttl / 3)
            try:
                await self.renew()
            except Exception:  # renewed on the next round, well before the slots lapse
                log.warning("socket slots could not be renewed", exc_info=True)
