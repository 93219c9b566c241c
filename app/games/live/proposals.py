"""The dead-stone proposal of a game entering scoring, computed away from the event loop within a time budget.

The proposal (``app.games.chains.proposal_points``: the rules engine's ``Game.propose_dead`` widened to
whole chains) takes tenths of a second on 19x19, all of it Python bytecode: on the event loop, or in a thread
holding the interpreter lock, it would stall every other game of the instance. It runs in worker processes
(spawned, so nothing of the server's threads or sockets is inherited), started on first use. A proposal that
takes longer than the budget is given up: scoring starts with no stone proposed dead, and the players mark
the dead stones themselves. The room records the proposal with the action that started scoring (the fact
``dead``), so rebuilding the game never computes it again.

With KataGo (``engines``, the instance's engine service), KataGo's ownership proposes the dead stones first
(``app.engines.dead_stones``: the board asked with each side to move, at counting's priority) when its process
for the board size is ready and answers within the budget; the chains it is unsure of are proposed alive and
listed as ``uncertain``. A chain the two readings dispute is decided by the side to move, and killed only
with the rules engine's playouts agreeing: those are asked of the same worker processes, within what is left of
the budget, only when a disputed chain leans dead (``dead_stones.ask``'s ``settle``). Otherwise (no KataGo, not
ready, over the budget, an engine error) the proposal is the rules engine's as above. ``judge`` says whose it is
(``katago`` or ``rules``), and is recorded with it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from app.engines import dead_stones
from app.engines.errors import EngineUnavailable
from app.engines.rules import RulesNotMapped
from app.engines.service import EngineService
from app.errors import ServiceError
from app.games.chains import proposal_points
from app.games.errors import GameError
from app.worker_processes import follow_parent, spawn_context

log = logging.getLogger(__name__)

BUDGET_SECONDS = 5.0
WORKERS = 2


class DeadStoneProposer:
    """``await propose(game)`` -> the proposal as the facts recorded with the action: ``dead`` (``[[x, y], ...]``,
    empty when over the budget), ``uncertain`` (the same, KataGo's unsure chains) and ``judge``.

    ``compute`` must be a module-level function (it is sent to a worker process by reference).
    """

    def __init__(
        self,
        budget: float = BUDGET_SECONDS,
        workers: int = WORKERS,
        compute: Callable[[Any], list[list[int]]] = proposal_points,
        engines: EngineService | None = None,
    ) -> None:
        self.budget = budget
        self.engines = engines
        self.workers = workers
        self.compute = compute
        self.given_up = 0  # proposals abandoned (over the budget, or a worker died)
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=spawn_context(), initializer=follow_parent)
        return self._pool

    async def propose(self, game: Any) -> dict[str, Any]:
        if self.engines is not None and self.engines.evals_per_second(game.size) is not None:
            try:
                return await self.katago(game)
            except TimeoutError:
                log.info("KataGo's dead-stone proposal over its %.1f s budget: the rules engine's instead", self.budget)
            except (ServiceError, RulesNotMapped) as exc:
                log.info("KataGo's dead-stone proposal failed (%s): the rules engine's instead", exc)
        return {"dead": await self.rules_proposal(game), "uncertain": [], "judge": "rules"}

    async def second_opinion(self, game: Any) -> dict[str, Any]:
        """KataGo's proposal asked for by a player (``ask_engine``); a ``GameError`` with the engine's code when it
        cannot give one (``engine_unavailable``, ``engine_busy``, ``engine_failed``)."""
        try:
            return await self.katago(game)
        except TimeoutError:
            raise GameError("engine_failed", f"KataGo did not answer within {self.budget:g} s") from None
        except ServiceError as exc:
            raise GameError(exc.code, exc.message) from None
        except RulesNotMapped as exc:
            raise GameError("engine_unavailable", str(exc)) from None

    async def katago(self, game: Any) -> dict[str, Any]:
        """KataGo's proposal alone, within the budget (``TimeoutError``; the engine's errors as they come)."""
        if self.engines is None:
            raise EngineUnavailable("KataGo does not run on this server.")
        judgement = await dead_stones.ask(self.engines, game, self.budget, settle=self.playouts)
        return {"dead": judgement.dead, "uncertain": judgement.uncertain, "judge": "katago"}

    async def playouts(self, game: Any, seconds: float) -> set[tuple[int, int]] | None:
        """The rules engine's dead stones of ``game`` (``compute`` in a worker process) within ``seconds``; None when
        it has none in time (KataGo's proposal then kills nothing on the side to move's word alone)."""
        try:
            future = self._executor().submit(self.compute, game)
            points: list[list[int]] = await asyncio.wait_for(asyncio.wrap_future(future), seconds)
        except TimeoutError:
            return None
        except BrokenProcessPool:
            self._drop_pool()
            return None
        return {(x, y) for x, y in points}

    async def rules_proposal(self, game: Any) -> list[list[int]]:
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
