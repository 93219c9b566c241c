"""Sanctions, checked where actions are accepted (creating a challenge or a seek, starting a game, chatting),
always against the database: a moderator's decision holds on every instance the moment it is committed."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Protocol

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.errors import Forbidden
from app.store.models import User
from app.store.repositories import moderation as repo
from app.store.repositories.moderation import Standing
from app.store.types import utcnow


class Sanctioned(Protocol):
    """A user row or a ``Standing``: what a restriction is read from."""

    @property
    def banned(self) -> bool: ...

    @property
    def suspended_until(self) -> datetime | None: ...


def restriction(standing: Sanctioned, now: datetime) -> Forbidden | None:
    """The refusal a banned or suspended user gets, or None."""
    if standing.banned:
        return Forbidden("account_banned", "This account is banned.")
    if standing.suspended_until is not None and standing.suspended_until > now:
        until = standing.suspended_until.strftime("%Y-%m-%d %H:%M UTC")
        return Forbidden("account_suspended", f"This account is suspended until {until}.")
    return None


async def check_may_play(session: AsyncSession, user_ids: set[int]) -> None:
    """Refuse (403) when any of these users is banned or suspended; the first one's refusal."""
    now = utcnow()
    for _, standing in sorted((await repo.standings(session, user_ids)).items()):
        refusal = restriction(standing, now)
        if refusal is not None:
            raise refusal


def sanction_refusal(standing: Standing | None, now: datetime) -> Forbidden | None:
    """Why this user may not chat now (banned, suspended, muted), or None."""
    if standing is None:
        return None
    refusal = restriction(standing, now)
    if refusal is not None:
        return refusal
    if standing.muted_until is not None and standing.muted_until > now:
        until = standing.muted_until.strftime("%H:%M UTC")
        return Forbidden("chat_muted", f"A moderator muted your chat until {until}.")
    return None


def is_new_account(standing: Standing | User, now: datetime, hours: float) -> bool:
    """A guest, or an account registered less than ``hours`` ago: chat is limited more tightly."""
    if standing.is_guest:
        return True
    since = standing.registered_at or standing.created_at
    return since > now - timedelta(hours=hours)


async def chat_sanction(sessionmaker: async_sessionmaker[AsyncSession], user_id: int) -> Forbidden | None:
    """Why this user may not chat now, read from the database (game and review chat alike), or None."""
    async with sessionmaker() as session:
        return sanction_refusal(await repo.standing(session, user_id), utcnow())
