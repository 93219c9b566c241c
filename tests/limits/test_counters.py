"""Windowed counters and remembered values, in memory and in Redis (shared by every instance)."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aioredis

from app.limits.counters import Counters, MemoryCounters, RedisCounters
from app.limits.rules import Limiter, Rule
from tests.support.hubs import delete_prefix
from tests.support.fake_clock import FakeClock
from tests.support.services import REDIS_URL, need_redis


Stores = tuple[Counters, Counters, FakeClock]
"""What ``stores`` gives: two stores sharing their counts, and the clock they count by."""


@pytest.fixture(params=["memory", "redis"])
async def stores(request: pytest.FixtureRequest) -> AsyncIterator[Stores]:
    """Two stores that share their counts (two instances), and the clock they count by."""
    clock = FakeClock(1000.0)
    if request.param == "memory":
        store = MemoryCounters(clock)
        yield store, store, clock
        return
    need_redis()
    prefix = f"tengen-test-{uuid.uuid4().hex}:"
    clients = [aioredis.Redis.from_url(REDIS_URL), aioredis.Redis.from_url(REDIS_URL)]
    yield RedisCounters(clients[0], prefix, clock), RedisCounters(clients[1], prefix, clock), clock
    await delete_prefix(prefix)
    for client in clients:
        await client.aclose()


async def test_a_limit_holds_across_instances_and_resets_with_the_window(stores: Stores) -> None:
    first, second, clock = stores
    limiter_a, limiter_b = Limiter(first), Limiter(second)
    rule = Rule("test", 3, 10)
    answers = [await (limiter_a if i % 2 else limiter_b).allow(rule, "u1") for i in range(5)]
    assert answers == [True, True, True, False, False]
    assert await limiter_a.allow(rule, "u2")  # another key counts on its own
    clock.advance(10)
    assert await limiter_b.allow(rule, "u1")


async def test_the_windows_of_different_keys_turn_at_different_moments(stores: Stores) -> None:
    """Users held at a limit are not all let through at the same moment: each key's windows are shifted by a
    phase of its own, the same on every instance."""
    first, second, clock = stores
    limiter_a, limiter_b = Limiter(first), Limiter(second)
    rule = Rule("spread", 1, 10)
    users = [f"u{i}" for i in range(40)]
    for user in users:
        assert await limiter_a.allow(rule, user)
        assert not await limiter_b.allow(rule, user)  # one window, whichever instance counts
    let_through = []
    for _ in range(10):
        clock.advance(1)
        let_through.append(sum([await limiter_b.allow(rule, user) for user in users]))
    assert sum(let_through) == len(users)  # within one window's length, each user's window has turned once
    assert max(let_through) < len(users) // 2  # spread over it, not all at one moment


async def test_repeats_are_recognised_until_they_expire(stores: Stores) -> None:
    first, second, clock = stores
    a, b = Limiter(first), Limiter(second)
    assert not await a.repeated("chat", 1, "hello", 30)
    assert await b.repeated("chat", 1, "hello", 30)
    assert not await b.repeated("chat", 1, "bye", 30)
    assert not await a.repeated("chat", 2, "bye", 30)
    if isinstance(first, MemoryCounters):
        clock.advance(31)
        assert not await a.repeated("chat", 1, "bye", 30)


async def test_no_limit_when_the_limit_is_zero() -> None:
    limiter = Limiter(MemoryCounters())
    assert all([await limiter.allow(Rule("off", 0, 1), "k") for _ in range(100)])


def test_counters_are_an_interface() -> None:
    with pytest.raises(TypeError):
        Counters()  # type: ignore[abstract]  # what is checked: the interface cannot be made
