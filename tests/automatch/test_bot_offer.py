"""A player nobody was found for is offered a house bot of similar strength: only after the documented wait,
only a bot that is connected and accepts such a game, and once a search."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.automatch.house_bots import BOT_OFFER_AFTER
from app.automatch.pool import MemorySeekPool
from app.automatch.preferences import SeekPreferences
from app.automatch.service import Automatch
from app.bots.declaration import BotAccepts
from app.lobby.live.broadcaster import LobbySubscription, MemoryLobbyBroadcaster
from app.lobby.schemas import ChallengeCreate
from app.store.models import User
from app.store.repositories import users
from app.transport.memory_hub import MemoryHub
from tests.support.fake_clock import FakeClock

pytestmark = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)


async def _add_bot(session: AsyncSession, name: str, owner_id: int | None = None, **accepts: Any) -> User:
    return await users.add_bot(session, name, name.lower(), owner_id, BotAccepts(**accepts).model_dump())


World = tuple[Automatch, MemoryLobbyBroadcaster, FakeClock, User, User, User, User]
"""What ``world`` gives: the service, the lobby, the clock, a guest and three bots (nine, big, owned)."""


@pytest.fixture
async def world(db_sessionmaker: async_sessionmaker[AsyncSession]) -> AsyncIterator[World]:
    async with db_sessionmaker() as session:
        ana = await users.add_guest(session, "Guest-ana2", "guest-ana2")
        nine = await _add_bot(session, "NineBot", board_sizes=[9], time_controls=["byoyomi"], min_move_seconds=5)
        big = await _add_bot(session, "BigBot", board_sizes=[19])
        owned = await _add_bot(session, "OwnedBot", owner_id=ana.id)
        await session.commit()
    lobby, clock = MemoryLobbyBroadcaster(), FakeClock(1_000_000.0)
    automatch = Automatch(MemorySeekPool(), lobby, db_sessionmaker, hub=MemoryHub(), clock=clock)
    yield automatch, lobby, clock, ana, nine, big, owned
    await automatch.close()


async def _messages(inbox: LobbySubscription) -> list[dict[str, Any]]:
    """Everything the player's socket would have received by now."""
    out: list[dict[str, Any]] = []
    while True:
        try:
            out.append(await asyncio.wait_for(inbox.get(), 0.05))
        except TimeoutError:
            return out


async def test_after_the_wait_a_connected_fitting_house_bot_is_offered_once(world: World) -> None:
    automatch, lobby, clock, ana, nine, big, owned = world
    for bot in (nine, big, owned):
        automatch.socket_opened(bot.id, f"bot-{bot.id}", bot=bot.owner_id is None)
    async with lobby.subscribe(ana.id) as inbox:
        seeker = await automatch.seek(ana, SeekPreferences(sizes=[9, 13], speeds=["blitz", "rapid"], rules="any"))
        clock.advance(BOT_OFFER_AFTER - 1)
        await automatch.tick()
        assert [m["t"] for m in await _messages(inbox)] == ["seeking"]  # not before the wait
        clock.advance(2)
        await automatch.tick()
        (offer,) = await _messages(inbox)
        assert offer["t"] == "bot_offer" and offer["seeks"] == [seeker.seek_id]
        assert offer["bot"]["name"] == "NineBot" and offer["bot"]["rank"] == "6k"
        challenge = offer["challenge"]
        # 9x9 is the only size it plays; blitz's 10-second periods are above its 5 seconds a move.
        assert challenge["board_size"] == 9 and challenge["opponent"] == "NineBot"
        assert challenge["time_control"] == {"kind": "byoyomi", "main": 180, "periods": 3, "period_time": 10}
        assert challenge["rules"] == "chinese" and challenge["color"] == "nigiri" and not challenge["rated"]
        ChallengeCreate.model_validate(challenge)  # what the page posts is a valid challenge
        clock.advance(60)
        await automatch.tick()
        assert await _messages(inbox) == []  # once a search


async def test_no_offer_without_a_bot_that_is_connected_and_fits(world: World) -> None:
    automatch, lobby, clock, ana, nine, big, owned = world
    automatch.socket_opened(owned.id, "owned", bot=False)  # a bot with an owner is nobody's house bot
    async with lobby.subscribe(ana.id) as inbox:
        await automatch.seek(ana, SeekPreferences(sizes=[13], speeds=["rapid"]))
        clock.advance(BOT_OFFER_AFTER + 1)
        await automatch.tick()
        automatch.socket_opened(big.id, "big", bot=True)  # connected, but plays only 19x19
        automatch.socket_opened(nine.id, "nine", bot=True)  # connected, but plays only 9x9
        clock.advance(20)
        await automatch.tick()
        assert [m["t"] for m in await _messages(inbox)] == ["seeking"]
