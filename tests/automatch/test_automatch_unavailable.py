"""The automatch service when its pool misbehaves: a lost seek is placed again; an unreachable pool ends the
search with a message rather than leaving the player waiting for nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any, NoReturn

import pytest
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.automatch.pool import MemorySeekPool
from app.automatch.preferences import SeekPreferences
from app.automatch.service import UNAVAILABLE_GRACE, Automatch
from app.errors import ServiceError
from app.lobby.live.broadcaster import MemoryLobbyBroadcaster
from app.store.models import User
from app.store.repositories import users
from app.transport.memory_hub import MemoryHub
from tests.support.fake_clock import FakeClock


class FlakyPool(MemorySeekPool):
    """A pool that can be cut off (every call fails, like a Redis that went away) and emptied (a flush)."""

    def __init__(self) -> None:
        super().__init__()
        self.down = False

    def __getattribute__(self, name: str) -> Any:
        attribute = super().__getattribute__(name)
        if name in ("put", "withdraw", "waiting", "count", "claim", "release", "status", "heartbeat", "alive"):
            if super().__getattribute__("down"):

                async def fail(*_args: object, **_kwargs: object) -> NoReturn:
                    raise ConnectionError("pool unreachable")

                return fail
        return attribute

    def flush(self) -> None:
        self._waiting.clear()
        self._claimed.clear()


Setup = tuple[Automatch, FlakyPool, MemoryLobbyBroadcaster, FakeClock, User]
"""What ``setup`` gives: the service, its pool, the lobby, the clock and a guest."""


@pytest.fixture
async def setup(db_sessionmaker: async_sessionmaker[AsyncSession]) -> AsyncIterator[Setup]:
    async with db_sessionmaker() as session:
        ana = await users.add_guest(session, "Guest-ana1", "guest-ana1")
        await session.commit()
    pool, lobby, clock = FlakyPool(), MemoryLobbyBroadcaster(), FakeClock(1_000_000.0)
    automatch = Automatch(pool, lobby, db_sessionmaker, hub=MemoryHub(), clock=clock)
    yield automatch, pool, lobby, clock, ana
    await automatch.close()


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_a_seek_lost_from_the_pool_is_placed_again(setup: Setup) -> None:
    automatch, pool, lobby, clock, ana = setup
    async with lobby.subscribe(ana.id) as inbox:
        seeker = await automatch.seek(ana, SeekPreferences(sizes=[9]))
        assert (await inbox.get())["t"] == "seeking"
        pool.flush()
        clock.advance(1)
        await automatch.tick()
        waiting = await pool.waiting()
        assert list(waiting) == [ana.id] and seeker.seek_id.encode() in waiting[ana.id]
        assert automatch.seeking(ana.id) == seeker


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_an_unreachable_pool_tells_the_player_to_search_again(setup: Setup) -> None:
    automatch, pool, lobby, clock, ana = setup
    async with lobby.subscribe(ana.id) as inbox:
        await automatch.seek(ana, SeekPreferences(sizes=[9]))
        assert (await inbox.get())["t"] == "seeking"
        pool.down = True
        await automatch.tick()
        clock.advance(UNAVAILABLE_GRACE / 2)
        await automatch.tick()
        assert automatch.seeking(ana.id) is not None  # a short outage is waited out
        clock.advance(UNAVAILABLE_GRACE)
        await automatch.tick()
        assert await inbox.get() == {"t": "seek_cancelled", "reason": "unavailable"}
        assert automatch.seeking(ana.id) is None
        with pytest.raises(ServiceError) as refused:  # and a new seek says so at once
            await automatch.seek(ana, SeekPreferences(sizes=[9]))
        assert refused.value.code == "unavailable"
