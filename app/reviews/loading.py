"""A stored review as a live state, and the live state as a snapshot: the row <-> ``ReviewState`` mapping."""

from __future__ import annotations

from typing import Any, NamedTuple

from sqlalchemy.ext.asyncio import AsyncSession

from app.reviews.limits import COMMENT_CHARS, ReviewLimits
from app.reviews.state import Person, ReviewState
from app.store.models import Review
from app.store.repositories import reviews as reviews_repo
from app.store.repositories import users as users_repo
from app.study import jobs
from app.study.schemas import tree_to_doc
from app.study.tree import Limits, Tree
from app.study.workers import StudyWorkers

BUDGET = 20.0  # seconds a study worker may take to build a review's tree (as for an analysis board's import)


def tree_limits(limits: ReviewLimits) -> Limits:
    """The tree's own caps, with the review's on nodes and comments."""
    return Limits(nodes=limits.nodes, comment=COMMENT_CHARS)


async def read_tree(stored: dict[str, Any], limits: ReviewLimits, workers: StudyWorkers) -> Tree:
    """The stored tree, every move replayed by the rules engine in a study worker process, within ``BUDGET``
    (a large tree holds neither the event loop nor the interpreter lock)."""
    tree: Tree = await workers.run(jobs.doc_to_tree, stored, tree_limits(limits), budget=BUDGET)
    return tree


class LoadedReview(NamedTuple):
    state: ReviewState
    v: int
    seen: dict[tuple[int | None, str], int]  # the latest actions' (user id, client id) -> the version acknowledged


async def load_state(session: AsyncSession, review_id: str, limits: ReviewLimits, workers: StudyWorkers) -> LoadedReview | None:
    """The review's live state, its version and its latest action ids, or None when there is no such review."""
    row = await reviews_repo.get(session, review_id)
    if row is None:
        return None
    controller_id = row.controller_id or row.owner_id
    names = await users_repo.names(session, {row.owner_id, controller_id})
    tree = await read_tree(row.tree, limits, workers)
    current = row.current if row.current in {n.id for n in tree.walk()} else 0
    state = ReviewState(
        id=row.id,
        title=row.title,
        game_id=row.game_id,
        owner=Person(row.owner_id, names.get(row.owner_id, "?")),
        controller=Person(controller_id, names.get(controller_id, "?")),
        tree=tree,
        current=current,
        chat=list(row.chat or []),
        limits=limits,
    )
    seen = {(uid, cid): v for uid, cid, v in row.action_ids or ()}
    return LoadedReview(state, row.version, seen)


def snapshot_view(state: ReviewState) -> dict[str, Any]:
    """``REVIEW`` of docs/protocol.md §9.2: everything a participant needs to show the review."""
    return {
        "id": state.id,
        "title": state.title,
        "game_id": state.game_id,
        "owner": state.owner.view(),
        "controller": state.controller.view(),
        "tree": tree_to_doc(state.tree).model_dump(mode="json"),
        "current": state.current,
        "position": state.position(),
        "chat": list(state.chat),
    }


def summary(review: Review, owner_name: str) -> dict[str, Any]:
    """A review in a list (a game's page, a player's reviews)."""
    return {
        "id": review.id,
        "title": review.title,
        "game_id": review.game_id,
        "owner": {"id": review.owner_id, "name": owner_name},
        "board_size": review.board_size,
        "created_at": review.created_at.isoformat(),
        "updated_at": review.updated_at.isoformat(),
        "url": f"#/reviews/{review.id}",
    }
