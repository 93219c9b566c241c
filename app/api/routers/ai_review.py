"""``/api/games/{id}/review``: KataGo's review of a finished game (docs/review.md)."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict

from app.ai_review.service import AiReviewService
from app.api.deps import DB, RequiredUser
from app.errors import RateLimited
from app.limits.rules import Limiter, Rule

router = APIRouter(prefix="/api", tags=["ai review"])

WINDOW = 3600.0


class ReviewRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    depth: Literal["quick", "deep"] = "quick"


def _service(request: Request) -> AiReviewService:
    return request.app.state.ai_reviews


@router.get("/games/{game_id}/review", summary="KataGo's review of a finished game: state, progress, figures")
async def review(game_id: str, request: Request, db: DB) -> dict:
    return await _service(request).view(db, game_id)


@router.post("/games/{game_id}/review", summary="Ask for KataGo's review of a finished game (quick or deep)")
async def ask(game_id: str, body: ReviewRequest, request: Request, db: DB, user: RequiredUser) -> dict:
    rule = Rule("ai-review", request.app.state.settings.ai_review_requests, WINDOW)
    limiter: Limiter = request.app.state.limiter
    if not await limiter.allow(rule, user.id):
        raise RateLimited("Too many reviews asked for this hour; wait a while.", int(WINDOW), code="review_rate_limited")
    return await _service(request).request(db, game_id, body.depth)
