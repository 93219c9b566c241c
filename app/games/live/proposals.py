"""The dead-stone proposal of a game entering scoring, computed away from the event loop within a time budget.

The proposal (``app.games.chains.proposal_points``: the rules engine's ``Game.propose_dead`` widened to
whole chains) takes tenths of a second on 19x19, all of it Python bytecode: on the event loop, or in a thread
holding the interpreter lock, it would stall every other game of the instance. It runs in worker processes
(spawned, so nothing of the server's threads or sockets is inherited), started on first use. A proposal that
takes longer than the budget is given up: scoring starts with no stone proposed dead, and the players mark
the dead stones themselves. The room records the proposal with the action that started scoring (the fact
``dead``), so rebuilding the game never computes it again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from app.games.chains import proposal_points
from app.worker_processes import follow_parent, spawn_context

log = logging.getLogger(__name__)

BUDGET_SECONDS = 5.0
WORKERS = 2


class DeadStoneProposer:
    """``await propose(game)`` -> the proposed dead stones as ``[[x, y], ...]`` (empty when over the budget).

    ``compute`` must be a module-level function (it is sent to a worker process by reference).
    """

    def __init__(
        self, budget: float = BUDGET_SECONDS, workers: int = WORKERS, compute: Callable[[Any], list[list[int]]] = proposal_points
    ) -> None:
        self.budget = budget
        self.workers = workers
        self.compute = compute
        self.given_up = 0  # proposals abandoned (over the budget, or a worker died)
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=spawn_context(), initializer=follow_parent)
        return self._pool

    async def propose(self, game: Any) -> list[list[int]]:
        try:
            future = self._executor().submit(self.compute, game)
            points: list[list[int]] = await asyncio.wait_for(asyncio.wrap_future(future), self.budget)
            return points
        except TimeoutError:
            log.warning("dead-stone proposal over its %.1f s budget: scoring starts with none proposed", self.budget)
        except BrokenProcessPool:
            log.warning("dead-stone proposal worker died: scoring starts with none proposed")
            self._drop_pool()
        self.given_up += 1
        return []

    def _drop_pool(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        self._drop_pool()
