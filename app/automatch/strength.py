"""What pairing needs to know about a player: their strength, and whom they never meet.

Pairing is written against these two small functions so that the rating system and blocking can plug in
without changing it: ``Strength`` gives a player's rating (Glicko-2 scale points), ``Avoid`` for each of some
users the ids of the users they have blocked or who have blocked them, as the blocks stand when it is asked
(the service asks at every pairing, never keeps the answer with a seek). ``player_rating`` (the default) reads
the player's overall rating, or the starting rating of the strength they declared (1500 when they said
nothing); ``avoid_nobody`` is for tests of pairing alone; the server passes ``app.moderation.blocks.avoided``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from sqlalchemy.ext.asyncio import AsyncSession

from app.ratings.rate import OVERALL
from app.ratings.lookup import start_of
from app.store.models import User
from app.store.repositories import ratings

DEFAULT_RATING = 1500.0

Strength = Callable[[AsyncSession, User], Awaitable[float]]
Avoid = Callable[[AsyncSession, list[int]], Awaitable[dict[int, frozenset[int]]]]


async def player_rating(session: AsyncSession, user: User) -> float:
    row = (await ratings.of_users(session, {user.id}, OVERALL)).get(user.id)
    if row is not None:
        return float(row.rating)
    return start_of(user.strength).rating


async def default_strength(_session: AsyncSession, _user: User) -> float:
    """Everyone alike (tests of pairing that are not about strength)."""
    return DEFAULT_RATING


async def avoid_nobody(_session: AsyncSession, user_ids: list[int]) -> dict[int, frozenset[int]]:
    return {user_id: frozenset() for user_id in user_ids}
