"""The reviews repository: the compare-and-set ``save``, the lists, the count behind the daily cap."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.store.models import Review
from app.store.repositories import reviews, users
from app.store.repositories.reviews import ReviewConflict
from app.store.types import utcnow

TREE = {"format": 1, "setup": {"size": 9}, "info": {}, "nodes": [{"id": 0}]}


async def _review(sessionmaker: async_sessionmaker[AsyncSession], review_id: str = "rev1", game_id: str | None = None) -> int:
    async with sessionmaker() as session:
        owner = await users.add_guest(session, f"Guest-{review_id}", f"guest-{review_id}")
        await session.commit()
        owner_id = owner.id
        await reviews.add(
            session,
            Review(
                id=review_id,
                owner_id=owner_id,
                game_id=game_id,
                title="t",
                board_size=9,
                tree=TREE,
                current=0,
                chat=[],
                version=0,
            ),
        )
    return owner_id


async def test_save_advances_the_version_only_from_the_expected_one(db_sessionmaker: async_sessionmaker[AsyncSession]) -> None:
    await _review(db_sessionmaker)
    async with db_sessionmaker() as session:
        assert await reviews.save(session, "rev1", 0, current=3) == 1
        with pytest.raises(ReviewConflict):
            await reviews.save(session, "rev1", 0, current=4)
        assert await reviews.save(session, "rev1", 1, chat=[{"text": "hi"}]) == 2
    async with db_sessionmaker() as session:
        row = await reviews.get(session, "rev1")
        assert row is not None and (row.version, row.current, row.chat) == (2, 3, [{"text": "hi"}])


async def test_two_writers_racing_on_one_version_one_wins(db_sessionmaker: async_sessionmaker[AsyncSession]) -> None:
    await _review(db_sessionmaker)

    async def write(node: int) -> int | None:
        async with db_sessionmaker() as session:
            try:
                return await reviews.save(session, "rev1", 0, current=node)
            except ReviewConflict:
                return None

    results = await asyncio.gather(write(1), write(2))
    assert sorted(results, key=str) == [1, None]


async def test_lists_and_the_daily_count(db_sessionmaker: async_sessionmaker[AsyncSession]) -> None:
    owner_id = await _review(db_sessionmaker, "rev1")
    async with db_sessionmaker() as session:
        assert await reviews.made_since(session, owner_id, utcnow() - timedelta(days=1)) == 1
        assert await reviews.made_since(session, owner_id, utcnow() + timedelta(seconds=5)) == 0
        assert [r.id for r in await reviews.list_for_owner(session, owner_id)] == ["rev1"]
        assert await reviews.list_for_game(session, "nogame") == []
