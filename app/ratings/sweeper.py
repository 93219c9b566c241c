"""Rating games as they end, and the sweep that catches any game whose update was not made.

``game_finished`` starts the update right after the room that ended the game committed it. Whatever that
misses (the instance died between the game's end and the update, the database failed, or the game ended on
another instance) the sweep finds: once when the instance starts and then every ``interval`` seconds, on every
instance. Each update is exactly once whoever makes it (see :mod:`app.ratings.service`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.ratings import service

log = logging.getLogger(__name__)


class RatingSweeper:
    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession], tau: float, interval: float) -> None:
        self.sessionmaker = sessionmaker
        self.tau = tau
        self.interval = interval
        self._task: asyncio.Task[None] | None = None
        self._pending: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        self._task = asyncio.create_task(self._loop(), name="tengen-rating-sweep")

    def game_finished(self, game_id: str) -> None:
        task = asyncio.create_task(self._rate(game_id), name=f"tengen-rate-{game_id}")
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _rate(self, game_id: str) -> None:
        try:
            await service.rate(self.sessionmaker, game_id, self.tau)
        except Exception:  # the sweep makes the update later
            log.warning("rating game %s failed; the sweep retries it", game_id, exc_info=True)

    async def _loop(self) -> None:
        while True:
            try:
                rated = await service.sweep(self.sessionmaker, self.tau)
                if rated:
                    log.info("rating sweep: %d game(s) updated", rated)
            except Exception:  # retried on the next round
                log.warning("rating sweep failed", exc_info=True)
            await asyncio.sleep(self.interval)

    async def close(self) -> None:
        tasks = [t for t in (self._task, *self._pending) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
