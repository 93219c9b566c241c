"""What only RedisHub has to survive: dead instances, dropped connections, lost keys."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import orjson
import pytest

from app.transport.codec import encode
from app.games.live.channel import deadline_key, game_channel, game_of_deadline
from app.games.live.presence import Presence, presence
from app.transport.redis_hub import RedisHub
from tests.support.collect import RESET, WAIT, Collector
from tests.support.hubs import delete_prefix
from tests.support.services import REDIS_URL

REPO = Path(__file__).resolve().parents[2]
CH = game_channel(42)
TTL = 1.5  # presence expiry in these tests: heartbeats every 0.5 s, so a stall of up to 1 s is survived

CHILD = """
import asyncio, sys
from app.transport.redis_hub import RedisHub

async def main():
    hub = RedisHub(sys.argv[1], prefix=sys.argv[2], presence_ttl=float(sys.argv[3]))
    await hub.start()
    await hub.join(sys.argv[4], "doomed-1", "B", 1)
    await hub.join(sys.argv[4], "doomed-2", "spectator", 9)
    print("ready", flush=True)
    await asyncio.sleep(3600)

asyncio.run(main())
"""


async def eventually(check: Callable[[], Awaitable[bool]], timeout: float = WAIT) -> None:
    """Wait (bounded) until the async predicate holds."""

    async def loop() -> None:
        while not await check():
            await asyncio.sleep(0.05)

    await asyncio.wait_for(loop(), timeout)


@pytest.fixture
async def hubs(redis_prefix):
    started: list[RedisHub] = []

    async def make(**options: Any) -> RedisHub:
        hub = RedisHub(REDIS_URL, prefix=redis_prefix, **options)
        await hub.start()
        started.append(hub)
        return hub

    yield make
    for hub in started:
        await hub.close()


async def test_a_killed_instance_stops_counting(hubs, redis_prefix):
    survivor = await hubs(presence_ttl=TTL)
    await survivor.join(CH, "alive-1", "W", 2)
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        CHILD,
        REDIS_URL,
        redis_prefix,
        str(TTL),
        CH,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        stdout=asyncio.subprocess.PIPE,
    )
    try:
        assert child.stdout is not None
        assert await asyncio.wait_for(child.stdout.readline(), WAIT) == b"ready\n"
        full = Presence({"B": True, "W": True}, 1)
        assert await presence(survivor, CH) == full
        await asyncio.sleep(3 * TTL)  # several expiry periods: heartbeats keep both instances present
        assert await presence(survivor, CH) == full
    finally:
        child.kill()
        await child.wait()

    async def doomed_gone() -> bool:
        return await presence(survivor, CH) == Presence({"B": False, "W": True}, 0)

    await eventually(doomed_gone)
    await asyncio.sleep(2 * TTL)
    assert await presence(survivor, CH) == Presence({"B": False, "W": True}, 0)


async def test_a_dropped_pubsub_connection_reconnects_and_resets_subscribers(hubs, redis_client):
    hub = await hubs()
    publisher = await hubs()
    seen, other = Collector(), Collector()
    await hub.subscribe(CH, seen, on_reset=seen.reset)
    await hub.subscribe(game_channel(43), other, on_reset=other.reset)
    await publisher.publish(CH, b"before")
    await seen.wait_count(1)

    mine = [c for c in await redis_client.client_list() if c["name"] == hub.client_name]
    assert len(mine) == 1
    await redis_client.client_kill_filter(_id=mine[0]["id"])

    await seen.wait_item(RESET)
    await other.wait_item(RESET)
    await publisher.publish(CH, b"after")
    await publisher.publish(game_channel(43), b"after-43")
    await seen.wait_item(b"after")
    await other.wait_item(b"after-43")
    assert seen.items == [b"before", RESET, b"after"]
    assert other.items == [RESET, b"after-43"]

    # Subscriptions still come and go normally on the new connection.
    late = Collector()
    await hub.subscribe(game_channel(44), late)
    await publisher.publish(game_channel(44), b"late")
    await late.wait_count(1)


async def test_losing_every_key_is_survived(hubs, redis_prefix):
    hub = await hubs(presence_ttl=TTL)
    peer = await hubs(presence_ttl=TTL)
    lost = asyncio.Event()
    hub.on_state_lost(lost.set)
    peer.on_state_lost(lost.set)
    seen = Collector()
    await peer.subscribe(CH, seen)
    for v in (1, 2, 3):
        await hub.publish(CH, encode({"v": v}), v=v)
    await hub.join(CH, "c1", "B", 1)
    await peer.join(CH, "c2", "spectator", None)
    await hub.set_deadline("g1", 10.0)

    await delete_prefix(redis_prefix)  # as a FLUSHALL or a restart without persistence would

    assert await hub.replay(CH, 0) is None
    assert await hub.replay(CH, 3) is None
    await asyncio.wait_for(lost.wait(), WAIT)

    async def presence_restored() -> bool:
        return await presence(peer, CH) == Presence({"B": True, "W": False}, 1)

    await eventually(presence_restored)

    assert await hub.publish(CH, encode({"v": 4}), v=4) is True
    await seen.wait_count(4)
    assert seen.items[-1] == encode({"v": 4})
    assert await peer.replay(CH, 3) == [encode({"v": 4})]
    assert await peer.replay(CH, 2) is None
    # Deadlines are gone until the application re-registers them from the database.
    assert await hub.claim_due(100.0) == []


async def test_a_burst_of_publishes_waits_for_a_connection_instead_of_failing(hubs):
    """More commands at one moment than the hub's pool holds connections: each waits its turn.

    Twenty games moving at one moment on one instance ran out of redis-py's pool (100 connections, then
    MaxConnectionsError at once), and the lobby's "your turn" messages of that burst were lost."""
    sender, receiver = await hubs(), await hubs()
    got = Collector()
    await receiver.subscribe("lobby-burst", got)
    burst = 600
    results = await asyncio.gather(
        *(sender.publish("lobby-burst", encode({"n": n})) for n in range(burst)), return_exceptions=True
    )
    assert [r for r in results if r is not True] == []
    await got.wait_for(lambda items: len(items) >= burst)
    assert sorted(orjson.loads(item)["n"] for item in got.items) == list(range(burst))


async def test_a_game_keeps_the_redis_keys_it_had_before_the_hub_knew_no_game(hubs, redis_client, redis_prefix):
    # A running deployment upgrades in place: its logs, presence and clock deadlines are found under the same
    # keys (a game's channel ``game:<id>``, its deadline the bare id in ``deadlines``/``deadline_versions``).
    hub = await hubs()
    await hub.set_deadline(deadline_key(42), 1234.5, 3)
    assert await redis_client.zscore(f"{redis_prefix}deadlines", "42") == 1234.5
    assert await redis_client.hget(f"{redis_prefix}deadline_versions", "42") == b"3"
    assert await hub.claim_due(1235.0) == ["42"] and game_of_deadline("42") == "42"
    await hub.publish(game_channel(42), b"x", v=1)
    assert await redis_client.exists(f"{redis_prefix}log:game:42") == 1
