"""Named moments the servers record (``server_marks``): the heartbeat read on start to detect downtime."""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import CursorResult, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.store.models import ServerMark

HEARTBEAT = "heartbeat"


async def get(session: AsyncSession, name: str = HEARTBEAT) -> float | None:
    """The moment stored under ``name``, or None when it was never recorded."""
    value = (await session.execute(select(ServerMark.at).where(ServerMark.name == name))).scalar_one_or_none()
    return None if value is None else float(value)


async def touch(session: AsyncSession, at: float, name: str = HEARTBEAT) -> None:
    """Record ``at`` under ``name`` (never moving it back) and commit."""
    result = await session.execute(update(ServerMark).where(ServerMark.name == name, ServerMark.at < at).values(at=at))
    if cast(CursorResult[Any], result).rowcount == 0 and await get(session, name) is None:
        try:
            await session.execute(insert(ServerMark).values(name=name, at=at))
        except IntegrityError:  # another instance inserted it first; its mark is as good
            await session.rollback()
            return
    await session.commit()
