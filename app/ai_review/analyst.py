"""One review job (a game or an uploaded record), run by an analyst (``tengen analyst``, or the one ``tengen
serve`` runs in process).

A job computes the positions of one game at one depth that are not stored at that depth or deeper yet, so a
job that stopped (a restart, a crash) resumes where it stopped and never computes a stored position again. The
figures are stored as they arrive, a batch at a time, then announced on the game's socket (``ai_review``).
KataGo gets the questions a few at a time (one more than it analyses at once, so that the engine service hands
it the next the moment it answers one), so that it never waits for the database, the hub or this loop between
two positions.

Visits: the quick pass spends ``ai_review_quick_seconds`` of the engine's measured speed on each position (at
least two visits: the position's own evaluation and one for its best move), the deep pass
``ai_review_deep_seconds``. Questions are asked at ``Priority.BACKGROUND`` for the automatic reviews of rated
games and at ``Priority.ESTIMATE`` for a review someone asked for (read again from the review row at each batch:
someone may ask for an automatic review while it runs): counting always goes first, and background work yields
to everything.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import cast

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.ai_review.live.news import publish
from app.ai_review.messages import AiReviewNews, Depth, Progress, RawFigure, State
from app.ai_review.raw import Reviewed, raw_figure, replayed, reviewed
from app.ai_review.subjects import stored_game
from app.engines.analysis import Analysis
from app.engines.lane import Priority
from app.engines.rules import RulesNotMapped
from app.engines.service import EngineService
from app.store.repositories import ai_reviews
from app.transport.hub import Hub

log = logging.getLogger("tengen.ai_review")

BATCH_SECONDS = 1.0  # figures are stored and announced at least this often while they arrive
BATCH_POSITIONS = 20  # ... or this many at a time
MIN_VISITS = 2  # the position itself, and its best move (one visit alone names no candidate)


class ReviewFailed(Exception):
    """The game cannot be reviewed (no such game, a board or komi KataGo does not take): no retry helps."""


@dataclass(frozen=True)
class Budget:
    quick_seconds: float
    deep_seconds: float

    def visits(self, depth: str, evals_per_second: float | None) -> int:
        seconds = self.quick_seconds if depth == "quick" else self.deep_seconds
        return max(MIN_VISITS, int((evals_per_second or 0.0) * seconds))


class Analyst:
    def __init__(
        self, sessionmaker: async_sessionmaker[AsyncSession], engines: EngineService, hub: Hub | None, budget: Budget
    ) -> None:
        self.sessionmaker = sessionmaker
        self.engines = engines
        self.hub = hub
        self.budget = budget
        self.evaluations = 0  # positions this analyst computed (every job): the bench's count
        self._priority: dict[str, Priority] = {}  # the engine priority of each subject under way here

    async def run(self, subject: str, depth: str) -> None:
        """Compute what is missing of ``subject`` (a game, or ``record:<id>``) at ``depth``; engine errors
        propagate (the job is retried)."""
        async with self.sessionmaker() as session:
            review = await ai_reviews.get(session, subject)
            stored = await stored_game(session, subject)
            if review is None or stored is None:
                return
            depths = await ai_reviews.stored_depths(session, subject)
            await ai_reviews.set_state(session, subject, "running")
        try:
            target = reviewed(await asyncio.to_thread(replayed, *stored))
        except (RulesNotMapped, ValueError) as exc:  # BadMove: a record whose move the rules refuse
            raise ReviewFailed(str(exc)) from None
        todo = [i for i in range(target.total) if i not in depths or not ai_reviews.at_least(depths[i], depth)]
        await self._announce(subject, "running", {})
        if self.engines.evals_per_second(target.start.size) is None:
            await self._engine_ready(target.start.size)
        visits = self.budget.visits(depth, self.engines.evals_per_second(target.start.size))
        self._priority[subject] = Priority.BACKGROUND if review.automatic else Priority.ESTIMATE
        try:
            await self._compute(subject, target, depth, todo, visits)
        finally:
            self._priority.pop(subject, None)
        async with self.sessionmaker() as session:
            review = await ai_reviews.get(session, subject)
            if review is None:
                return
            if ai_reviews.at_least(depth, review.depth):  # else a deeper job is queued behind this one
                await ai_reviews.set_state(session, subject, "done")
                await self._announce(subject, "done", {})

    async def fail(self, subject: str, why: str) -> None:
        async with self.sessionmaker() as session:
            await ai_reviews.set_state(session, subject, "failed", why[:200])
        await self._announce(subject, "failed", {})

    async def _engine_ready(self, size: int) -> None:
        """A process just started measures its speed first: wait for it (a minute at most) rather than budget
        the visits blind."""
        for _ in range(240):
            if self.engines.evals_per_second(size) is not None or self.engines.state in ("failed", "off", "missing"):
                return
            await asyncio.sleep(0.25)

    async def _compute(self, subject: str, target: Reviewed, depth: str, todo: list[int], visits: int) -> None:
        pending: list[tuple[int, str, dict]] = []
        last = time.monotonic()
        # one question more than KataGo analyses at once: the lane sends it the moment an answer frees a thread
        width = 1 + max(1, sum(lane.parallel for lane in self.engines.lanes))
        queue = iter(todo)
        running: dict[asyncio.Task[Analysis], int] = {}

        def ask() -> None:
            for i in queue:
                task = asyncio.ensure_future(self.engines.analyze(target.question(i, visits), self._priority[subject]))
                running[task] = i
                return

        try:
            for _ in range(width):
                ask()
            while running:
                done, _ = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
                for task in done:
                    i = running.pop(task)
                    pending.append((i, depth, raw_figure(i, depth, task.result())))
                    self.evaluations += 1
                    ask()
                if len(pending) >= BATCH_POSITIONS or time.monotonic() - last >= BATCH_SECONDS or not running:
                    await self._store(subject, pending)
                    pending, last = [], time.monotonic()
        finally:
            for task in running:
                task.cancel()
            if pending:  # what arrived before an error is kept
                await asyncio.shield(self._store(subject, pending))

    async def _store(self, subject: str, figures: list[tuple[int, str, dict]]) -> None:
        async with self.sessionmaker() as session:
            written = await ai_reviews.store(session, subject, figures)
            review = await ai_reviews.get(session, subject)
        if review is None:  # an uploaded record deleted under way: stop asking KataGo about it
            raise ReviewFailed(f"{subject} was deleted")
        if review is not None and not review.automatic and subject in self._priority:
            self._priority[subject] = Priority.ESTIMATE  # someone asked for it meanwhile: the rest at their priority
        await self._announce(subject, "running", {i: figure for i, _, figure in figures if i in written})

    async def _announce(self, subject: str, state: str, figures: dict[int, dict]) -> None:
        """The news on the game's channel; an uploaded record has none (its owner's page asks GET)."""
        if self.hub is None or ai_reviews.record_id(subject) is not None:
            return
        async with self.sessionmaker() as session:
            review = await ai_reviews.get(session, subject)
            if review is None:
                return
            done = await ai_reviews.done_count(session, subject, review.depth)
        news = AiReviewNews(
            game_id=subject,
            state=cast(State, state),
            depth=cast(Depth, review.depth),  # quick or deep: the table's check
            progress=Progress(done=done, total=review.total),
            positions={str(i): RawFigure.model_validate(figure) for i, figure in figures.items()},
        )
        await publish(self.hub, news)
