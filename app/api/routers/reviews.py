"""``/api/reviews``: make a shared review (from a finished game or an uploaded SGF record), read one, list a
game's reviews and one's own, download one as SGF. The live room is ``/ws/reviews/{id}`` (review_ws.py)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, model_validator

from app.api.deps import DB, OptionalUser, Visiting
from app.errors import NotFound
from app.field_limits import AtMost
from app.reviews import service
from app.reviews.limits import TITLE_CHARS, ReviewLimits
from app.reviews.loading import summary
from app.store.repositories import reviews as reviews_repo
from app.store.repositories import users as users_repo
from app.study import jobs

router = APIRouter(prefix="/api", tags=["reviews"])


class ReviewCreate(BaseModel):
    """Exactly one source: ``game_id`` (a finished game) or ``sgf`` (the text of an SGF record; the whole body
    is capped at ``TENGEN_MAX_BODY_BYTES``, 64 KiB)."""

    model_config = ConfigDict(extra="forbid")
    game_id: Annotated[str, Field(min_length=1, max_length=16)] | None = None
    sgf: Annotated[str, Field(min_length=1)] | None = None
    title: Annotated[str, AtMost(TITLE_CHARS, "title_too_long", f"a review's title holds at most {TITLE_CHARS} characters")] = ""

    @model_validator(mode="after")
    def _one_source(self) -> "ReviewCreate":
        if (self.game_id is None) == (self.sgf is None):
            raise ValueError("give either game_id or sgf")
        return self


def _limits(request: Request) -> ReviewLimits:
    return request.app.state.review_limits


async def _owner_name(db: DB, owner_id: int) -> str:
    return (await users_repo.names(db, {owner_id})).get(owner_id, "?")


@router.post("/reviews", status_code=201, summary="Make a shared review of a finished game or an SGF record")
async def create(request: Request, db: DB, visitor: Visiting, body: ReviewCreate) -> dict:
    limits, workers = _limits(request), request.app.state.study_workers
    if body.game_id is not None:
        tree, title = await service.tree_of_game(db, workers, body.game_id, limits)
    else:
        assert body.sgf is not None
        tree, title = await service.tree_of_record(workers, body.sgf, limits)
    user = await visitor.user()
    review = await service.create(db, user, tree, body.title or title, body.game_id, limits)
    return summary(review, user.name)


@router.get("/reviews/{review_id}", summary="One review (its list entry; the tree comes with the live room)")
async def detail(review_id: str, db: DB) -> dict:
    review = await reviews_repo.get(db, review_id)
    if review is None:
        raise NotFound("review_not_found", "No such review.")
    return summary(review, await _owner_name(db, review.owner_id))


@router.get(
    "/reviews/{review_id}/sgf", summary="The review's tree as SGF, with every variation and comment", response_class=Response
)
async def sgf(request: Request, review_id: str, db: DB) -> Response:
    review = await reviews_repo.get(db, review_id)
    if review is None:
        raise NotFound("review_not_found", "No such review.")
    text = await request.app.state.study_workers.run(jobs.doc_to_sgf, review.tree, budget=service.BUDGET)
    return Response(
        text,
        media_type="application/x-go-sgf",
        headers={"Content-Disposition": f'attachment; filename="tengen-review-{review_id}.sgf"'},
    )


@router.get("/games/{game_id}/reviews", summary="The reviews of a game, newest first")
async def of_game(game_id: str, db: DB, limit: int = Query(default=50, ge=1, le=100)) -> dict:
    rows = await reviews_repo.list_for_game(db, game_id, limit)
    return {"reviews": [summary(row.review, row.owner.name) for row in rows]}


@router.get("/me/reviews", summary="My reviews, the most recently changed first")
async def mine(db: DB, user: OptionalUser, limit: int = Query(default=50, ge=1, le=100)) -> dict:
    if user is None:
        return {"reviews": []}
    return {"reviews": [summary(review, user.name) for review in await reviews_repo.list_for_owner(db, user.id, limit)]}
