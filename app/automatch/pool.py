"""The automatch seek pool shared by every instance: waiting seeks, and atomic claims of two at once.

A seek is stored under its user's id (one seek per person) as opaque bytes written by its owner; the pool
never interprets them. ``claim`` takes two seeks out of the waiting set in one atomic step, and only if both
are still exactly the seeks the caller read, so two instances can never pair the same seek. A claimed seek
is kept aside with the time of its claim until the claimer ``release``s it (once the game exists, or the
pair fell through); a claim left behind by a claimer that died is found by its age (see ``status``).

``MemorySeekPool`` serves one process (the embedded default); ``RedisSeekPool`` shares one Redis with the
hub, in the keys ``<prefix>seeks``, ``<prefix>seeks:claimed`` and ``<prefix>seeks:claimed_at``, plus a
heartbeat ``<prefix>seeks:instance:<id>`` per instance: the seeks of an instance that died are never paired
(their players' sockets died with it); and ``<prefix>seeks:present:<user id>`` for each house bot with a lobby
socket open somewhere (only those are offered to players who waited long).
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from dataclasses import dataclass

import redis.asyncio as aioredis

from app.transport.hub import Hub
from app.transport.redis_hub import RedisHub

# KEYS: seeks, claimed, claimed_at.  ARGV: user a, seek a, user b, seek b, now.  1 when both were taken.
CLAIM_PAIR = """
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] or redis.call('HGET', KEYS[1], ARGV[3]) ~= ARGV[4] then
  return 0
end
redis.call('HDEL', KEYS[1], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2], ARGV[3], ARGV[4])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[5], ARGV[3], ARGV[5])
return 1
"""

# KEYS: a hash, and optionally a second hash to clear the same field from.  ARGV: user, seek.
# Deletes the field only when it still holds exactly this seek; 1 when it did.
DELETE_IF_SAME = """
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
if KEYS[2] then redis.call('HDEL', KEYS[2], ARGV[1]) end
return 1
"""


@dataclass(frozen=True)
class SeekStatus:
    """Where one user's seek stands: ``waiting`` holds the waiting seek's bytes, ``claimed`` a claimed one's."""

    waiting: bytes | None = None
    claimed: bytes | None = None
    claimed_at: float | None = None


class SeekPool(ABC):
    @abstractmethod
    async def put(self, user_id: int, seek: bytes) -> None:
        """Place ``seek`` as ``user_id``'s waiting seek, replacing any earlier one."""

    @abstractmethod
    async def withdraw(self, user_id: int, seek: bytes) -> bool:
        """Remove ``user_id``'s waiting seek if it is still ``seek``; True when it was removed."""

    @abstractmethod
    async def waiting(self) -> dict[int, bytes]:
        """Every waiting seek, by user id."""

    @abstractmethod
    async def count(self) -> int:
        """How many seeks are waiting."""

    @abstractmethod
    async def claim(self, a: tuple[int, bytes], b: tuple[int, bytes], now: float) -> bool:
        """Atomically move both seeks from waiting to claimed, only if both are still waiting unchanged."""

    @abstractmethod
    async def release(self, user_id: int, seek: bytes) -> None:
        """Forget ``user_id``'s claimed seek if it is still ``seek``."""

    @abstractmethod
    async def status(self, user_ids: list[int]) -> dict[int, SeekStatus]:
        """Where each user's seek stands (an empty ``SeekStatus`` when the pool holds nothing of theirs)."""

    @abstractmethod
    async def heartbeat(self, instance: str, ttl: float) -> None:
        """Say that ``instance`` is alive for the next ``ttl`` seconds (its seeks may be paired)."""

    @abstractmethod
    async def alive(self, instances: set[str]) -> set[str]:
        """Those of ``instances`` whose heartbeat has not run out (seeks of the others are never paired)."""

    @abstractmethod
    async def mark_present(self, user_ids: set[int], ttl: float) -> None:
        """Say that these users (bots) have a lobby socket open for the next ``ttl`` seconds."""

    @abstractmethod
    async def present(self, user_ids: set[int]) -> set[int]:
        """Those of ``user_ids`` marked present and not expired, on any instance."""


class MemorySeekPool(SeekPool):
    """One process: nothing awaits between a check and its change, so every method is atomic."""

    def __init__(self) -> None:
        self._waiting: dict[int, bytes] = {}
        self._claimed: dict[int, tuple[bytes, float]] = {}
        self._present: dict[int, float] = {}

    async def put(self, user_id: int, seek: bytes) -> None:
        self._waiting[user_id] = seek

    async def withdraw(self, user_id: int, seek: bytes) -> bool:
        if self._waiting.get(user_id) != seek:
            return False
        del self._waiting[user_id]
        return True

    async def waiting(self) -> dict[int, bytes]:
        return dict(self._waiting)

    async def count(self) -> int:
        return len(self._waiting)

    async def claim(self, a: tuple[int, bytes], b: tuple[int, bytes], now: float) -> bool:
        if a[0] == b[0] or self._waiting.get(a[0]) != a[1] or self._waiting.get(b[0]) != b[1]:
            return False
        for user_id, seek in (a, b):
            del self._waiting[user_id]
            self._claimed[user_id] = (seek, now)
        return True

    async def release(self, user_id: int, seek: bytes) -> None:
        held = self._claimed.get(user_id)
        if held is not None and held[0] == seek:
            del self._claimed[user_id]

    async def status(self, user_ids: list[int]) -> dict[int, SeekStatus]:
        result = {}
        for user_id in user_ids:
            held = self._claimed.get(user_id)
            result[user_id] = SeekStatus(
                waiting=self._waiting.get(user_id),
                claimed=held[0] if held else None,
                claimed_at=held[1] if held else None,
            )
        return result

    async def heartbeat(self, instance: str, ttl: float) -> None:
        return None

    async def alive(self, instances: set[str]) -> set[str]:
        return set(instances)  # one process: every seek's instance is this one

    async def mark_present(self, user_ids: set[int], ttl: float) -> None:
        until = time.monotonic() + ttl
        for user_id in user_ids:
            self._present[user_id] = until

    async def present(self, user_ids: set[int]) -> set[int]:
        now = time.monotonic()
        return {user_id for user_id in user_ids if self._present.get(user_id, 0.0) > now}


class RedisSeekPool(SeekPool):
    """Any number of instances on one Redis; claims are one Lua script, so they are atomic across them."""

    def __init__(self, redis: aioredis.Redis, prefix: str) -> None:
        self.redis = redis
        self.key = f"{prefix}seeks"
        self.claimed_key = f"{prefix}seeks:claimed"
        self.claimed_at_key = f"{prefix}seeks:claimed_at"
        self.instance_prefix = f"{prefix}seeks:instance:"
        self.present_prefix = f"{prefix}seeks:present:"
        self._claim = redis.register_script(CLAIM_PAIR)
        self._delete_if_same = redis.register_script(DELETE_IF_SAME)

    async def put(self, user_id: int, seek: bytes) -> None:
        await self.redis.hset(self.key, str(user_id), seek)

    async def withdraw(self, user_id: int, seek: bytes) -> bool:
        return bool(await self._delete_if_same(keys=[self.key], args=[str(user_id), seek]))

    async def waiting(self) -> dict[int, bytes]:
        entries = await self.redis.hgetall(self.key)
        return {int(user_id): _bytes(seek) for user_id, seek in entries.items()}

    async def count(self) -> int:
        return int(await self.redis.hlen(self.key))

    async def claim(self, a: tuple[int, bytes], b: tuple[int, bytes], now: float) -> bool:
        if a[0] == b[0]:
            return False
        done = await self._claim(
            keys=[self.key, self.claimed_key, self.claimed_at_key],
            args=[str(a[0]), a[1], str(b[0]), b[1], repr(float(now))],
        )
        return bool(done)

    async def release(self, user_id: int, seek: bytes) -> None:
        await self._delete_if_same(keys=[self.claimed_key, self.claimed_at_key], args=[str(user_id), seek])

    async def status(self, user_ids: list[int]) -> dict[int, SeekStatus]:
        if not user_ids:
            return {}
        pipe = self.redis.pipeline(transaction=False)
        for user_id in user_ids:
            pipe.hget(self.key, str(user_id))
            pipe.hget(self.claimed_key, str(user_id))
            pipe.hget(self.claimed_at_key, str(user_id))
        values = await pipe.execute()
        result = {}
        for n, user_id in enumerate(user_ids):
            waiting, claimed, claimed_at = values[3 * n : 3 * n + 3]
            result[user_id] = SeekStatus(
                waiting=waiting, claimed=claimed, claimed_at=float(claimed_at) if claimed_at is not None else None
            )
        return result

    async def heartbeat(self, instance: str, ttl: float) -> None:
        await self.redis.set(self.instance_prefix + instance, b"1", px=max(int(ttl * 1000), 1))

    async def alive(self, instances: set[str]) -> set[str]:
        ordered = sorted(instances)
        if not ordered:
            return set()
        marks = await self.redis.mget([self.instance_prefix + instance for instance in ordered])
        return {instance for instance, mark in zip(ordered, marks) if mark is not None}

    async def mark_present(self, user_ids: set[int], ttl: float) -> None:
        if not user_ids:
            return
        pipe = self.redis.pipeline(transaction=False)
        for user_id in user_ids:
            pipe.set(f"{self.present_prefix}{user_id}", b"1", px=max(int(ttl * 1000), 1))
        await pipe.execute()

    async def present(self, user_ids: set[int]) -> set[int]:
        ordered = sorted(user_ids)
        if not ordered:
            return set()
        marks = await self.redis.mget([f"{self.present_prefix}{user_id}" for user_id in ordered])
        return {user_id for user_id, mark in zip(ordered, marks) if mark is not None}


def _bytes(value: bytes | str) -> bytes:
    return value if isinstance(value, bytes) else value.encode()


def make_seek_pool(hub: Hub) -> SeekPool:
    """The pool that matches the hub: Redis when the hub is Redis, in-process otherwise. The hub must be started."""
    if isinstance(hub, RedisHub):
        return RedisSeekPool(hub.redis, hub.prefix)
    return MemorySeekPool()
