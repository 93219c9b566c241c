"""Games written straight to the store, as an accepted challenge writes them: 9x9, Chinese rules, the preset's
komi, no handicap, unrated; no clock unless one is asked for."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.lobby.starting import create_game
from app.store.models import Game

NO_CLOCK: dict[str, Any] = {"kind": "none"}


async def nine_by_nine(session: AsyncSession, black_id: int, white_id: int, time_control: dict[str, Any] | None = None) -> Game:
    """A new 9x9 game between the two users, added in ``session`` (the caller commits)."""
    return await create_game(
        session,
        board_size=9,
        rules="chinese",
        komi=None,
        handicap=0,
        time_control=dict(time_control or NO_CLOCK),
        rated=False,
        black_id=black_id,
        white_id=white_id,
    )
