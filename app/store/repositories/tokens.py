"""Queries on API tokens."""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from sqlalchemy import CursorResult, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.store.models import ApiToken, User
from app.store.types import utcnow


async def add(session: AsyncSession, *, user_id: int, name: str, prefix: str, digest: str, scopes: list[str]) -> ApiToken:
    token = ApiToken(user_id=user_id, name=name, prefix=prefix, digest=digest, scopes=scopes, created_at=utcnow())
    session.add(token)
    await session.flush()
    return token


async def active_by_digest(session: AsyncSession, digest: str) -> tuple[ApiToken, User] | None:
    """The unrevoked token with this digest and its user."""
    query = (
        select(ApiToken, User)
        .join(User, ApiToken.user_id == User.id)
        .where(ApiToken.digest == digest, ApiToken.revoked_at.is_(None))
    )
    row = (await session.execute(query)).first()
    return None if row is None else (row[0], row[1])


async def list_for_users(session: AsyncSession, user_ids: list[int]) -> list[ApiToken]:
    """Unrevoked tokens of these users, newest first."""
    query = (
        select(ApiToken)
        .where(ApiToken.user_id.in_(user_ids), ApiToken.revoked_at.is_(None))
        .order_by(ApiToken.created_at.desc(), ApiToken.id.desc())
    )
    return list((await session.execute(query)).scalars())


async def active_ids(session: AsyncSession, token_ids: set[int]) -> set[int]:
    """Those of ``token_ids`` that are not revoked."""
    if not token_ids:
        return set()
    query = select(ApiToken.id).where(ApiToken.id.in_(token_ids), ApiToken.revoked_at.is_(None))
    return set((await session.execute(query)).scalars())


async def get(session: AsyncSession, token_id: int) -> ApiToken | None:
    return await session.get(ApiToken, token_id)


async def revoke(session: AsyncSession, token_id: int) -> bool:
    result = await session.execute(
        update(ApiToken)
        .where(ApiToken.id == token_id, ApiToken.revoked_at.is_(None))
        .values(revoked_at=utcnow())
        .execution_options(synchronize_session=False)
    )
    return bool(cast(CursorResult[Any], result).rowcount == 1)


async def revoke_all_of(session: AsyncSession, user_id: int) -> None:
    await session.execute(
        update(ApiToken)
        .where(ApiToken.user_id == user_id, ApiToken.revoked_at.is_(None))
        .values(revoked_at=utcnow())
        .execution_options(synchronize_session=False)
    )


async def touch(session: AsyncSession, token_id: int, when: datetime) -> None:
    await session.execute(update(ApiToken).where(ApiToken.id == token_id).values(last_used_at=when))
