"""Queries on moderation: roles, blocks, reports, the audit log, sanctions and the record of escapes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Delete, Update, and_, delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.store.models import AuditEntry, Block, Game, GameEvent, Move, Report, User, UserRole
from app.store.types import utcnow


async def _add_new(session: AsyncSession, row: UserRole | Block, key: tuple[int, int | str]) -> bool:
    """Add ``row`` unless one with its primary key, ``key``, exists already (False then)."""
    if await session.get(type(row), key) is not None:
        return False
    session.add(row)
    await session.flush()
    return True


async def _changed_any(session: AsyncSession, statement: Delete | Update) -> bool:
    """Run the delete or update; whether it changed any row."""
    return bool(getattr(await session.execute(statement), "rowcount", 0))


# ---- roles


async def roles_of(session: AsyncSession, user_id: int) -> set[str]:
    rows = await session.execute(select(UserRole.role).where(UserRole.user_id == user_id))
    return {row.role for row in rows}


async def add_role(session: AsyncSession, user_id: int, role: str) -> bool:
    """False when the user holds the role already."""
    return await _add_new(session, UserRole(user_id=user_id, role=role), (user_id, role))


async def remove_role(session: AsyncSession, user_id: int, role: str) -> bool:
    return await _changed_any(session, delete(UserRole).where(UserRole.user_id == user_id, UserRole.role == role))


# ---- the audit log


async def audit(session: AsyncSession, **fields: Any) -> AuditEntry:
    entry = AuditEntry(**fields)
    session.add(entry)
    await session.flush()
    return entry


async def audit_entries(
    session: AsyncSession, *, target_user_id: int | None = None, before: int | None = None, limit: int = 100
) -> list[AuditEntry]:
    query = select(AuditEntry)
    if target_user_id is not None:
        query = query.where(AuditEntry.target_user_id == target_user_id)
    if before is not None:
        query = query.where(AuditEntry.id < before)
    return list((await session.execute(query.order_by(AuditEntry.id.desc()).limit(limit))).scalars())


async def sanction_reasons(session: AsyncSession, user_ids: set[int]) -> dict[int, str]:
    """The reason of each user's latest suspension or ban in the audit log (users without one left out)."""
    if not user_ids:
        return {}
    query = (
        select(AuditEntry.target_user_id, AuditEntry.reason)
        .where(AuditEntry.target_user_id.in_(user_ids), AuditEntry.action.in_(("suspend", "ban")))
        .order_by(AuditEntry.id.desc())
    )
    reasons: dict[int, str] = {}
    for target, reason in await session.execute(query):
        if target is not None:
            reasons.setdefault(target, reason)
    return reasons


# ---- blocks


async def block(session: AsyncSession, blocker_id: int, blocked_id: int) -> bool:
    """False when the block exists already."""
    return await _add_new(session, Block(blocker_id=blocker_id, blocked_id=blocked_id), (blocker_id, blocked_id))


async def unblock(session: AsyncSession, blocker_id: int, blocked_id: int) -> bool:
    return await _changed_any(session, delete(Block).where(Block.blocker_id == blocker_id, Block.blocked_id == blocked_id))


async def blocked_by(session: AsyncSession, blocker_id: int, limit: int = 1000) -> list[tuple[int, str]]:
    """The users ``blocker_id`` blocked (id, name), most recent first."""
    rows = await session.execute(
        select(User.id, User.name)
        .join(Block, Block.blocked_id == User.id)
        .where(Block.blocker_id == blocker_id)
        .order_by(Block.created_at.desc())
        .limit(limit)
    )
    return [(row.id, row.name) for row in rows]


async def count_blocked_by(session: AsyncSession, blocker_id: int) -> int:
    query = select(func.count()).select_from(Block).where(Block.blocker_id == blocker_id)
    return int((await session.execute(query)).scalar_one())


async def avoided(session: AsyncSession, user_id: int) -> frozenset[int]:
    """The users ``user_id`` blocked or was blocked by: the two never meet."""
    rows = await session.execute(
        select(Block.blocker_id, Block.blocked_id).where(or_(Block.blocker_id == user_id, Block.blocked_id == user_id))
    )
    return frozenset(row.blocked_id if row.blocker_id == user_id else row.blocker_id for row in rows)


async def avoided_by_each(session: AsyncSession, user_ids: list[int]) -> dict[int, frozenset[int]]:
    """``avoided`` for each of ``user_ids`` in one query (an empty set for those who block nobody)."""
    ids = sorted(set(user_ids))
    found: dict[int, set[int]] = {user_id: set() for user_id in ids}
    if not ids:
        return {}
    rows = await session.execute(
        select(Block.blocker_id, Block.blocked_id).where(or_(Block.blocker_id.in_(ids), Block.blocked_id.in_(ids)))
    )
    for blocker, blocked in rows:
        if blocker in found:
            found[blocker].add(blocked)
        if blocked in found:
            found[blocked].add(blocker)
    return {user_id: frozenset(others) for user_id, others in found.items()}


async def blocked_between(session: AsyncSession, a: int, b: int) -> bool:
    query = select(Block.blocker_id).where(
        or_(and_(Block.blocker_id == a, Block.blocked_id == b), and_(Block.blocker_id == b, Block.blocked_id == a))
    )
    return (await session.execute(query.limit(1))).first() is not None


# ---- reports


async def add_report(session: AsyncSession, **fields: Any) -> Report:
    report = Report(**fields)
    session.add(report)
    await session.flush()
    return report


async def get_report(session: AsyncSession, report_id: int) -> Report | None:
    return await session.get(Report, report_id)


async def reports(session: AsyncSession, status: str | None, limit: int = 100) -> list[Report]:
    """Reports oldest first (the queue), or every report newest first when ``status`` is None."""
    query = select(Report)
    if status is not None:
        query = query.where(Report.status == status).order_by(Report.id)
    else:
        query = query.order_by(Report.id.desc())
    return list((await session.execute(query.limit(limit))).scalars())


async def open_reports_by(session: AsyncSession, reporter_id: int) -> int:
    query = select(func.count()).select_from(Report).where(Report.reporter_id == reporter_id, Report.status == "received")
    return int((await session.execute(query)).scalar_one())


async def close_report(session: AsyncSession, report_id: int, closed_by: int, resolution: str) -> bool:
    """False when the report was closed already."""
    return await _changed_any(
        session,
        update(Report)
        .where(Report.id == report_id, Report.status == "received")
        .values(status="closed", closed_at=utcnow(), closed_by=closed_by, resolution=resolution),
    )


async def chat_around(session: AsyncSession, game_id: str, v: int | None, limit: int = 10) -> list[GameEvent]:
    """A game's chat events, oldest first, removed lines included: the line at version ``v`` with up to ``limit``
    lines before it and ``limit`` after it; with ``v`` None, the last ``2 * limit`` lines."""
    query = select(GameEvent).where(GameEvent.game_id == game_id, GameEvent.type == "chat")
    if v is None:
        rows = (await session.execute(query.order_by(GameEvent.v.desc()).limit(2 * limit))).scalars()
        return sorted(rows, key=lambda e: e.v)
    before = (await session.execute(query.where(GameEvent.v < v).order_by(GameEvent.v.desc()).limit(limit))).scalars()
    line_and_after = (await session.execute(query.where(GameEvent.v >= v).order_by(GameEvent.v).limit(limit + 1))).scalars()
    return sorted([*before, *line_and_after], key=lambda e: e.v)


async def chat_line(session: AsyncSession, game_id: str, v: int) -> GameEvent | None:
    query = select(GameEvent).where(GameEvent.game_id == game_id, GameEvent.v == v, GameEvent.type == "chat")
    return (await session.execute(query)).scalar_one_or_none()


async def removed_chat(session: AsyncSession, game_id: str) -> set[int]:
    """The versions of a game's chat lines a moderator removed (its ``chat_removed`` events)."""
    rows = await session.execute(select(GameEvent.payload).where(GameEvent.game_id == game_id, GameEvent.type == "chat_removed"))
    return {int(v) for row in rows for v in (row.payload.get("lines") or [])}


# ---- sanctions


@dataclass(frozen=True)
class Standing:
    """What a user is under right now."""

    banned: bool
    suspended_until: datetime | None
    muted_until: datetime | None
    created_at: datetime
    registered_at: datetime | None
    is_guest: bool


async def standing(session: AsyncSession, user_id: int) -> Standing | None:
    row = (
        await session.execute(
            select(User.banned, User.suspended_until, User.muted_until, User.created_at, User.registered_at, User.is_guest).where(
                User.id == user_id
            )
        )
    ).first()
    if row is None:
        return None
    return Standing(bool(row.banned), row.suspended_until, row.muted_until, row.created_at, row.registered_at, bool(row.is_guest))


async def standings(session: AsyncSession, user_ids: set[int]) -> dict[int, Standing]:
    if not user_ids:
        return {}
    rows = await session.execute(
        select(
            User.id, User.banned, User.suspended_until, User.muted_until, User.created_at, User.registered_at, User.is_guest
        ).where(User.id.in_(user_ids))
    )
    return {
        row.id: Standing(
            bool(row.banned), row.suspended_until, row.muted_until, row.created_at, row.registered_at, bool(row.is_guest)
        )
        for row in rows
    }


async def set_sanction(session: AsyncSession, user_id: int, **values: Any) -> None:
    """Set ``banned``, ``suspended_until`` and/or ``muted_until``."""
    await session.execute(update(User).where(User.id == user_id).values(**values))


async def unfinished_games_of(session: AsyncSession, user_id: int) -> list[Game]:
    query = select(Game).where(or_(Game.black_id == user_id, Game.white_id == user_id), Game.status != "finished")
    return list((await session.execute(query)).scalars())


# ---- escapes


@dataclass(frozen=True)
class EscapeRecord:
    games: int  # finished games counted (the most recent ``window``)
    escapes: int  # of them, lost by abandonment or on time without a single move


async def escape_record(session: AsyncSession, user_id: int, window: int) -> EscapeRecord:
    """Over the user's last ``window`` finished games between two people: how many they escaped.

    Aborted and void games do not count; a loss by abandonment does, and so does a loss on time in which the
    user never played a move or pass.
    """
    mine = or_(Game.black_id == user_id, Game.white_id == user_id)
    recent = (
        select(Game.id, Game.black_id, Game.result, Game.ended_by)
        .where(mine, Game.status == "finished", Game.black_id != Game.white_id, Game.ended_by.not_in(("abort", "no_result")))
        .order_by(Game.ended_at.desc().nulls_last(), Game.id.desc())
        .limit(window)
    )
    rows = list((await session.execute(recent)).all())
    escapes = 0
    timeouts: list[tuple[str, str]] = []
    for row in rows:
        colour = "B" if row.black_id == user_id else "W"
        lost = bool(row.result) and not str(row.result).startswith(colour + "+") and "+" in str(row.result)
        if not lost:
            continue
        if row.ended_by == "abandonment":
            escapes += 1
        elif row.ended_by == "timeout":
            timeouts.append((row.id, colour))
    if timeouts:
        moved = await session.execute(
            select(Move.game_id, Move.color).where(Move.game_id.in_([g for g, _ in timeouts])).distinct()
        )
        played = {(row.game_id, row.color) for row in moved}
        escapes += sum(1 for pair in timeouts if pair not in played)
    return EscapeRecord(len(rows), escapes)
