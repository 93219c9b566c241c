"""Finished games, searched and counted: the archive, a player's record and head-to-head.

Practice games (one user on both sides) are never listed.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import and_, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.store.models import Game
from app.store.repositories.games import GameWithPlayers, rows_with_players, with_players

RESULTS = ("B", "W", "draw", "void", "win", "loss")


def _finished() -> Any:
    return and_(Game.status == "finished", Game.black_id != Game.white_id)


def _won_by(colour: str) -> Any:
    return Game.result.like(f"{colour}+%")


def _result_filter(result: str, player_id: int | None) -> Any:
    if result in ("B", "W"):
        return _won_by(result)
    if result == "draw":
        return Game.result == "Draw"
    if result == "void":
        return Game.result == "Void"
    assert player_id is not None and result in ("win", "loss")
    mine, theirs = ("B", "W") if result == "win" else ("W", "B")
    return or_(and_(Game.black_id == player_id, _won_by(mine)), and_(Game.white_id == player_id, _won_by(theirs)))


async def search(
    session: AsyncSession,
    *,
    player_id: int | None = None,
    opponent_id: int | None = None,
    size: int | None = None,
    result: str | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    offset: int = 0,
    limit: int = 20,
) -> tuple[list[GameWithPlayers], int]:
    """One page of finished games, newest first, and how many match in all."""
    conditions = [_finished()]
    if player_id is not None:
        conditions.append(or_(Game.black_id == player_id, Game.white_id == player_id))
    if opponent_id is not None:
        conditions.append(or_(Game.black_id == opponent_id, Game.white_id == opponent_id))
    if size is not None:
        conditions.append(Game.board_size == size)
    if result is not None:
        conditions.append(_result_filter(result, player_id))
    if since is not None:
        conditions.append(Game.ended_at >= since)
    if until is not None:
        conditions.append(Game.ended_at < until)
    where = and_(*conditions)
    total = int((await session.execute(select(func.count()).select_from(Game).where(where))).scalar_one())
    query = with_players().where(where).order_by(Game.ended_at.desc(), Game.id).offset(offset).limit(limit)
    return await rows_with_players(session, query), total


async def outcomes(session: AsyncSession, player_id: int, limit: int) -> list[tuple[int, dict[str, Any], str | None, bool]]:
    """The player's last ``limit`` finished games: board size, time control, result and whether they were Black."""
    rows = await session.execute(
        select(Game.board_size, Game.time_control, Game.result, Game.black_id)
        .where(_finished(), or_(Game.black_id == player_id, Game.white_id == player_id))
        .order_by(Game.ended_at.desc())
        .limit(limit)
    )
    return [(size, tc, result, black_id == player_id) for size, tc, result, black_id in rows.all()]
