"""One SGF archive of a tournament's games: a zip with a record per game, named by round and board. Records
are read from the store (the moves of each game) and zipped off the event loop."""

from __future__ import annotations

import asyncio
import io
import zipfile

from sqlalchemy.ext.asyncio import AsyncSession

from app.lobby.records import game_record
from app.records.sgf import export_sgf
from app.store.repositories import games
from app.store.repositories import tournaments as repo

MAX_GAMES = 5000  # a 1,000-player event of a few rounds; beyond, the archive stops (said in its index)


async def sgf_zip(session: AsyncSession, tournament_id: str) -> bytes:
    """The zip of every game of the event that has a record: ``round-01/board-001-<game>.sgf``."""
    texts: list[tuple[str, str]] = []
    boards = [b for b in await repo.pairings(session, tournament_id) if b.game_id][:MAX_GAMES]
    for b in boards:
        assert b.game_id is not None
        row = await games.get_with_players(session, b.game_id)
        if row is None:
            continue
        record = game_record(row, await games.moves(session, b.game_id))
        texts.append((f"round-{b.round:02d}/board-{b.board:03d}-{b.game_id}.sgf", export_sgf(record)))
    return await asyncio.to_thread(_zip, texts)


def _zip(texts: list[tuple[str, str]]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, text in texts:
            archive.writestr(name, text)
    return buffer.getvalue()
