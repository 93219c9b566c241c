"""``/api/practice``: a practice board where one person plays both colours under the server's rules.

A practice game is an ordinary game whose black and white are the same user: never rated, never announced in
the lobby, and left out of the live games list. The room lets that user act as the side to move.
"""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict

from app.api.deps import DB, Lobby, Visiting
from app.lobby.caps import check_untimed_games
from app.lobby.starting import create_game, game_started
from app.lobby.views import game_url
from app.store.repositories import games

router = APIRouter(prefix="/api/practice", tags=["practice"])

PRACTICE_RULES = "chinese"


class PracticeCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    size: Literal[9, 13, 19] = 9


@router.post("", status_code=201, summary="Start a practice game: you play both colours (not rated, not listed)")
async def create(request: Request, db: DB, visitor: Visiting, lobby: Lobby, body: PracticeCreate | None = None) -> dict:
    size = (body or PracticeCreate()).size
    user = await visitor.user(commit=False)  # stored with the game
    await check_untimed_games(db, request.app.state.caps, user.id, practice=True)
    game = await create_game(
        db,
        board_size=size,
        rules=PRACTICE_RULES,
        komi=None,
        handicap=0,
        time_control={"kind": "none"},
        practice=True,
        rated=False,
        black_id=user.id,
        white_id=user.id,
    )
    await db.commit()
    row = await games.get_with_players(db, game.id)
    assert row is not None
    await game_started(request.app.state.hub, lobby, row)  # as every new game (a practice game is not announced)
    return {"game_id": game.id, "url": game_url(game.id)}
