"""Asking for a review and reading it (the web side): ``GET``/``POST /api/games/{id}/review``.

Who may ask (decision, owned here): any signed-in visitor, guests included, for any finished game: every finished
game on Tengen is public, and so is its record; the count per user is bounded (``ai_review_requests`` an hour,
``review_rate_limited``). Nobody, players included, sees or starts the engine's view of a game in progress
(``review_game_live``): checked here, on every read, against the game's status at that moment.

Uploaded records (decision, owned here): a signed-in player's own, read and reviewed by them alone (anyone else
is told ``record_not_found``: a record may be a private game, and nothing in it is shared); to show its review
to others, they make a shared review of it. Capped a user (``too_many_records``), in bytes and in moves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.ai_review import figures
from app.ai_review.jobs import ReviewQueue
from app.engines.analysis import Colour, Point
from app.games.config import GameConfig
from app.errors import Conflict, NotFound, ServiceError
from app.store.models import AiReviewRecord, Game
from app.store.repositories import ai_reviews, games, reviews

FINISHED = "finished"


def derived(
    size: int, config: dict[str, Any], moves: list[tuple[Colour, Point | None]], raw: list[dict[str, Any] | None]
) -> dict[str, Any]:
    """The derived figures (``app/ai_review/figures.py``: points lost, mistakes, summary, changed hands), the
    handicap stones down before the first move, as KataGo was asked (``raw.reviewed``)."""
    handicap = [(p[0], p[1]) for p in GameConfig.from_dict(config).handicap_points]
    return figures.derive(size, moves, raw, {"B": handicap, "W": []})


class AiReviewService:
    def __init__(self, queue: ReviewQueue, analysts: str | None, limits: RecordLimits) -> None:
        """``analysts``: why no analyst can work the queue (None: one can), refused as ``engine_unavailable``."""
        self.queue = queue
        self.no_analyst = analysts
        self.limits = limits

    async def view(self, session: AsyncSession, game_id: str) -> dict[str, Any]:
        game = await _finished_game(session, game_id)
        moves = [(m.color, m.x, m.y) for m in await games.moves(session, game_id)]
        return {"game_id": game_id, **await _view(session, game_id, game.board_size, game.config, moves)}

    async def request(self, session: AsyncSession, game_id: str, depth: str, automatic: bool = False) -> dict[str, Any]:
        """Queue the review at ``depth`` (nothing to do when it is done or under way at that depth)."""
        await _finished_game(session, game_id)
        await self._queue(session, game_id, depth, len(await games.moves(session, game_id)) + 1, automatic)
        return await self.view(session, game_id)

    async def game_finished(self, session: AsyncSession, game_id: str) -> None:
        """A rated game ended: its quick review, in the background (nothing when no analyst can run)."""
        game = await games.get(session, game_id)
        if game is None or not game.rated or self.no_analyst is not None:
            return
        await self.request(session, game_id, "quick", automatic=True)

    async def _queue(self, session: AsyncSession, subject: str, depth: str, total: int, automatic: bool) -> None:
        if self.no_analyst is not None:
            raise ServiceError("engine_unavailable", f"No analyst can review games here: {self.no_analyst}", 503)
        review, queue = await ai_reviews.request(session, subject, depth, total, automatic)
        if queue:
            await self.queue.defer(subject, review.depth, review.automatic)

    # ---- uploaded records (docs/review.md, "Uploaded records") -------------------------------------------------
    async def upload(
        self, session: AsyncSession, user_id: int, read: dict[str, Any], review_id: str | None = None
    ) -> dict[str, Any]:
        """Store a record read by ``records.read_record`` (its refusal raised) and queue its quick review;
        ``review_id``: the shared review it is the record of (its page then shows this review to the uploader)."""
        if review_id is not None and await reviews.get(session, review_id) is None:
            raise NotFound("review_not_found", "No such review.")
        if "refused" in read:
            details: dict[str, int | str] = {k: read[k] for k in ("move", "reason") if k in read}
            raise ServiceError(read["refused"], read["message"], 422, details)
        if self.no_analyst is not None:  # before storing what could never be reviewed
            raise ServiceError("engine_unavailable", f"No analyst can review games here: {self.no_analyst}", 503)
        record = await ai_reviews.add_record(
            session, user_id, read["title"], read["size"], read["config"], read["moves"], self.limits.records, review_id
        )
        if record is None:
            raise Conflict(
                "too_many_records",
                f"You keep {self.limits.records} records for review at most; delete one to upload another.",
            )
        return await self.request_record(session, user_id, record.id, "quick")

    async def record_view(self, session: AsyncSession, user_id: int, record_id: str) -> dict[str, Any]:
        record = await _own_record(session, user_id, record_id)
        moves = [(colour, x, y) for colour, x, y in record.moves]
        subject = ai_reviews.record_subject(record.id)
        view = await _view(session, subject, record.board_size, record.config, moves)
        return {**_record_summary(record), **_record_game(record), **view}

    async def request_record(self, session: AsyncSession, user_id: int, record_id: str, depth: str) -> dict[str, Any]:
        record = await _own_record(session, user_id, record_id)
        await self._queue(session, ai_reviews.record_subject(record.id), depth, len(record.moves) + 1, False)
        return await self.record_view(session, user_id, record_id)

    async def records(self, session: AsyncSession, user_id: int) -> dict[str, Any]:
        rows = await ai_reviews.records_of(session, user_id)
        listed = [
            {**_record_summary(record), "state": "none" if review is None else review.state, "depth": review and review.depth}
            for record, review in rows
        ]
        return {"records": listed, "limit": self.limits.records}

    async def delete_record(self, session: AsyncSession, user_id: int, record_id: str) -> None:
        record = await _own_record(session, user_id, record_id)
        await ai_reviews.delete_record(session, record.id)


@dataclass(frozen=True)
class RecordLimits:
    records: int  # records a user keeps at once (too_many_records)
    max_bytes: int  # an uploaded SGF (record_too_large)
    max_moves: int  # moves of an uploaded record (record_too_long): each is an evaluation


def _record_summary(record: AiReviewRecord) -> dict[str, Any]:
    return {
        "record_id": record.id,
        "title": record.title,
        "review_id": record.review_id,
        "size": record.board_size,
        "move_count": len(record.moves),
        "created_at": record.created_at.isoformat(),
    }


def _record_game(record: AiReviewRecord) -> dict[str, Any]:
    """What the page draws the record's board from: its rules, komi, handicap stones and moves."""
    config = GameConfig.from_dict(record.config)
    return {
        "rules": config.rules.name,
        "komi": config.rules.komi,
        "handicap_points": [list(p) for p in config.handicap_points],
        "moves": record.moves,
    }


async def _view(
    session: AsyncSession, subject: str, size: int, config: dict[str, Any], moves: list[tuple[str, int | None, int | None]]
) -> dict[str, Any]:
    review = await ai_reviews.get(session, subject)
    positions = await ai_reviews.figures(session, subject, len(moves) + 1)
    depth = None if review is None else review.depth
    done = sum(1 for p in positions if p is not None and depth is not None and ai_reviews.at_least(p["depth"], depth))
    line: list[tuple[Colour, Point | None]] = [
        ("B" if colour == "B" else "W", None if x is None or y is None else (x, y)) for colour, x, y in moves
    ]
    return {
        "state": "none" if review is None else review.state,
        "depth": depth,
        "progress": {"done": done, "total": len(positions)},
        "positions": positions,
        **({"error": review.error} if review is not None and review.error else {}),
        **derived(size, config, line, positions),
    }


async def _own_record(session: AsyncSession, user_id: int, record_id: str) -> AiReviewRecord:
    """The record, to its uploader only: anyone else is told there is no such record (nothing says it exists)."""
    record = await ai_reviews.get_record(session, record_id)
    if record is None or record.user_id != user_id:
        raise NotFound("record_not_found", "No such record.")
    return record


async def _finished_game(session: AsyncSession, game_id: str) -> Game:
    game = await games.get(session, game_id)
    if game is None:
        raise NotFound("game_not_found", "No such game.")
    if game.status != FINISHED:
        raise Conflict("review_game_live", "The engine's view of a game is shown once it has ended.")
    return game
