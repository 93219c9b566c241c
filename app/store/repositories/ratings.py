"""Queries on ratings: the players' figures, the once-per-game updates and each game's before/after figures."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select, text, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.store.models import Game, PlayerRating, RatingChange, RatingUpdate, User
from app.store.types import utcnow


def _insert(session: AsyncSession, table: Any) -> Any:
    assert session.bind is not None
    return (pg_insert if session.bind.dialect.name == "postgresql" else sqlite_insert)(table)


def is_postgres(session: AsyncSession) -> bool:
    return session.bind is not None and session.bind.dialect.name == "postgresql"


async def ensure(session: AsyncSession, starts: dict[tuple[int, str], tuple[float, float, float]]) -> None:
    """Create the rows that do not exist yet with their starting figures.

    The first statement of a rating transaction: a write, so SQLite takes its write lock before anything is read.
    """
    rows = [
        {"user_id": uid, "category": cat, "rating": r, "deviation": d, "volatility": v, "games": 0, "updated_at": utcnow()}
        for (uid, cat), (r, d, v) in sorted(starts.items())
    ]
    await session.execute(_insert(session, PlayerRating).values(rows).on_conflict_do_nothing())


async def lock(session: AsyncSession, keys: Iterable[tuple[int, str]]) -> dict[tuple[int, str], PlayerRating]:
    """The rows, locked until the transaction ends (``FOR UPDATE``, in key order so two games never deadlock)."""
    wanted = sorted(set(keys))
    found: dict[tuple[int, str], PlayerRating] = {}
    for uid, cat in wanted:
        row = (
            await session.execute(
                select(PlayerRating)
                .where(PlayerRating.user_id == uid, PlayerRating.category == cat)
                .with_for_update()
                .execution_options(populate_existing=True)
            )
        ).scalar_one()
        found[(uid, cat)] = row
    return found


async def lock_all(session: AsyncSession) -> None:
    """Stop every rating update until the transaction ends (a rebuild); on SQLite the first write does it."""
    if is_postgres(session):
        await session.execute(text("LOCK TABLE ratings IN EXCLUSIVE MODE"))


async def done(session: AsyncSession, game_id: str) -> bool:
    return (await session.execute(select(RatingUpdate.seq).where(RatingUpdate.game_id == game_id))).first() is not None


async def record(session: AsyncSession, game_id: str, status: str, reason: str | None = None) -> int | None:
    """Record the game's update; None when it was recorded already (then nothing else may be written)."""
    result = await session.execute(
        _insert(session, RatingUpdate)
        .values(game_id=game_id, status=status, reason=reason, created_at=utcnow())
        .on_conflict_do_nothing()
        .returning(RatingUpdate.seq)
    )
    seq = result.scalar_one_or_none()
    return None if seq is None else int(seq)


async def add_changes(session: AsyncSession, rows: list[dict[str, Any]]) -> None:
    if rows:
        await session.execute(_insert(session, RatingChange), rows)


async def annul(session: AsyncSession, game_id: str) -> bool:
    """Mark a rated game's update annulled; False when the game was not rated."""
    result = await session.execute(
        update(RatingUpdate)
        .where(RatingUpdate.game_id == game_id, RatingUpdate.status == "rated")
        .values(status="annulled", reason="moderator")
    )
    return bool(getattr(result, "rowcount", 0))


async def pending_game_ids(session: AsyncSession, limit: int) -> list[str]:
    """Finished games whose rating update has not been made, oldest ending first."""
    query = (
        select(Game.id)
        .outerjoin(RatingUpdate, RatingUpdate.game_id == Game.id)
        .where(Game.status == "finished", RatingUpdate.seq.is_(None))
        .order_by(Game.ended_at, Game.id)
        .limit(limit)
    )
    return list((await session.execute(query)).scalars())


async def of_user(session: AsyncSession, user_id: int) -> list[PlayerRating]:
    return list((await session.execute(select(PlayerRating).where(PlayerRating.user_id == user_id))).scalars())


async def of_users(session: AsyncSession, user_ids: set[int], category: str) -> dict[int, PlayerRating]:
    if not user_ids:
        return {}
    rows = await session.execute(
        select(PlayerRating).where(PlayerRating.user_id.in_(user_ids), PlayerRating.category == category)
    )
    return {r.user_id: r for r in rows.scalars()}


async def history(session: AsyncSession, user_id: int, category: str, limit: int) -> list[RatingChange]:
    """The user's last ``limit`` changes in ``category``, oldest first."""
    query = (
        select(RatingChange)
        .where(RatingChange.user_id == user_id, RatingChange.category == category)
        .order_by(RatingChange.seq.desc())
        .limit(limit)
    )
    return list(reversed(list((await session.execute(query)).scalars())))


async def changes_for_games(session: AsyncSession, game_ids: Sequence[str]) -> list[RatingChange]:
    if not game_ids:
        return []
    query = select(RatingChange).where(RatingChange.game_id.in_(game_ids), RatingChange.category == "overall")
    return list((await session.execute(query)).scalars())


async def leaderboard(session: AsyncSession, category: str, offset: int, limit: int) -> list[tuple[PlayerRating, User]]:
    """Registered players with at least one rated game in ``category``, strongest first."""
    query = (
        select(PlayerRating, User)
        .join(User, User.id == PlayerRating.user_id)
        .where(PlayerRating.category == category, PlayerRating.games > 0, User.is_guest.is_(False))
        .order_by(PlayerRating.rating.desc(), User.id)
        .offset(offset)
        .limit(limit)
    )
    return [(r, u) for r, u in (await session.execute(query)).all()]


async def count_leaderboard(session: AsyncSession, category: str) -> int:
    query = (
        select(func.count())
        .select_from(PlayerRating)
        .join(User, User.id == PlayerRating.user_id)
        .where(PlayerRating.category == category, PlayerRating.games > 0, User.is_guest.is_(False))
    )
    return int((await session.execute(query)).scalar_one())


# -- rebuild --------------------------------------------------------------------------------------------------


async def clear_changes(session: AsyncSession) -> None:
    await session.execute(delete(RatingChange))


async def all_rows_with_strength(session: AsyncSession) -> list[tuple[int, str, str | None]]:
    rows = await session.execute(
        select(PlayerRating.user_id, PlayerRating.category, User.strength).join(User, User.id == PlayerRating.user_id)
    )
    return [(uid, cat, strength) for uid, cat, strength in rows.all()]


async def rated_games_in_order(session: AsyncSession) -> list[tuple[int, Game]]:
    """Every rated game with its update's ``seq``, in the order the updates were applied."""
    rows = await session.execute(
        select(RatingUpdate.seq, Game)
        .join(Game, Game.id == RatingUpdate.game_id)
        .where(RatingUpdate.status == "rated")
        .order_by(RatingUpdate.seq)
    )
    return [(seq, game) for seq, game in rows.all()]


async def write_figures(session: AsyncSession, rows: list[dict[str, Any]], now: datetime) -> None:
    for row in rows:
        await session.execute(
            update(PlayerRating)
            .where(PlayerRating.user_id == row["user_id"], PlayerRating.category == row["category"])
            .values(
                rating=row["rating"], deviation=row["deviation"], volatility=row["volatility"], games=row["games"], updated_at=now
            )
        )


async def snapshot(session: AsyncSession) -> dict[str, Any]:
    """Every figure and every change, for comparing two computations of the same history."""
    figures = (
        await session.execute(
            select(
                PlayerRating.user_id,
                PlayerRating.category,
                PlayerRating.rating,
                PlayerRating.deviation,
                PlayerRating.volatility,
                PlayerRating.games,
            ).order_by(PlayerRating.user_id, PlayerRating.category)
        )
    ).all()
    changes = (
        await session.execute(
            select(
                RatingChange.seq,
                RatingChange.game_id,
                RatingChange.user_id,
                RatingChange.category,
                RatingChange.rating_before,
                RatingChange.deviation_before,
                RatingChange.volatility_before,
                RatingChange.rating_after,
                RatingChange.deviation_after,
                RatingChange.volatility_after,
            ).order_by(RatingChange.seq, RatingChange.user_id, RatingChange.category)
        )
    ).all()
    return {"figures": [tuple(r) for r in figures], "changes": [tuple(r) for r in changes]}


async def rank_inputs(
    session: AsyncSession, user_ids: set[int], category: str = "overall"
) -> list[tuple[int, bool, str | None, float | None, float | None]]:
    """For each user: id, is_guest, declared strength, and the rating and deviation in ``category`` if any."""
    if not user_ids:
        return []
    rows = await session.execute(
        select(User.id, User.is_guest, User.strength, PlayerRating.rating, PlayerRating.deviation)
        .outerjoin(PlayerRating, (PlayerRating.user_id == User.id) & (PlayerRating.category == category))
        .where(User.id.in_(user_ids))
    )
    return [(uid, guest, strength, r, d) for uid, guest, strength, r, d in rows.all()]
