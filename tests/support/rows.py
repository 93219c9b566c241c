"""Counting stored rows from a test: what a request stored, or did not."""

from __future__ import annotations

from sqlalchemy import func, select

from app.store.db import create_engine, create_sessionmaker
from app.store.models import User


async def count_users(database_url: str) -> int:
    """Users (guests included) in the test's database."""
    engine = create_engine(database_url)
    try:
        async with create_sessionmaker(engine)() as session:
            return int((await session.execute(select(func.count()).select_from(User))).scalar_one())
    finally:
        await engine.dispose()
