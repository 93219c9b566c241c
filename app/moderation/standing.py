"""Sanctions, checked where actions are accepted (creating a challenge or a seek, starting a game, chatting),
always against the database: a moderator's decision holds on every instance the moment it is committed.

And what a sanctioned user is told, wherever they ask (``sanction_notices``: the ``account_sanctioned`` message
their sockets read before closing, ``sanction`` in ``GET /api/me`` and in the lobby's snapshot): the kind of
sanction, until when, and the moderator's reason, from which the client says it in the user's language."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Literal, Protocol

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.errors import Forbidden
from app.moderation.messages import AccountSanctioned
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


# What identifies a sanction in force: its kind and its end ("ban", None) or ("suspend", until).
SanctionKey = tuple[Literal["suspend", "ban"], datetime | None]


def sanction_key(standing: Sanctioned, now: datetime) -> SanctionKey | None:
    """The sanction in force now (None: none)."""
    if standing.banned:
        return ("ban", None)
    if standing.suspended_until is not None and standing.suspended_until > now:
        return ("suspend", standing.suspended_until)
    return None


def notice_key(notice: AccountSanctioned) -> SanctionKey:
    return (notice.action, None if notice.until is None else datetime.fromisoformat(notice.until))


async def sanction_notices(
    session: AsyncSession, standings: dict[int, Sanctioned], now: datetime
) -> dict[int, AccountSanctioned]:
    """What each of these users, if sanctioned now, is told: the kind, the end (a suspension's) and the reason
    of the moderator's latest suspension or ban (empty when none was recorded)."""
    keys = {user_id: key for user_id, standing in standings.items() if (key := sanction_key(standing, now)) is not None}
    reasons = await repo.sanction_reasons(session, set(keys))
    return {
        user_id: AccountSanctioned(action=action, reason=reasons.get(user_id, ""), until=_iso(until))
        for user_id, (action, until) in keys.items()
    }


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.astimezone(UTC).isoformat()


async def sanction_view(session: AsyncSession, user: User) -> dict[str, object] | None:
    """``{"action", "reason", "until"}`` of the user's sanction in force now, or None."""
    notice = (await sanction_notices(session, {user.id: user}, utcnow())).get(user.id)
    return None if notice is None else notice.model_dump(exclude={"t"})


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
