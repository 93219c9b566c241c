"""Queries on players' correspondence settings and vacations, and on their correspondence games."""

from __future__ import annotations

from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.store.models import CorrespondenceSettings, Game


async def get(session: AsyncSession, user_id: int) -> CorrespondenceSettings | None:
    return await session.get(CorrespondenceSettings, user_id)


async def get_many(session: AsyncSession, user_ids: list[int]) -> dict[int, CorrespondenceSettings]:
    rows = (await session.execute(select(CorrespondenceSettings).where(CorrespondenceSettings.user_id.in_(user_ids)))).scalars()
    return {row.user_id: row for row in rows}


async def put(session: AsyncSession, row: CorrespondenceSettings) -> None:
    """Insert or update (the caller commits)."""
    await session.merge(row)


async def vacations_over(session: AsyncSession, now: float) -> list[int]:
    """Users whose vacation has run out by ``now``."""
    rows = await session.execute(
        select(CorrespondenceSettings.user_id).where(
            CorrespondenceSettings.vacation_since.is_not(None),
            CorrespondenceSettings.vacation_since + CorrespondenceSettings.vacation_banked <= now,
        )
    )
    return [user_id for (user_id,) in rows]


async def unfinished_games(session: AsyncSession, user_id: int) -> list[tuple[str, str, dict]]:
    """(game id, the user's colour, time control) of the user's unfinished games."""
    rows = await session.execute(
        select(Game.id, Game.black_id, Game.time_control).where(
            Game.status != "finished", or_(Game.black_id == user_id, Game.white_id == user_id)
        )
    )
    return [(game_id, "B" if black_id == user_id else "W", tc or {}) for game_id, black_id, tc in rows]
