"""The Alembic tree from an empty database up, down and up again, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect

from app.store.db import create_engine
from app.store.migrations import current_revision, downgrade_to_base, head_revision, upgrade_to_head
from app.store.models import metadata

TABLES = {
    "users", "games", "moves", "chat_messages", "game_events", "challenges", "server_marks",
    "ratings", "rating_updates", "rating_changes", "api_tokens",
}


def _inspect(url: str):  # type: ignore[no-untyped-def]
    async def run():  # type: ignore[no-untyped-def]
        engine = create_engine(url)
        try:
            async with engine.connect() as connection:

                def read(sync):  # type: ignore[no-untyped-def]
                    diff = compare_metadata(MigrationContext.configure(sync, opts={"compare_type": True}), metadata)
                    return set(inspect(sync).get_table_names()), current_revision(sync), diff

                return await connection.run_sync(read)
        finally:
            await engine.dispose()

    return asyncio.run(run())


def test_upgrade_downgrade_upgrade(empty_database_url: str) -> None:
    tables, revision, _ = _inspect(empty_database_url)
    assert not tables & TABLES and revision is None

    upgrade_to_head(empty_database_url)
    tables, revision, diff = _inspect(empty_database_url)
    assert TABLES <= tables
    assert revision == head_revision()
    assert diff == [], "the migrations and the models disagree"

    downgrade_to_base(empty_database_url)
    tables, revision, _ = _inspect(empty_database_url)
    assert not tables & TABLES and revision is None

    upgrade_to_head(empty_database_url)
    tables, revision, diff = _inspect(empty_database_url)
    assert TABLES <= tables and revision == head_revision() and diff == []


def test_upgrade_twice_is_a_no_op(empty_database_url: str) -> None:
    upgrade_to_head(empty_database_url)
    upgrade_to_head(empty_database_url)
    assert _inspect(empty_database_url)[1] == head_revision()
