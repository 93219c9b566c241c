"""The one query readiness needs: the database answers."""

from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine


async def ping(engine: AsyncEngine) -> None:
    """Raises when the database cannot run a trivial query."""
    async with engine.connect() as connection:
        await connection.execute(text("SELECT 1"))
