"""Queries on KataGo's reviews of finished games (app/ai_review): the review row, and its figures position by
position, each stored as it arrives."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.store.models import AiReview, AiReviewPosition
from app.store.types import utcnow

DEPTHS = ("quick", "deep")  # shallow to deep: a figure of a depth stands for every depth before it
UNFINISHED = ("queued", "running")


def at_least(stored: str, wanted: str) -> bool:
    """Whether a figure of depth ``stored`` is as deep as ``wanted``."""
    return DEPTHS.index(stored) >= DEPTHS.index(wanted)


async def get(session: AsyncSession, game_id: str) -> AiReview | None:
    return await session.get(AiReview, game_id, populate_existing=True)


async def request(session: AsyncSession, game_id: str, depth: str, total: int, automatic: bool = False) -> tuple[AiReview, bool]:
    """Ask for the review of ``game_id`` at ``depth`` (committed): a new row, or the existing one taken deeper
    (a deep request after a quick one) and queued again unless it is queued or running at that depth already.
    Returns the row and whether there is work to queue (False: done or under way at that depth or deeper)."""
    review = await get(session, game_id)
    if review is None:
        session.add(AiReview(game_id=game_id, depth=depth, state="queued", total=total, evaluations=0, automatic=automatic))
        try:
            await session.commit()
        except IntegrityError:  # another instance asked at the same moment: take its row
            await session.rollback()
            return await request(session, game_id, depth, total, automatic)
        review = await get(session, game_id)
        assert review is not None
        return review, True
    deeper = not at_least(review.depth, depth)
    if not deeper and review.state in ("done", *UNFINISHED):
        return review, False
    await session.execute(
        update(AiReview)
        .where(AiReview.game_id == game_id)
        .values(depth=depth if deeper else review.depth, state="queued", error=None, automatic=False, updated_at=utcnow())
    )
    await session.commit()
    review = await get(session, game_id)
    assert review is not None
    return review, True


async def set_state(session: AsyncSession, game_id: str, state: str, error: str | None = None) -> None:
    await session.execute(
        update(AiReview).where(AiReview.game_id == game_id).values(state=state, error=error, updated_at=utcnow())
    )
    await session.commit()


async def unfinished(session: AsyncSession) -> list[AiReview]:
    """Every review queued or under way, oldest first (a worker queues them again at its start)."""
    rows = await session.scalars(select(AiReview).where(AiReview.state.in_(UNFINISHED)).order_by(AiReview.requested_at))
    return list(rows)


async def positions(session: AsyncSession, game_id: str) -> list[AiReviewPosition]:
    rows = await session.scalars(select(AiReviewPosition).where(AiReviewPosition.game_id == game_id).order_by(AiReviewPosition.i))
    return list(rows)


async def figures(session: AsyncSession, game_id: str, total: int) -> list[dict[str, Any] | None]:
    """The stored figures of the game's ``total`` positions, by index (None: not computed)."""
    out: list[dict[str, Any] | None] = [None] * total
    for row in await positions(session, game_id):
        if row.i < total:
            out[row.i] = row.figure
    return out


async def stored_depths(session: AsyncSession, game_id: str) -> dict[int, str]:
    """Position index → the depth of its stored figure."""
    rows = await session.execute(select(AiReviewPosition.i, AiReviewPosition.depth).where(AiReviewPosition.game_id == game_id))
    return {i: depth for i, depth in rows.all()}


async def done_count(session: AsyncSession, game_id: str, depth: str) -> int:
    """Positions whose figure is as deep as ``depth``."""
    wanted = DEPTHS[DEPTHS.index(depth) :]
    count = await session.scalar(
        select(func.count()).where(AiReviewPosition.game_id == game_id, AiReviewPosition.depth.in_(wanted))
    )
    return int(count or 0)


async def store(session: AsyncSession, game_id: str, figures: list[tuple[int, str, dict[str, Any]]]) -> list[int]:
    """Store a batch of figures ``(i, depth, figure)`` (committed), each counted once in the review's
    ``evaluations``: a new position is inserted, a quick one replaced by a deep one; a figure as deep as one
    stored already is not written. Returns the indexes written."""
    stored = await stored_depths(session, game_id)
    written = []
    for i, depth, figure in figures:
        if i not in stored:
            session.add(AiReviewPosition(game_id=game_id, i=i, depth=depth, figure=figure))
        elif not at_least(stored[i], depth):
            await session.execute(
                update(AiReviewPosition)
                .where(AiReviewPosition.game_id == game_id, AiReviewPosition.i == i)
                .values(depth=depth, figure=figure)
            )
        else:
            continue
        written.append(i)
    if written:
        await session.execute(
            update(AiReview)
            .where(AiReview.game_id == game_id)
            .values(evaluations=AiReview.evaluations + len(written), updated_at=utcnow())
        )
    await session.commit()
    return written
