"""Blocking: a blocked user cannot challenge you or accept your challenges, chat between you is hidden both
ways, and automatch never pairs you (``avoided`` is the pairing's ``Avoid``, read at each pairing).

A block is checked where it takes effect: where a pairing is chosen (``avoided``), and where any game starts
(``check_not_blocked``, called by ``app.lobby.starting`` with both players' rows locked). ``block`` takes the
same row locks before it writes, so a game being started and a block being made between the same two players
are serialised: either the block comes first and the game is refused, or the game was committed first.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import Conflict, Forbidden, ServiceError
from app.moderation.notices import announce_blocks
from app.moderation.roles import find_user
from app.store.models import User
from app.store.repositories import moderation as repo
from app.store.repositories import users as users_repo
from app.transport.hub import Hub


async def block(session: AsyncSession, hub: Hub, user: User, name: str, cap: int) -> User:
    target = await find_user(session, name)
    if target.id == user.id:
        raise ServiceError("own_block", "You cannot block yourself.")
    if await repo.count_blocked_by(session, user.id) >= cap:
        raise Conflict("too_many_blocks", f"You have blocked {cap} players already.")
    await users_repo.lock(session, [user.id, target.id])  # after any game being started between them (above)
    await repo.block(session, user.id, target.id)
    await session.commit()
    await announce_blocks(hub, [user.id, target.id])
    return target


async def unblock(session: AsyncSession, hub: Hub, user: User, name: str) -> User:
    target = await find_user(session, name)
    await repo.unblock(session, user.id, target.id)
    await session.commit()
    await announce_blocks(hub, [user.id, target.id])
    return target


async def listed(session: AsyncSession, user: User) -> list[dict[str, object]]:
    return [{"id": user_id, "name": name} for user_id, name in await repo.blocked_by(session, user.id)]


async def check_not_blocked(session: AsyncSession, a: int, b: int) -> None:
    if await repo.blocked_between(session, a, b):
        raise Forbidden("blocked", "One of you has blocked the other.")


async def avoided(session: AsyncSession, user_ids: list[int]) -> dict[int, frozenset[int]]:
    """Whom automatch never pairs each of ``user_ids`` with, as the blocks stand now (app/automatch/strength.py,
    ``Avoid``)."""
    return await repo.avoided_by_each(session, user_ids)
