"""Worker processes for a study's slow work: positions, score estimates, SGF import and export.

All of it is Python bytecode (replaying a line of up to a thousand moves, hundreds of random playouts,
parsing a record of hundreds of kilobytes): on the event loop, or in a thread holding the interpreter lock,
it would stall every game of the instance. It runs in a pool of spawned processes of its own, apart from
the dead-stone proposals of games entering scoring (``app.games.live.proposals``), so that a crowd of people
studying never delays a game's counting.

Each job has a time budget. A job over its budget is answered ``busy`` and the pool is terminated (a process
cannot be asked to stop a running function), failing the jobs it still held, and a fresh pool starts with
the next job. Jobs beyond ``queue`` waiting at once are refused ``busy`` at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from multiprocessing.pool import Pool
from typing import Any

from app.errors import ServiceError
from app.study.tree import TreeError
from app.worker_processes import follow_parent, spawn_context

log = logging.getLogger(__name__)


def busy() -> ServiceError:
    return ServiceError("study_busy", "The analysis workers are busy; try again in a moment.", 503)


class StudyWorkers:
    def __init__(self, processes: int = 2, queue: int = 32) -> None:
        self.processes = processes
        self.queue = queue
        self.given_up = 0  # jobs over their budget
        self._pool: Pool | None = None
        self._waiting: dict[asyncio.Future[Any], Pool] = {}  # each job waiting, and the pool running it

    def _get_pool(self) -> Pool:
        if self._pool is None:
            self._pool = spawn_context().Pool(self.processes, initializer=follow_parent)
        return self._pool

    async def run(self, fn: Callable[..., Any], *args: Any, budget: float) -> Any:
        """``fn(*args)`` in a worker process (``fn`` a module-level function). A ``TreeError`` it raises is
        raised here; ServiceError ``busy`` (503) over the budget or with too many jobs waiting."""
        if len(self._waiting) >= self.queue:
            raise busy()
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()

        def settle(ok: bool, value: Any) -> None:
            if future.done():
                return
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)

        pool = self._get_pool()
        self._waiting[future] = pool
        try:
            pool.apply_async(
                fn,
                args,
                callback=lambda v: loop.call_soon_threadsafe(settle, True, v),
                error_callback=lambda e: loop.call_soon_threadsafe(settle, False, e),
            )
            return await asyncio.wait_for(asyncio.shield(future), budget)
        except TimeoutError:
            self.given_up += 1
            log.warning("study job %s over its %.1f s budget: the workers are restarted", fn.__name__, budget)
            await self._restart(pool)
            raise busy() from None
        except TreeError:
            raise
        except ServiceError:
            raise
        except Exception as exc:  # a worker died or the function failed unexpectedly
            log.exception("study job %s failed", fn.__name__)
            raise busy() from exc
        finally:
            self._waiting.pop(future, None)

    async def _restart(self, pool: Pool) -> None:
        if self._pool is pool:
            self._pool = None
        for waiting, its_pool in list(self._waiting.items()):
            if its_pool is pool and not waiting.done():
                waiting.set_exception(busy())
        await asyncio.to_thread(pool.terminate)

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.terminate()
