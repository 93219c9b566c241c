"""What a review is of: a finished game, or a record its uploader stored (``record:<id>``): the stored game as
``raw.replayed`` takes it, from wherever it is kept."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.store.repositories import ai_reviews, games

StoredMoves = list[tuple[str, int | None, int | None]]


async def stored_game(session: AsyncSession, subject: str) -> tuple[dict[str, Any], StoredMoves] | None:
    """The subject's config (GameConfig.to_dict()) and moves ``(colour, x, y)``, or None when it is gone."""
    record = ai_reviews.record_id(subject)
    if record is not None:
        row = await ai_reviews.get_record(session, record)
        if row is None:
            return None
        return row.config, [(colour, x, y) for colour, x, y in row.moves]
    game = await games.get(session, subject)
    if game is None:
        return None
    return game.config, [(m.color, m.x, m.y) for m in await games.moves(session, subject)]
