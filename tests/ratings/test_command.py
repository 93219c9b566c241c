"""``tengen ratings rebuild`` as an operator runs it, on SQLite and PostgreSQL: the same figures from the games."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.ratings import service
from app.store.repositories import ratings as repo
from tests.ratings.finished_games import finished_game, player
from tests.support.server_process import REPO_ROOT


async def _snapshot(sessionmaker: async_sessionmaker[AsyncSession]) -> dict[str, Any]:
    async with sessionmaker() as session:
        return await repo.snapshot(session)


async def test_rebuild_command_recomputes_the_same_figures(
    db_sessionmaker: async_sessionmaker[AsyncSession], database_url: str
) -> None:
    people = [await player(db_sessionmaker, s) for s in ("casual", "club", "3k")]
    games = [
        await finished_game(
            db_sessionmaker, people[n % 3], people[(n + 1) % 3], ("B+R", "W+4.5", "Draw")[n % 3], size=(9, 13, 19)[n % 3]
        )
        for n in range(6)
    ]
    await asyncio.gather(*(service.rate(db_sessionmaker, g) for g in games))
    live = await _snapshot(db_sessionmaker)
    env = {**os.environ, "TENGEN_DATABASE_URL": database_url, "PYTHONPATH": str(REPO_ROOT)}
    done = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "app.cli", "ratings", "rebuild"],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "6 rated game(s)" in done.stdout
    assert await _snapshot(db_sessionmaker) == live
