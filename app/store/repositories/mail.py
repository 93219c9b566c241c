"""Queries of the mail tables: the outbox (queue, claim, outcome, caps) and the notices (record, digest).

Times are the mail clock's seconds (floats), as the worker and the API pass them. Inserts that must happen at
most once (a message per key, a notice per event and recipient) are ``INSERT ... ON CONFLICT DO NOTHING`` on
both PostgreSQL and SQLite, and say whether they inserted.
"""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import CursorResult, delete, func, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from app.store.models import Challenge, Game, GameEvent, MailNotice, MailOutbox, User


def _insert_ignoring_conflicts(session: AsyncSession, model: Any, values: dict[str, Any]) -> Any:
    dialect = session.bind.dialect.name if session.bind is not None else "sqlite"
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    return insert(model).values(**values).on_conflict_do_nothing()


async def queue(
    session: AsyncSession,
    *,
    key: str,
    user_id: int | None,
    to_addr: str,
    to_key: str,
    kind: str,
    subject: str,
    body: str,
    now: float,
    unsubscribe_url: str | None = None,
) -> bool:
    """Queue one message under ``key`` (the event and the recipient); False when that key was queued before."""
    statement = _insert_ignoring_conflicts(
        session,
        MailOutbox,
        dict(
            key=key,
            user_id=user_id,
            to_addr=to_addr,
            to_key=to_key,
            kind=kind,
            subject=subject,
            body=body,
            unsubscribe_url=unsubscribe_url,
            state="pending",
            attempts=0,
            next_at=now,
            created_at=now,
        ),
    )
    return cast(CursorResult[Any], await session.execute(statement)).rowcount == 1


async def count_to_address(session: AsyncSession, to_key: str, since: float, kinds: tuple[str, ...]) -> int:
    query = (
        select(func.count())
        .select_from(MailOutbox)
        .where(MailOutbox.to_key == to_key, MailOutbox.created_at >= since, MailOutbox.kind.in_(kinds))
    )
    return int((await session.execute(query)).scalar_one())


async def count_to_user(session: AsyncSession, user_id: int, since: float) -> int:
    query = select(func.count()).select_from(MailOutbox).where(MailOutbox.user_id == user_id, MailOutbox.created_at >= since)
    return int((await session.execute(query)).scalar_one())


async def claim(session: AsyncSession, worker: str, now: float, lease: float, limit: int) -> list[MailOutbox]:
    """Claim up to ``limit`` due messages for ``worker`` until ``now + lease`` and commit.

    One statement: ``UPDATE ... WHERE id IN (due rows) AND <still due>``. On PostgreSQL the inner select skips
    rows another worker has locked (``FOR UPDATE SKIP LOCKED``) and the outer conditions are checked again on
    the row it updates, so two workers never claim the same row; SQLite runs one writer at a time.
    """
    due = (
        MailOutbox.state == "pending",
        MailOutbox.next_at <= now,
        or_(MailOutbox.claim_until.is_(None), MailOutbox.claim_until < now),
    )
    candidates = (
        select(MailOutbox.id)
        .where(*due)
        .order_by(MailOutbox.next_at, MailOutbox.id)
        .limit(limit)
        .with_for_update(skip_locked=True)
    )
    result = await session.execute(
        update(MailOutbox)
        .where(MailOutbox.id.in_(candidates), *due)
        .values(claimed_by=worker, claim_until=now + lease)
        .returning(MailOutbox.id)
        .execution_options(synchronize_session=False)
    )
    ids = [row[0] for row in result]
    await session.commit()
    if not ids:
        return []
    rows = await session.execute(
        select(MailOutbox).where(MailOutbox.id.in_(ids), MailOutbox.claimed_by == worker).order_by(MailOutbox.id)
    )
    return list(rows.scalars())


async def mark_sent(session: AsyncSession, message_id: int, worker: str, now: float) -> None:
    await session.execute(
        update(MailOutbox)
        .where(MailOutbox.id == message_id, MailOutbox.claimed_by == worker)
        .values(state="sent", sent_at=now, attempts=MailOutbox.attempts + 1, claim_until=None, last_error=None)
    )
    await session.commit()


async def mark_failed(session: AsyncSession, message_id: int, worker: str, error: str, next_at: float, give_up: bool) -> None:
    """Put a message back for another try at ``next_at``, or give it up (``failed``)."""
    await session.execute(
        update(MailOutbox)
        .where(MailOutbox.id == message_id, MailOutbox.claimed_by == worker)
        .values(
            state="failed" if give_up else "pending",
            attempts=MailOutbox.attempts + 1,
            next_at=next_at,
            claimed_by=None,
            claim_until=None,
            last_error=error[:500],
        )
    )
    await session.commit()


async def messages_to(session: AsyncSession, to_key: str) -> list[MailOutbox]:
    rows = await session.execute(select(MailOutbox).where(MailOutbox.to_key == to_key).order_by(MailOutbox.id))
    return list(rows.scalars())


# ---- notices


async def add_notice(
    session: AsyncSession, *, user_id: int, kind: str, ref: str, seq: int, payload: dict[str, Any], at: float
) -> int | None:
    """Record a notice once; its id, or None when it was recorded before."""
    statement = _insert_ignoring_conflicts(
        session,
        MailNotice,
        dict(
            user_id=user_id,
            kind=kind,
            ref=ref,
            seq=seq,
            payload=payload,
            state="waiting",
            at=at,
        ),
    ).returning(MailNotice.id)
    return cast(int | None, (await session.execute(statement)).scalar_one_or_none())


async def mark_notices(session: AsyncSession, notice_ids: list[int], state: str = "mailed") -> None:
    """Waiting notices leave the queue: ``mailed``, or ``dropped`` (the player stopped notices)."""
    if notice_ids:
        await session.execute(
            update(MailNotice)
            .where(MailNotice.id.in_(notice_ids), MailNotice.state == "waiting")
            .values(state=state)
            .execution_options(synchronize_session=False)
        )


async def users_with_waiting(session: AsyncSession, before: float, limit: int) -> list[int]:
    """Users with notices waiting since before ``before`` (the digest's moment)."""
    query = (
        select(MailNotice.user_id)
        .where(MailNotice.state == "waiting", MailNotice.at < before)
        .group_by(MailNotice.user_id)
        .order_by(MailNotice.user_id)
        .limit(limit)
    )
    return list((await session.execute(query)).scalars())


async def waiting_for(session: AsyncSession, user_id: int, before: float, limit: int) -> list[MailNotice]:
    query = (
        select(MailNotice)
        .where(MailNotice.user_id == user_id, MailNotice.state == "waiting", MailNotice.at < before)
        .order_by(MailNotice.at, MailNotice.id)
        .limit(limit)
    )
    return list((await session.execute(query)).scalars())


async def notices_of(session: AsyncSession, user_id: int) -> list[MailNotice]:
    query = select(MailNotice).where(MailNotice.user_id == user_id).order_by(MailNotice.id)
    return list((await session.execute(query)).scalars())


# ---- where notices come from


async def max_event_id(session: AsyncSession) -> int:
    return int((await session.execute(select(func.coalesce(func.max(GameEvent.id), 0)))).scalar_one())


async def game_events_after(session: AsyncSession, after_id: int, types: tuple[str, ...], limit: int) -> list[Any]:
    """Game events after ``after_id`` of these types, with their game's time control, players, and where the
    game is now (``move_count``, ``status``)."""
    query = (
        select(
            GameEvent.id,
            GameEvent.game_id,
            GameEvent.v,
            GameEvent.type,
            GameEvent.payload,
            Game.time_control,
            Game.black_id,
            Game.white_id,
            Game.move_count,
            Game.status,
        )
        .join(Game, Game.id == GameEvent.game_id)
        .where(GameEvent.id > after_id, GameEvent.type.in_(types))
        .order_by(GameEvent.id)
        .limit(limit)
    )
    return list(await session.execute(query))


async def game_positions(session: AsyncSession, game_ids: set[str]) -> dict[str, tuple[int, str]]:
    """Where these games are now: (move_count, status) by id."""
    if not game_ids:
        return {}
    rows = await session.execute(select(Game.id, Game.move_count, Game.status).where(Game.id.in_(game_ids)))
    return {row.id: (int(row.move_count), str(row.status)) for row in rows}


async def addressed_challenges_unnoticed(session: AsyncSession, limit: int) -> list[Any]:
    """Open challenges addressed to a person who takes notices and was not told of them yet."""
    noticed = select(MailNotice.id).where(
        MailNotice.kind == "challenge", MailNotice.ref == Challenge.id, MailNotice.user_id == Challenge.opponent_id
    )
    query = (
        select(Challenge.id, Challenge.creator_id, Challenge.opponent_id, Challenge.time_control)
        .join(User, User.id == Challenge.opponent_id)
        .where(
            Challenge.status == "open",
            User.email.is_not(None),
            User.mail_mode != "off",
            User.is_bot.is_(False),
            ~noticed.exists(),
        )
        .order_by(Challenge.created_at)
        .limit(limit)
    )
    return list(await session.execute(query))


async def prune(session: AsyncSession, before: float) -> int:
    """Forget what is done and older than ``before``: sent and failed messages, and notices no longer waiting
    (a challenge's notice only once the challenge is closed, since an open one is looked for by it). Commits;
    how many rows went."""
    messages = await session.execute(
        delete(MailOutbox).where(MailOutbox.state.in_(("sent", "failed")), MailOutbox.created_at < before)
    )
    open_challenge = select(Challenge.id).where(Challenge.id == MailNotice.ref, Challenge.status == "open")
    notices = await session.execute(
        delete(MailNotice)
        .where(
            MailNotice.state != "waiting", MailNotice.at < before, or_(MailNotice.kind != "challenge", ~open_challenge.exists())
        )
        .execution_options(synchronize_session=False)
    )
    await session.commit()
    return sum(cast(CursorResult[Any], r).rowcount for r in (messages, notices))
