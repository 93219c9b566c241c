"""Running the Alembic migrations in ``alembic/`` programmatically (no alembic.ini needed in the cwd).

``alembic/env.py`` drives an async engine through ``run_sync``, so one migration tree serves PostgreSQL and
SQLite. These functions are synchronous and start their own event loop: call them from the CLI, from sync
code, or from a worker thread, not from inside a running loop.
"""

from __future__ import annotations

import os
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection

from app.settings import REPO_ROOT, get_settings
from app.store.db import normalise_url

ALEMBIC_DIR = Path(os.environ.get("TENGEN_ALEMBIC_DIR", REPO_ROOT / "alembic"))


def alembic_config(database_url: str | None = None) -> Config:
    url = normalise_url(database_url or get_settings().effective_database_url)
    config = Config()
    config.set_main_option("script_location", str(ALEMBIC_DIR))
    # Kept out of set_main_option: ConfigParser would treat a '%' in a password as interpolation.
    config.attributes["database_url"] = url
    return config


def upgrade_to_head(database_url: str | None = None) -> None:
    """Apply every pending migration."""
    command.upgrade(alembic_config(database_url), "head")


def downgrade_to_base(database_url: str | None = None) -> None:
    """Undo every migration (tests use it to prove the tree goes down and up again)."""
    command.downgrade(alembic_config(database_url), "base")


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()


def current_revision(sync_connection: Connection) -> str | None:
    """The revision a database is at, from a synchronous connection (use with ``AsyncConnection.run_sync``)."""
    return MigrationContext.configure(sync_connection).get_current_revision()
