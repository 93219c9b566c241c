"""What pairing needs to know about a player: their strength, and whom they never meet.

Pairing is written against these two small functions so that the rating system and blocking can plug in
without changing it: ``Strength`` gives a player's rating (Glicko-2 scale points), ``Avoid`` the ids of the
users they have blocked or who have blocked them. The defaults say 1500 for everyone and avoid nobody.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from sqlalchemy.ext.asyncio import AsyncSession

from app.store.models import User

DEFAULT_RATING = 1500.0

Strength = Callable[[AsyncSession, User], Awaitable[float]]
Avoid = Callable[[AsyncSession, User], Awaitable[frozenset[int]]]


async def default_strength(_session: AsyncSession, _user: User) -> float:
    return DEFAULT_RATING


async def avoid_nobody(_session: AsyncSession, _user: User) -> frozenset[int]:
    return frozenset()
