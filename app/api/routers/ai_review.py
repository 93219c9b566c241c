"""``/api/games/{id}/review`` and ``/api/ai-reviews/records``: KataGo's review of a finished game or of a record
its player uploaded (docs/review.md)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request, Response
from pydantic import BaseModel, ConfigDict

from app.ai_review import records
from app.ai_review.service import AiReviewService
from app.api.deps import DB, RequiredUser
from app.errors import RateLimited, ServiceError
from app.limits.rules import Limiter, Rule
from app.study.workers import StudyWorkers

router = APIRouter(prefix="/api", tags=["ai review"])

WINDOW = 3600.0
READ_BUDGET = 10.0  # seconds a study worker may spend reading an uploaded record


class ReviewRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    depth: Literal["quick", "deep"] = "quick"


def _service(request: Request) -> AiReviewService:
    return request.app.state.ai_reviews


async def _limit(request: Request, user_id: int) -> None:
    """Reviews asked for by one user an hour (games and records alike: each one is engine time)."""
    rule = Rule("ai-review", request.app.state.settings.ai_review_requests, WINDOW)
    limiter: Limiter = request.app.state.limiter
    if not await limiter.allow(rule, user_id):
        raise RateLimited("Too many reviews asked for this hour; wait a while.", int(WINDOW), code="review_rate_limited")


@router.get("/games/{game_id}/review", summary="KataGo's review of a finished game: state, progress, figures")
async def review(game_id: str, request: Request, db: DB) -> dict:
    return await _service(request).view(db, game_id)


@router.post("/games/{game_id}/review", summary="Ask for KataGo's review of a finished game (quick or deep)")
async def ask(game_id: str, body: ReviewRequest, request: Request, db: DB, user: RequiredUser) -> dict:
    await _limit(request, user.id)
    return await _service(request).request(db, game_id, body.depth)


@router.post("/ai-reviews/records", summary="Upload an SGF record (the request body) for KataGo's review")
async def upload(
    request: Request, db: DB, user: RequiredUser, review: Annotated[str | None, Query(max_length=16)] = None
) -> dict:
    service = _service(request)
    data = bytearray()
    async for chunk in request.stream():  # never more than the cap read into memory
        data += chunk
        if len(data) > service.limits.max_bytes:
            raise ServiceError("record_too_large", f"A record may hold at most {service.limits.max_bytes} bytes.", 413)
    if not data.strip():
        raise ServiceError("bad_sgf", "The record is empty.", 422)
    await _limit(request, user.id)
    workers: StudyWorkers = request.app.state.study_workers
    read = await workers.run(records.read_record, bytes(data), service.limits.max_moves, budget=READ_BUDGET)
    return await service.upload(db, user.id, read, review)


@router.get("/ai-reviews/records", summary="The signed-in player's uploaded records, newest first")
async def mine(request: Request, db: DB, user: RequiredUser) -> dict:
    return await _service(request).records(db, user.id)


@router.get("/ai-reviews/records/{record_id}", summary="An uploaded record's review (its uploader only)")
async def record_review(record_id: str, request: Request, db: DB, user: RequiredUser) -> dict:
    return await _service(request).record_view(db, user.id, record_id)


@router.post("/ai-reviews/records/{record_id}/review", summary="Ask for a deeper review of an uploaded record")
async def ask_record(record_id: str, body: ReviewRequest, request: Request, db: DB, user: RequiredUser) -> dict:
    await _limit(request, user.id)
    return await _service(request).request_record(db, user.id, record_id, body.depth)


@router.delete("/ai-reviews/records/{record_id}", status_code=204, summary="Delete an uploaded record and its review")
async def delete(record_id: str, request: Request, db: DB, user: RequiredUser) -> Response:
    await _service(request).delete_record(db, user.id, record_id)
    return Response(status_code=204)
