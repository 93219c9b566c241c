"""Making a review: from a finished game's record or from an uploaded SGF record, within the caps.

The tree is built by the study workers (``app.study.workers``: spawned processes, a time budget per job),
then read again here with the review's own caps before it is stored.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import Conflict, NotFound, RateLimited, ServiceError
from app.reviews.limits import TITLE_CHARS, ReviewLimits
from app.reviews.loading import BUDGET, read_tree
from app.store.ids import short_id
from app.store.models import Review, User
from app.store.repositories import games as games_repo
from app.store.repositories import reviews as reviews_repo
from app.store.types import utcnow
from app.study import jobs
from app.study.games import game_line
from app.study.schemas import SetupDoc, tree_to_doc
from app.study.tree import Tree, TreeError
from app.study.workers import StudyWorkers


async def _tree(workers: StudyWorkers, limits: ReviewLimits, fn: Any, *args: Any) -> Tree:
    """The tree ``fn(*args)`` builds in a study worker, read with the review's caps; refusals keep the tree's
    codes (``bad_sgf``, a move's or a limit's code) with 422."""
    try:
        doc = await workers.run(fn, *args, budget=BUDGET)
        return await read_tree(doc, limits, workers)
    except TreeError as exc:
        raise ServiceError(exc.code, f"The record cannot be reviewed: {exc.message}", 422) from None


async def tree_of_record(workers: StudyWorkers, text: str, limits: ReviewLimits) -> tuple[Tree, str]:
    """An uploaded SGF record (its text: characters already, whatever its CA says) as a tree, and a title (its
    name, else its players)."""
    tree = await _tree(workers, limits, jobs.sgf_to_doc, text)
    title = tree.info.get("name") or " – ".join(filter(None, (tree.info.get("black"), tree.info.get("white"))))
    return tree, title


async def tree_of_game(session: AsyncSession, workers: StudyWorkers, game_id: str, limits: ReviewLimits) -> tuple[Tree, str]:
    """A finished game's moves as the main line of a tree, and a title naming its players."""
    game = await games_repo.get(session, game_id)
    if game is None:
        raise NotFound("game_not_found", "No such game.")
    if game.status != "finished":
        raise Conflict("game_not_finished", "A game can be reviewed once it is over.")
    setup, info, line = await game_line(session, game_id, None)
    tree = await _tree(workers, limits, jobs.line_to_doc, SetupDoc.of(setup).model_dump(), info, line)
    return tree, f"{info['black']} – {info['white']}"


async def create(session: AsyncSession, owner: User, tree: Tree, title: str, game_id: str | None, limits: ReviewLimits) -> Review:
    """Store a new review led by its owner from the start of ``tree``."""
    if await reviews_repo.made_since(session, owner.id, utcnow() - timedelta(days=1)) >= limits.per_day:
        raise RateLimited(f"You can make {limits.per_day} reviews a day.", 3600, code="too_many_reviews")
    review = Review(
        id=short_id(),
        owner_id=owner.id,
        controller_id=None,
        game_id=game_id,
        title=(title.strip() or "Review")[:TITLE_CHARS],
        board_size=tree.setup.size,
        tree=tree_to_doc(tree).model_dump(mode="json"),
        current=0,
        chat=[],
        version=0,
    )
    return await reviews_repo.add(session, review)
