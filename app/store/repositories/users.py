"""Queries on users (guests and registered accounts)."""

from __future__ import annotations

import secrets
from datetime import datetime

from sqlalchemy import delete, exists, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.store.models import Challenge, ChatMessage, Game, Review, User
from app.store.types import utcnow


def first_session_version() -> int:
    """A random start: should a deleted user's id be given again (SQLite reuses the highest rowid), a cookie
    signed for the old user names a session version the new one does not have."""
    return secrets.randbelow(2**30)


async def get(session: AsyncSession, user_id: int) -> User | None:
    return await session.get(User, user_id)


async def get_by_name_key(session: AsyncSession, name_key: str) -> User | None:
    return (await session.execute(select(User).where(User.name_key == name_key))).scalar_one_or_none()


async def name_taken(session: AsyncSession, name_key: str) -> bool:
    return (await session.execute(select(User.id).where(User.name_key == name_key))).first() is not None


async def _add(session: AsyncSession, **fields: object) -> User:
    """Insert a user with a fresh session version (flushes, does not commit)."""
    user = User(session_version=first_session_version(), **fields)
    session.add(user)
    await session.flush()
    return user


async def add_guest(session: AsyncSession, name: str, name_key: str) -> User:
    """Insert a guest (flushes, does not commit)."""
    return await _add(session, name=name, name_key=name_key, is_guest=True)


async def add_registered(session: AsyncSession, name: str, name_key: str, password_hash: str) -> User:
    return await _add(session, name=name, name_key=name_key, is_guest=False, password_hash=password_hash, registered_at=utcnow())


async def register_guest(session: AsyncSession, user: User, name: str, name_key: str, password_hash: str) -> None:
    """Turn a guest row into an account in place, so its games stay its own."""
    user.name = name
    user.name_key = name_key
    user.password_hash = password_hash
    user.is_guest = False
    user.registered_at = utcnow()
    user.session_version += 1  # the guest's cookies stop working: the account gets a session of its own
    await session.flush()


async def set_password_hash(session: AsyncSession, user_id: int, password_hash: str) -> None:
    await session.execute(update(User).where(User.id == user_id).values(password_hash=password_hash))


async def bump_session_version(session: AsyncSession, user_id: int) -> None:
    await session.execute(update(User).where(User.id == user_id).values(session_version=User.session_version + 1))


async def session_versions(session: AsyncSession, user_ids: set[int]) -> dict[int, int]:
    """Each user's session version (users that no longer exist left out)."""
    if not user_ids:
        return {}
    rows = await session.execute(select(User.id, User.session_version).where(User.id.in_(user_ids)))
    return {row.id: row.session_version for row in rows}


async def names(session: AsyncSession, user_ids: set[int]) -> dict[int, str]:
    if not user_ids:
        return {}
    rows = await session.execute(select(User.id, User.name).where(User.id.in_(user_ids)))
    return {row.id: row.name for row in rows}


async def lock(session: AsyncSession, user_ids: list[int]) -> None:
    """Lock these users' rows until the transaction ends (in id order, so two lockers cannot deadlock).

    PostgreSQL takes row locks; SQLite ignores ``FOR UPDATE`` and serialises writers by itself.
    """
    await session.execute(select(User.id).where(User.id.in_(sorted(user_ids))).order_by(User.id).with_for_update())


async def bots_of(session: AsyncSession, owner_id: int | None) -> list[User]:
    """An owner's bots; with ``None``, the server's own (no owner)."""
    owned = User.owner_id.is_(None) if owner_id is None else User.owner_id == owner_id
    query = select(User).where(owned, User.is_bot.is_(True)).order_by(User.id)
    return list((await session.execute(query)).scalars())


async def add_bot(
    session: AsyncSession, name: str, name_key: str, owner_id: int | None, accepts: dict, strength: str | None = None
) -> User:
    return await _add(
        session,
        strength=strength,
        name=name,
        name_key=name_key,
        is_guest=False,
        is_bot=True,
        owner_id=owner_id,
        bot_accepts=accepts,
        registered_at=utcnow(),
    )


async def set_bot_accepts(session: AsyncSession, user_id: int, accepts: dict) -> None:
    await session.execute(update(User).where(User.id == user_id).values(bot_accepts=accepts))


async def bot_flags(session: AsyncSession, user_ids: set[int]) -> set[int]:
    """Which of these users are bots."""
    if not user_ids:
        return set()
    rows = await session.execute(select(User.id).where(User.id.in_(user_ids), User.is_bot.is_(True)))
    return {row.id for row in rows}


async def people(session: AsyncSession, user_ids: set[int]) -> dict[int, tuple[str, bool]]:
    """Name and whether it is a bot, by user id."""
    if not user_ids:
        return {}
    rows = await session.execute(select(User.id, User.name, User.is_bot).where(User.id.in_(user_ids)))
    return {row.id: (row.name, bool(row.is_bot)) for row in rows}


async def all_bots(session: AsyncSession, limit: int = 200) -> list[User]:
    """Bots, the server's own first."""
    query = select(User).where(User.is_bot.is_(True)).order_by(User.owner_id.is_not(None), User.id).limit(limit)
    return list((await session.execute(query)).scalars())


async def delete_unused_guests(session: AsyncSession, created_before: datetime, limit: int = 1000) -> int:
    """Delete guests made before ``created_before`` that never played, challenged, chatted or made a review;
    how many."""
    unused = (
        select(User.id)
        .where(User.is_guest.is_(True), User.created_at < created_before)
        .where(~exists().where(or_(Game.black_id == User.id, Game.white_id == User.id)))
        .where(~exists().where(Challenge.creator_id == User.id))
        .where(~exists().where(ChatMessage.user_id == User.id))
        .where(~exists().where(Review.owner_id == User.id))
        .limit(limit)
    )
    ids = list((await session.execute(unused)).scalars())
    if ids:
        await session.execute(delete(User).where(User.id.in_(ids)).execution_options(synchronize_session=False))
    return len(ids)


async def get_by_email_key(session: AsyncSession, email_key: str) -> User | None:
    """The account whose verified address this is."""
    return (await session.execute(select(User).where(User.email_key == email_key))).scalar_one_or_none()


async def mail_recipients(session: AsyncSession, user_ids: set[int]) -> dict[int, User]:
    """Of these users, the registered people with a verified address who want notices."""
    if not user_ids:
        return {}
    query = select(User).where(
        User.id.in_(user_ids), User.email.is_not(None), User.mail_mode != "off", User.is_guest.is_(False), User.is_bot.is_(False)
    )
    return {user.id: user for user in (await session.execute(query)).scalars()}
