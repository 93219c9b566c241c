"""Queries on challenges."""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import CursorResult, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.store.ids import secret_token, short_id
from app.store.models import Challenge


async def add(
    session: AsyncSession,
    *,
    creator_id: int,
    board_size: int,
    rules: str,
    komi: float,
    handicap: int,
    color: str,
    time_control: dict[str, Any],
    rated: bool,
    private: bool,
    opponent_id: int | None = None,
    min_rank: str | None = None,
    max_rank: str | None = None,
    auto_handicap: bool = False,
) -> Challenge:
    challenge = Challenge(
        id=short_id(),
        creator_id=creator_id,
        board_size=board_size,
        rules=rules,
        komi=komi,
        handicap=handicap,
        color=color,
        time_control=time_control,
        rated=rated,
        private=private,
        opponent_id=opponent_id,
        min_rank=min_rank,
        max_rank=max_rank,
        auto_handicap=auto_handicap,
        token=secret_token() if private else None,
        status="open",
    )
    session.add(challenge)
    await session.flush()
    return challenge


async def get(session: AsyncSession, challenge_id: str) -> Challenge | None:
    return await session.get(Challenge, challenge_id)


async def list_open(session: AsyncSession, limit: int = 200, hiding: frozenset[int] = frozenset()) -> list[Challenge]:
    """Open challenges that anyone may accept, newest first (private ones and those addressed to one player
    are never listed), but for those of the creators in ``hiding``."""
    query = select(Challenge).where(Challenge.status == "open", Challenge.private.is_(False), Challenge.opponent_id.is_(None))
    if hiding:
        query = query.where(Challenge.creator_id.not_in(hiding))
    query = query.order_by(Challenge.created_at.desc()).limit(limit)
    return list((await session.execute(query)).scalars())


async def list_open_to(session: AsyncSession, opponent_id: int, limit: int = 200) -> list[Challenge]:
    """Open challenges addressed to this player, oldest first."""
    query = (
        select(Challenge)
        .where(Challenge.status == "open", Challenge.opponent_id == opponent_id)
        .order_by(Challenge.created_at)
        .limit(limit)
    )
    return list((await session.execute(query)).scalars())


async def count_open_by(session: AsyncSession, creator_id: int) -> int:
    query = select(func.count()).where(Challenge.creator_id == creator_id, Challenge.status == "open")
    return int((await session.execute(query)).scalar_one())


async def close(
    session: AsyncSession, challenge_id: str, status: str, game_id: str | None = None, reason: str | None = None
) -> bool:
    """Move an open challenge to ``status`` (compare-and-set: False when it was no longer open)."""
    result = await session.execute(
        update(Challenge)
        .where(Challenge.id == challenge_id, Challenge.status == "open")
        .values(status=status, game_id=game_id, decline_reason=reason)
        .execution_options(synchronize_session=False)
    )
    return bool(cast(CursorResult[Any], result).rowcount == 1)


async def open_of(session: AsyncSession, creator_id: int) -> list[Challenge]:
    """The open challenges ``creator_id`` made."""
    query = select(Challenge).where(Challenge.creator_id == creator_id, Challenge.status == "open")
    return list((await session.execute(query)).scalars())
