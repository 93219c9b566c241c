"""The seek pool, in-process and on Redis: one seek per user, exact compare-and-delete, atomic pair claims."""

from __future__ import annotations

import asyncio
import itertools
import uuid
from collections.abc import AsyncIterator, Callable

import pytest
import redis.asyncio as aioredis

from app.automatch.pool import MemorySeekPool, RedisSeekPool, SeekPool
from tests.support.hubs import delete_prefix
from tests.support.services import REDIS_URL, need_redis


@pytest.fixture(params=["memory", "redis"])
async def pools(request: pytest.FixtureRequest) -> AsyncIterator[Callable[[], SeekPool]]:
    """A factory of pools sharing one state (two "instances" on Redis; one object in memory)."""
    if request.param == "memory":
        pool = MemorySeekPool()
        yield lambda: pool
        return
    need_redis()
    prefix = f"tengen-test-{uuid.uuid4().hex}:"
    clients: list[aioredis.Redis] = []

    def make() -> SeekPool:
        client = aioredis.Redis.from_url(REDIS_URL)
        clients.append(client)
        return RedisSeekPool(client, prefix)

    yield make
    for client in clients:
        await client.aclose()
    await delete_prefix(prefix)


async def test_one_seek_per_user_and_withdraw_only_the_same_seek(pools: Callable[[], SeekPool]) -> None:
    pool = pools()
    await pool.put(1, b"first")
    await pool.put(1, b"second")
    await pool.put(2, b"other")
    assert await pool.waiting() == {1: b"second", 2: b"other"} and await pool.count() == 2
    assert not await pool.withdraw(1, b"first")
    assert await pool.withdraw(1, b"second")
    assert await pool.waiting() == {2: b"other"}


async def test_a_claim_takes_both_exact_seeks_or_nothing(pools: Callable[[], SeekPool]) -> None:
    pool = pools()
    await pool.put(1, b"a")
    await pool.put(2, b"b")
    assert not await pool.claim((1, b"a"), (2, b"stale"), 10.0)
    assert not await pool.claim((1, b"a"), (1, b"a"), 10.0)
    assert await pool.count() == 2
    assert await pool.claim((1, b"a"), (2, b"b"), 10.0)
    assert await pool.waiting() == {}
    status = await pool.status([1, 2, 3])
    assert status[1].claimed == b"a" and status[1].claimed_at == 10.0 and status[1].waiting is None
    assert status[3].claimed is None and status[3].waiting is None
    assert not await pool.claim((1, b"a"), (2, b"b"), 11.0)  # already taken
    await pool.release(1, b"not it")
    assert (await pool.status([1]))[1].claimed == b"a"
    await pool.release(1, b"a")
    assert (await pool.status([1]))[1].claimed is None


async def test_racing_claims_from_two_instances_never_take_one_seek_twice(pools: Callable[[], SeekPool]) -> None:
    first, second = pools(), pools()
    users = list(range(1, 41))
    for user in users:
        await first.put(user, f"seek-{user}".encode())
    attempts = [((a, f"seek-{a}".encode()), (b, f"seek-{b}".encode())) for a, b in itertools.combinations(users, 2)]
    gate = asyncio.Semaphore(20)

    async def claim(n: int, a: tuple[int, bytes], b: tuple[int, bytes]) -> bool:
        async with gate:
            return await (first if n % 2 else second).claim(a, b, 1.0)

    results = await asyncio.gather(*(claim(n, a, b) for n, (a, b) in enumerate(attempts[:400])))
    won = [pair for pair, ok in zip(attempts, results) if ok]
    taken = [user for (a, _), (b, _) in won for user in (a, b)]
    assert len(taken) == len(set(taken)) and won


async def test_heartbeats_say_which_instances_are_alive(pools: Callable[[], SeekPool]) -> None:
    pool = pools()
    await pool.heartbeat("here", 5.0)
    alive = await pool.alive({"here", "gone"})
    assert "here" in alive
    if isinstance(pool, RedisSeekPool):
        assert alive == {"here"}


async def test_bots_marked_present_are_seen_from_every_instance_until_it_expires(pools: Callable[[], SeekPool]) -> None:
    first, second = pools(), pools()
    await first.mark_present({7, 8}, 5.0)
    await first.mark_present({9}, 0.05)
    assert await second.present({7, 8, 9, 10}) >= {7, 8}
    await asyncio.sleep(0.2)
    assert await second.present({7, 8, 9, 10}) == {7, 8}
