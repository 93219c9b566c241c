"""Queries on shared reviews, including the compare-and-set ``save`` every live change goes through."""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.store.models import Review, User
from app.store.types import utcnow


class ReviewConflict(Exception):
    """Another writer advanced the review first: re-read it and decide again."""

    def __init__(self, review_id: str, expected_version: int) -> None:
        super().__init__(f"review {review_id} is no longer at version {expected_version}")
        self.review_id = review_id
        self.expected_version = expected_version


class ReviewListed(NamedTuple):
    review: Review
    owner: User


async def add(session: AsyncSession, review: Review) -> Review:
    """Store a new review (committed)."""
    session.add(review)
    await session.commit()
    return review


async def get(session: AsyncSession, review_id: str) -> Review | None:
    return await session.get(Review, review_id, populate_existing=True)


async def version_of(session: AsyncSession, review_id: str) -> int | None:
    """The review's stored version (None: no such review)."""
    return (await session.execute(select(Review.version).where(Review.id == review_id))).scalar_one_or_none()


async def save(session: AsyncSession, review_id: str, expected_version: int, **changes: Any) -> int:
    """Store ``changes`` (tree, current, controller_id, chat) as version ``expected_version + 1``, if the review
    is still at ``expected_version``; committed. Raises ``ReviewConflict`` when another writer got there first."""
    new_version = expected_version + 1
    result = await session.execute(
        update(Review)
        .where(Review.id == review_id, Review.version == expected_version)
        .values(version=new_version, updated_at=utcnow(), **changes)
    )
    if not getattr(result, "rowcount", 0):
        await session.rollback()
        raise ReviewConflict(review_id, expected_version)
    await session.commit()
    return new_version


async def list_for_game(session: AsyncSession, game_id: str, limit: int = 50) -> list[ReviewListed]:
    """The reviews of a game with their owners, newest first."""
    query = (
        select(Review, User)
        .join(User, User.id == Review.owner_id)
        .where(Review.game_id == game_id)
        .order_by(Review.created_at.desc(), Review.id)
        .limit(limit)
    )
    return [ReviewListed(review, owner) for review, owner in (await session.execute(query)).all()]


async def list_for_owner(session: AsyncSession, owner_id: int, limit: int = 50) -> list[Review]:
    """A user's reviews, the most recently changed first."""
    query = select(Review).where(Review.owner_id == owner_id).order_by(Review.updated_at.desc()).limit(limit)
    return list((await session.execute(query)).scalars())


async def made_since(session: AsyncSession, owner_id: int, since: datetime) -> int:
    """How many reviews ``owner_id`` made since ``since`` (the cap on making them)."""
    query = select(func.count()).select_from(Review).where(Review.owner_id == owner_id, Review.created_at >= since)
    return int((await session.execute(query)).scalar_one())
