"""Queries on ladders (app/ladders): the ladders, their rungs, challenges and history.

Every change to a ladder begins with ``lock``: it bumps the ladder's version, which takes the ladder's row lock
on PostgreSQL and the write lock on SQLite before anything is read, so the positions read next are the latest
and no two changes to one ladder interleave on any instance.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from sqlalchemy import CursorResult, delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.store.ids import short_id
from app.store.models import Game, Ladder, LadderChallenge, LadderEvent, LadderRung, User

UNSETTLED = ("open", "playing")


async def all_ladders(session: AsyncSession) -> list[tuple[Ladder, int]]:
    """Every ladder with its number of players, by board size then id."""
    players = select(LadderRung.ladder_id, func.count().label("n")).group_by(LadderRung.ladder_id).subquery()
    query = (
        select(Ladder, func.coalesce(players.c.n, 0))
        .outerjoin(players, players.c.ladder_id == Ladder.id)
        .order_by(Ladder.board_size, Ladder.id)
    )
    return [(row[0], int(row[1])) for row in (await session.execute(query)).all()]


async def get(session: AsyncSession, ladder_id: str) -> Ladder | None:
    return await session.get(Ladder, ladder_id)


async def lock(session: AsyncSession, ladder_id: str) -> int | None:
    """Bump the ladder's version, locking it until the transaction ends; the new version (None: no such ladder)."""
    result = await session.execute(
        update(Ladder).where(Ladder.id == ladder_id).values(version=Ladder.version + 1).returning(Ladder.version)
    )
    version = result.scalar_one_or_none()
    return None if version is None else int(version)


async def order(session: AsyncSession, ladder_id: str) -> list[int]:
    """The user ids from the top (position 1) down."""
    query = select(LadderRung.user_id).where(LadderRung.ladder_id == ladder_id).order_by(LadderRung.position)
    return list((await session.execute(query)).scalars())


async def rungs(session: AsyncSession, ladder_id: str) -> list[tuple[int, User]]:
    """Each rung's position and player, from the top."""
    query = (
        select(LadderRung.position, User)
        .join(User, User.id == LadderRung.user_id)
        .where(LadderRung.ladder_id == ladder_id)
        .order_by(LadderRung.position)
    )
    return [(int(row[0]), row[1]) for row in (await session.execute(query)).all()]


async def rewrite(session: AsyncSession, ladder_id: str, before: list[int], after: list[int]) -> None:
    """Store the order ``after`` where it differs from ``before`` (the order read under the lock)."""
    for i, user_id in enumerate(after):
        if i >= len(before) or before[i] != user_id:
            await session.execute(
                update(LadderRung).where(LadderRung.ladder_id == ladder_id, LadderRung.user_id == user_id).values(position=i + 1)
            )


async def add_rung(session: AsyncSession, ladder_id: str, user_id: int, position: int) -> None:
    session.add(LadderRung(ladder_id=ladder_id, user_id=user_id, position=position))
    await session.flush()


async def remove_rung(session: AsyncSession, ladder_id: str, user_id: int) -> None:
    await session.execute(delete(LadderRung).where(LadderRung.ladder_id == ladder_id, LadderRung.user_id == user_id))


async def add_challenge(session: AsyncSession, **fields: Any) -> LadderChallenge:
    challenge = LadderChallenge(id=short_id(), status="open", **fields)
    session.add(challenge)
    await session.flush()
    return challenge


async def get_challenge(session: AsyncSession, challenge_id: str) -> LadderChallenge | None:
    return await session.get(LadderChallenge, challenge_id)


async def challenge_of_game(session: AsyncSession, game_id: str) -> LadderChallenge | None:
    query = select(LadderChallenge).where(LadderChallenge.game_id == game_id)
    return (await session.execute(query)).scalar_one_or_none()


async def start_playing(session: AsyncSession, challenge_id: str, game_id: str, now: datetime) -> bool:
    """An open challenge still within its deadline becomes ``playing`` with its game; False when it was not."""
    result = await session.execute(
        update(LadderChallenge)
        .where(LadderChallenge.id == challenge_id, LadderChallenge.status == "open", LadderChallenge.answer_by > now)
        .values(status="playing", game_id=game_id)
    )
    return cast(CursorResult[Any], result).rowcount == 1


async def settle(session: AsyncSession, challenge_id: str, expected: str, outcome: str, now: datetime) -> bool:
    """Settle a challenge still ``expected`` (open or playing): True for the one caller that did it."""
    result = await session.execute(
        update(LadderChallenge)
        .where(LadderChallenge.id == challenge_id, LadderChallenge.status == expected)
        .values(status="settled", outcome=outcome, settled_at=now)
    )
    return cast(CursorResult[Any], result).rowcount == 1


async def unsettled(session: AsyncSession, ladder_id: str) -> list[LadderChallenge]:
    query = (
        select(LadderChallenge)
        .where(LadderChallenge.ladder_id == ladder_id, LadderChallenge.status.in_(UNSETTLED))
        .order_by(LadderChallenge.created_at)
    )
    return list((await session.execute(query)).scalars())


async def unsettled_of(session: AsyncSession, ladder_id: str, user_id: int) -> list[LadderChallenge]:
    query = select(LadderChallenge).where(
        LadderChallenge.ladder_id == ladder_id,
        LadderChallenge.status.in_(UNSETTLED),
        or_(LadderChallenge.challenger_id == user_id, LadderChallenge.defender_id == user_id),
    )
    return list((await session.execute(query)).scalars())


async def last_settled_with(session: AsyncSession, ladder_id: str, user_id: int) -> dict[int, datetime]:
    """For each player ``user_id`` had a settled challenge with (either way) on this ladder, when the last one
    settled."""
    other = func.coalesce(
        func.nullif(LadderChallenge.challenger_id, user_id), LadderChallenge.defender_id
    )  # the one who is not user_id
    query = (
        select(other, func.max(LadderChallenge.settled_at))
        .where(
            LadderChallenge.ladder_id == ladder_id,
            LadderChallenge.status == "settled",
            or_(LadderChallenge.challenger_id == user_id, LadderChallenge.defender_id == user_id),
        )
        .group_by(other)
    )
    return {int(row[0]): row[1] for row in (await session.execute(query)).all() if row[1] is not None}


async def overdue(session: AsyncSession, now: datetime, limit: int = 200) -> list[str]:
    """Open challenges whose answer deadline has passed, oldest first."""
    query = (
        select(LadderChallenge.id)
        .where(LadderChallenge.status == "open", LadderChallenge.answer_by <= now)
        .order_by(LadderChallenge.answer_by)
        .limit(limit)
    )
    return list((await session.execute(query)).scalars())


async def games_over(session: AsyncSession, limit: int = 200) -> list[str]:
    """Challenges still ``playing`` whose game has ended (the news of the end was lost or is on its way)."""

    query = (
        select(LadderChallenge.id)
        .join(Game, Game.id == LadderChallenge.game_id)
        .where(LadderChallenge.status == "playing", Game.status == "finished")
        .limit(limit)
    )
    return list((await session.execute(query)).scalars())


async def add_event(session: AsyncSession, **fields: Any) -> None:
    session.add(LadderEvent(**fields))
    await session.flush()


async def history(session: AsyncSession, ladder_id: str, before: int | None, limit: int) -> list[LadderEvent]:
    """The ladder's events, newest first, those with an id below ``before`` when given."""
    query = select(LadderEvent).where(LadderEvent.ladder_id == ladder_id)
    if before is not None:
        query = query.where(LadderEvent.id < before)
    query = query.order_by(LadderEvent.id.desc()).limit(limit)
    return list((await session.execute(query)).scalars())


async def names(session: AsyncSession, user_ids: set[int]) -> dict[int, User]:
    if not user_ids:
        return {}
    query = select(User).where(User.id.in_(sorted(user_ids)))
    return {user.id: user for user in (await session.execute(query)).scalars()}
