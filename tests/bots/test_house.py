"""House bots: on by default except under TENGEN_ENV=test, accounts made once, a fresh token on every start."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.accounts import tokens
from app.bots.house import HOUSE_BOTS, find_gnugo, prepare
from app.settings import Settings
from app.store.models import User


def test_house_bots_are_on_by_default_and_off_in_tests() -> None:
    assert Settings(env="development").house_bots_enabled
    assert not Settings(env="test").house_bots_enabled
    assert Settings(env="test", house_bots=True).house_bots_enabled
    assert not Settings(env="development", house_bots=False).house_bots_enabled
    assert find_gnugo("/nonexistent/gnugo") in (None, find_gnugo(""))


def test_the_weak_bots_are_weakened_and_rated_from_low_ranks() -> None:
    by_name = {bot.name: bot for bot in HOUSE_BOTS}
    assert by_name["GnuGo-Beginner"].random_share == 0.5 and by_name["GnuGo-Beginner"].strength == "25k"
    assert by_name["GnuGo-Novice"].random_share == 0.2
    assert by_name["GnuGo-Level10"].random_share == 0 and by_name["GnuGo-Level10"].level == 10


async def test_prepare_makes_the_accounts_once_and_replaces_their_tokens(
    settings: Settings, db_sessionmaker: async_sessionmaker[AsyncSession]
) -> None:
    first = dict((bot.name, token) for bot, token in await prepare(settings))
    second = dict((bot.name, token) for bot, token in await prepare(settings))
    assert set(first) == set(second) == {bot.name for bot in HOUSE_BOTS}
    async with db_sessionmaker() as session:
        bots = (await session.execute(select(User).where(User.is_bot.is_(True)))).scalars().all()
        assert len(bots) == len(HOUSE_BOTS) and all(bot.owner_id is None for bot in bots)
        assert {bot.name: bot.strength for bot in bots}["GnuGo-Beginner"] == "25k"
        for name in first:
            assert await tokens.authenticate(session, first[name]) is None  # revoked by the second start
            auth = await tokens.authenticate(session, second[name])
            assert auth is not None and auth.user.name == name and auth.allows("play")
