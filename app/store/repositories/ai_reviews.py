"""Queries on KataGo's reviews of finished games and uploaded records (app/ai_review): the review row, and its
figures position by position, each stored as it arrives; and the uploaded records themselves.

A review's ``subject`` is the game's id, or ``record:`` and the record's id (``record_subject``)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.store.models import AiReview, AiReviewPosition, AiReviewRecord, User
from app.store.ids import short_id
from app.store.types import utcnow

DEPTHS = ("quick", "deep")  # shallow to deep: a figure of a depth stands for every depth before it
UNFINISHED = ("queued", "running")


RECORD = "record:"


def record_subject(record: str) -> str:
    """The review subject of an uploaded record (a game id never holds a colon: app/store/ids.py)."""
    return RECORD + record


def record_id(subject: str) -> str | None:
    """The record a review subject names, or None (a game)."""
    return subject[len(RECORD) :] if subject.startswith(RECORD) else None


def at_least(stored: str, wanted: str) -> bool:
    """Whether a figure of depth ``stored`` is as deep as ``wanted``."""
    return DEPTHS.index(stored) >= DEPTHS.index(wanted)


async def get(session: AsyncSession, subject: str) -> AiReview | None:
    return await session.get(AiReview, subject, populate_existing=True)


async def request(session: AsyncSession, subject: str, depth: str, total: int, automatic: bool = False) -> tuple[AiReview, bool]:
    """Ask for the review of ``subject`` at ``depth`` (committed): a new row, or the existing one taken deeper
    (a deep request after a quick one) and queued again unless it is queued or running at that depth already.
    Returns the row and whether there is work to queue (False: done or under way at that depth or deeper; True
    too for an automatic review still waiting that someone now asks for: its job is raised)."""
    review = await get(session, subject)
    if review is None:
        record = record_id(subject)
        session.add(
            AiReview(
                subject=subject,
                game_id=None if record is not None else subject,
                record_id=record,
                depth=depth,
                state="queued",
                total=total,
                evaluations=0,
                automatic=automatic,
            )
        )
        try:
            await session.commit()
        except IntegrityError:  # another instance asked at the same moment: take its row
            await session.rollback()
            return await request(session, subject, depth, total, automatic)
        review = await get(session, subject)
        assert review is not None
        return review, True
    deeper = not at_least(review.depth, depth)
    if not deeper and review.state in UNFINISHED and review.automatic and not automatic:
        # someone asks for an automatic review under way: theirs from now on (the job waiting is raised, the
        # analyst working it reads this), queued again only while it waits
        await session.execute(update(AiReview).where(AiReview.subject == subject).values(automatic=False, updated_at=utcnow()))
        await session.commit()
        raised = await get(session, subject)
        assert raised is not None
        return raised, raised.state == "queued"
    if not deeper and review.state in ("done", *UNFINISHED):
        return review, False
    await session.execute(
        update(AiReview)
        .where(AiReview.subject == subject)
        .values(depth=depth if deeper else review.depth, state="queued", error=None, automatic=False, updated_at=utcnow())
    )
    await session.commit()
    review = await get(session, subject)
    assert review is not None
    return review, True


async def set_state(session: AsyncSession, subject: str, state: str, error: str | None = None) -> None:
    await session.execute(
        update(AiReview).where(AiReview.subject == subject).values(state=state, error=error, updated_at=utcnow())
    )
    await session.commit()


async def unfinished(session: AsyncSession) -> list[AiReview]:
    """Every review queued or under way, oldest first (a worker queues them again at its start)."""
    rows = await session.scalars(select(AiReview).where(AiReview.state.in_(UNFINISHED)).order_by(AiReview.requested_at))
    return list(rows)


async def positions(session: AsyncSession, subject: str) -> list[AiReviewPosition]:
    rows = await session.scalars(select(AiReviewPosition).where(AiReviewPosition.subject == subject).order_by(AiReviewPosition.i))
    return list(rows)


async def figures(session: AsyncSession, subject: str, total: int) -> list[dict[str, Any] | None]:
    """The stored figures of the game's ``total`` positions, by index (None: not computed)."""
    out: list[dict[str, Any] | None] = [None] * total
    for row in await positions(session, subject):
        if row.i < total:
            out[row.i] = row.figure
    return out


async def stored_depths(session: AsyncSession, subject: str) -> dict[int, str]:
    """Position index → the depth of its stored figure."""
    rows = await session.execute(select(AiReviewPosition.i, AiReviewPosition.depth).where(AiReviewPosition.subject == subject))
    return {i: depth for i, depth in rows.all()}


async def done_count(session: AsyncSession, subject: str, depth: str) -> int:
    """Positions whose figure is as deep as ``depth``."""
    wanted = DEPTHS[DEPTHS.index(depth) :]
    count = await session.scalar(
        select(func.count()).where(AiReviewPosition.subject == subject, AiReviewPosition.depth.in_(wanted))
    )
    return int(count or 0)


async def store(session: AsyncSession, subject: str, figures: list[tuple[int, str, dict[str, Any]]]) -> list[int]:
    """Store a batch of figures ``(i, depth, figure)`` (committed), each counted once in the review's
    ``evaluations``: a new position is inserted, a quick one replaced by a deep one; a figure as deep as one
    stored already is not written, nor anything of a review deleted meanwhile. Returns the indexes written."""
    if await get(session, subject) is None:  # deleted meanwhile (an uploaded record): nothing to keep
        return []
    stored = await stored_depths(session, subject)
    written = []
    for i, depth, figure in figures:
        if i not in stored:
            session.add(AiReviewPosition(subject=subject, i=i, depth=depth, figure=figure))
        elif not at_least(stored[i], depth):
            await session.execute(
                update(AiReviewPosition)
                .where(AiReviewPosition.subject == subject, AiReviewPosition.i == i)
                .values(depth=depth, figure=figure)
            )
        else:
            continue
        written.append(i)
    if written:
        await session.execute(
            update(AiReview)
            .where(AiReview.subject == subject)
            .values(evaluations=AiReview.evaluations + len(written), updated_at=utcnow())
        )
    await session.commit()
    return written


# ---- uploaded records -------------------------------------------------------------------------------------


async def add_record(
    session: AsyncSession,
    user_id: int,
    title: str,
    size: int,
    config: dict[str, Any],
    moves: list[list[Any]],
    cap: int,
    review_id: str | None = None,
) -> AiReviewRecord | None:
    """Store an uploaded record of ``user_id`` (committed), or None when they hold ``cap`` already. The count and
    the insert are one transaction under a lock on the user's row, so that two uploads at once cannot both pass
    the cap (SQLite: one writer at a time anyway)."""
    await session.execute(select(User.id).where(User.id == user_id).with_for_update())
    held = await session.scalar(select(func.count()).where(AiReviewRecord.user_id == user_id))
    if int(held or 0) >= cap:
        await session.rollback()
        return None
    record = AiReviewRecord(
        id=short_id(), user_id=user_id, title=title, board_size=size, config=config, moves=moves, review_id=review_id
    )
    session.add(record)
    await session.commit()
    return record


async def get_record(session: AsyncSession, record: str) -> AiReviewRecord | None:
    return await session.get(AiReviewRecord, record, populate_existing=True)


async def records_of(session: AsyncSession, user_id: int) -> list[tuple[AiReviewRecord, AiReview | None]]:
    """The user's records, newest first, each with its review row (None: never asked)."""
    rows = await session.execute(
        select(AiReviewRecord, AiReview)
        .outerjoin(AiReview, AiReview.record_id == AiReviewRecord.id)
        .where(AiReviewRecord.user_id == user_id)
        .order_by(AiReviewRecord.created_at.desc(), AiReviewRecord.id)
    )
    return [(record, review) for record, review in rows.all()]


async def delete_record(session: AsyncSession, record: str) -> None:
    """Delete the record (committed); its review and figures go with it (their cascades)."""
    await session.execute(delete(AiReviewPosition).where(AiReviewPosition.subject == record_subject(record)))
    await session.execute(delete(AiReview).where(AiReview.record_id == record))
    await session.execute(delete(AiReviewRecord).where(AiReviewRecord.id == record))
    await session.commit()
