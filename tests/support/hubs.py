"""Hub fixtures: every test taking ``make_hub`` or ``hub`` runs against MemoryHub and RedisHub. The conftest of each
folder whose tests take them imports them from here (tests/transport, tests/games/live, tests/reviews/live,
tests/lobby, tests/automatch).

Redis tests use a unique key prefix each and delete their keys afterwards (the Redis is shared).
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
import redis.asyncio as aioredis

from app.transport.hub import Hub
from app.transport.memory_hub import MemoryHub
from app.transport.redis_hub import RedisHub
from tests.support.services import REDIS_URL, need_redis


async def delete_prefix(prefix: str) -> None:
    client = aioredis.Redis.from_url(REDIS_URL)
    try:
        keys = [key async for key in client.scan_iter(match=prefix + "*", count=500)]
        if keys:
            await client.delete(*keys)
    finally:
        await client.aclose()


@pytest.fixture
async def redis_prefix() -> AsyncIterator[str]:
    need_redis()
    prefix = f"tengen-test-{uuid.uuid4().hex}:"
    yield prefix
    await delete_prefix(prefix)


@pytest.fixture
async def redis_client() -> AsyncIterator[aioredis.Redis]:
    need_redis()
    client = aioredis.Redis.from_url(REDIS_URL)
    yield client
    await client.aclose()


class HubMaker:
    """Starts hubs of one kind that share state (one Redis prefix); closes them all at the end."""

    def __init__(self, kind: str, prefix: str) -> None:
        self.kind = kind
        self.prefix = prefix
        self.hubs: list[Hub] = []

    async def __call__(self, **options: Any) -> Hub:
        if self.kind == "memory":
            options.pop("presence_ttl", None)
            hub: Hub = MemoryHub(**options)
        else:
            hub = RedisHub(REDIS_URL, prefix=self.prefix, **options)
        await hub.start()
        self.hubs.append(hub)
        return hub

    async def peer(self, hub: Hub) -> Hub:
        """Another instance sharing ``hub``'s state: a second RedisHub, or the same MemoryHub."""
        if self.kind == "memory":
            return hub
        assert isinstance(hub, RedisHub)
        return await self(log_size=hub.log_size)

    async def close(self) -> None:
        for hub in self.hubs:
            await hub.close()


@pytest.fixture(params=["memory", "redis"])
async def make_hub(request: pytest.FixtureRequest) -> AsyncIterator[HubMaker]:
    prefix = ""
    if request.param == "redis":
        need_redis()
        prefix = f"tengen-test-{uuid.uuid4().hex}:"
    maker = HubMaker(request.param, prefix)
    try:
        yield maker
    finally:
        await maker.close()
        if prefix:
            await delete_prefix(prefix)


@pytest.fixture
async def hub(make_hub: HubMaker) -> Hub:
    return await make_hub()
