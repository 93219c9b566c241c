"""Asking for a review and reading it (the web side): ``GET``/``POST /api/games/{id}/review``.

Who may ask (decision, owned here): any signed-in visitor, guests included, for any finished game: every finished
game on Tengen is public, and so is its record; the count per user is bounded (``ai_review_requests`` an hour,
``review_rate_limited``). Nobody, players included, sees or starts the engine's view of a game in progress
(``review_game_live``): checked here, on every read, against the game's status at that moment.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.ai_review import figures
from app.ai_review.jobs import ReviewQueue
from app.engines.analysis import Colour, Point
from app.games.config import GameConfig
from app.errors import Conflict, NotFound, ServiceError
from app.store.models import Game
from app.store.repositories import ai_reviews, games

FINISHED = "finished"


def derived(game: Game, moves: list[tuple[Colour, Point | None]], raw: list[dict[str, Any] | None]) -> dict[str, Any]:
    """The derived figures (``app/ai_review/figures.py``: points lost, mistakes, summary, changed hands), the
    handicap stones down before the first move, as KataGo was asked (``raw.reviewed``)."""
    handicap = [(p[0], p[1]) for p in GameConfig.from_dict(game.config).handicap_points]
    return figures.derive(game.board_size, moves, raw, {"B": handicap, "W": []})


class AiReviewService:
    def __init__(self, queue: ReviewQueue, analysts: str | None) -> None:
        """``analysts``: why no analyst can work the queue (None: one can), refused as ``engine_unavailable``."""
        self.queue = queue
        self.no_analyst = analysts

    async def view(self, session: AsyncSession, game_id: str) -> dict[str, Any]:
        game = await _finished_game(session, game_id)
        moves = await games.moves(session, game_id)
        review = await ai_reviews.get(session, game_id)
        positions = await ai_reviews.figures(session, game_id, len(moves) + 1)
        depth = None if review is None else review.depth
        done = sum(1 for p in positions if p is not None and depth is not None and ai_reviews.at_least(p["depth"], depth))
        line: list[tuple[Colour, Point | None]] = [
            ("B" if m.color == "B" else "W", None if m.x is None or m.y is None else (m.x, m.y)) for m in moves
        ]
        return {
            "game_id": game_id,
            "state": "none" if review is None else review.state,
            "depth": depth,
            "progress": {"done": done, "total": len(positions)},
            "positions": positions,
            **({"error": review.error} if review is not None and review.error else {}),
            **derived(game, line, positions),
        }

    async def request(self, session: AsyncSession, game_id: str, depth: str, automatic: bool = False) -> dict[str, Any]:
        """Queue the review at ``depth`` (nothing to do when it is done or under way at that depth)."""
        await _finished_game(session, game_id)
        if self.no_analyst is not None:
            raise ServiceError("engine_unavailable", f"No analyst can review games here: {self.no_analyst}", 503)
        total = len(await games.moves(session, game_id)) + 1
        review, queue = await ai_reviews.request(session, game_id, depth, total, automatic)
        if queue:
            await self.queue.defer(game_id, review.depth, review.automatic)
        return await self.view(session, game_id)

    async def game_finished(self, session: AsyncSession, game_id: str) -> None:
        """A rated game ended: its quick review, in the background (nothing when no analyst can run)."""
        game = await games.get(session, game_id)
        if game is None or not game.rated or self.no_analyst is not None:
            return
        await self.request(session, game_id, "quick", automatic=True)


async def _finished_game(session: AsyncSession, game_id: str) -> Game:
    game = await games.get(session, game_id)
    if game is None:
        raise NotFound("game_not_found", "No such game.")
    if game.status != FINISHED:
        raise Conflict("review_game_live", "The engine's view of a game is shown once it has ended.")
    return game
