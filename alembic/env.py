"""Alembic environment for Tengen: one async engine for PostgreSQL and SQLite, driven via run_sync.

The database URL comes from ``config.attributes["database_url"]`` (set by app/store/migrations.py) or,
when alembic is run by hand, from the settings.
"""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection

from app.store.db import create_engine, is_sqlite, normalise_url
from app.store.models import metadata

config = context.config
target_metadata = metadata


def _database_url() -> str:
    url = config.attributes.get("database_url")
    if not url:
        from app.settings import get_settings

        url = get_settings().effective_database_url
    return normalise_url(url)


def _configure(connection: Connection | None = None, url: str | None = None) -> None:
    sqlite = is_sqlite(url or _database_url())
    context.configure(
        connection=connection,
        url=url,
        target_metadata=target_metadata,
        # SQLite cannot ALTER most things in place: batch mode copies the table instead.
        render_as_batch=sqlite,
        compare_type=True,
        literal_binds=connection is None,
    )


def _run_sync(connection: Connection) -> None:
    _configure(connection=connection)
    with context.begin_transaction():
        context.run_migrations()


async def _run_async() -> None:
    engine = create_engine(_database_url())
    try:
        async with engine.connect() as connection:
            await connection.run_sync(_run_sync)
            await connection.commit()
    finally:
        await engine.dispose()


if context.is_offline_mode():
    _configure(url=_database_url())
    with context.begin_transaction():
        context.run_migrations()
else:
    asyncio.run(_run_async())
