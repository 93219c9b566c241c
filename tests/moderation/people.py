"""Players, moderators and games for the moderation tests, on a real server."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta

from sqlalchemy import update

from app.store.db import create_engine, create_sessionmaker
from app.store.models import User
from app.store.types import utcnow
from tests.ratings.rated_play import registered
from tests.support.server_process import REPO_ROOT
from tests.support.players import Player

__all__ = ["admin_command", "moderator", "registered", "established", "ban_body"]


def admin_command(database_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``tengen admin ...`` on the test's database, as an operator runs it."""
    env = {**os.environ, "TENGEN_DATABASE_URL": database_url, "PYTHONPATH": str(REPO_ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "app.cli", "admin", *args], cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=60
    )


async def moderator(base_url: str, database_url: str) -> Player:
    person = await registered(base_url, prefix="mod")
    done = admin_command(database_url, "grant", person.user["name"], "moderator")
    assert done.returncode == 0, done.stderr
    return person


async def established(database_url: str, *people: Player) -> None:
    """Make these accounts older than TENGEN_NEW_ACCOUNT_HOURS (they chat as established accounts)."""
    engine = create_engine(database_url)
    try:
        async with create_sessionmaker(engine)() as session:
            long_ago = utcnow() - timedelta(days=30)
            ids = [p.user["id"] for p in people]
            await session.execute(update(User).where(User.id.in_(ids)).values(registered_at=long_ago, created_at=long_ago))
            await session.commit()
    finally:
        await engine.dispose()


def ban_body(reason: str = "abusive chat") -> dict[str, str]:
    return {"reason": reason}
