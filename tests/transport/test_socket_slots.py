"""``SharedSlots`` on a real Redis: caps that hold for every instance, and slots that lapse with a dead one."""

from __future__ import annotations

import redis.asyncio as aioredis

from app.transport.socket_slots import SharedSlots
from tests.support.fake_clock import FakeClock


async def test_a_cap_holds_across_instances_and_a_slot_given_back_is_free_again(
    redis_client: aioredis.Redis, redis_prefix: str
) -> None:
    a, b = SharedSlots(redis_client, redis_prefix), SharedSlots(redis_client, redis_prefix)
    user = a.key("u", 7)
    held = [await a.take([(user, 3)]), await b.take([(user, 3)]), await a.take([(user, 3)])]
    assert all(held) and len(set(held)) == 3
    assert await b.take([(user, 3)]) is None and await a.take([(user, 3)]) is None
    assert held[1] is not None
    await b.give_back(held[1])
    assert await b.take([(user, 3)]) is not None


async def test_a_slot_is_taken_under_every_cap_or_none(redis_client: aioredis.Redis, redis_prefix: str) -> None:
    slots = SharedSlots(redis_client, redis_prefix)
    user, address = slots.key("u", 7), slots.key("a", "10.0.0.1")
    assert await slots.take([(address, 1)]) is not None  # someone else from the same address
    assert await slots.take([(address, 1), (user, 5)]) is None  # the address is full: the user takes nothing
    assert await redis_client.zcard(user) == 0


async def test_a_dead_instances_slots_lapse_and_a_live_ones_are_renewed(redis_client: aioredis.Redis, redis_prefix: str) -> None:
    clock = FakeClock(1_800_000_000.0)
    dead = SharedSlots(redis_client, redis_prefix, ttl=30, clock=clock)
    live = SharedSlots(redis_client, redis_prefix, ttl=30, clock=clock)
    user = live.key("u", 7)
    assert await dead.take([(user, 2)]) and await live.take([(user, 2)])
    clock.advance(20)
    await live.renew()  # the dead instance renews nothing
    assert await live.take([(user, 2)]) is None
    clock.advance(15)  # past the dead one's lapse, within the live one's renewed one
    assert await live.take([(user, 2)]) is not None
    assert await live.take([(user, 2)]) is None


async def test_renewing_puts_back_slots_lost_in_a_flush(redis_client: aioredis.Redis, redis_prefix: str) -> None:
    slots = SharedSlots(redis_client, redis_prefix)
    user = slots.key("u", 7)
    assert await slots.take([(user, 1)])
    await redis_client.delete(user)
    await slots.renew()
    assert await slots.take([(user, 1)]) is None
