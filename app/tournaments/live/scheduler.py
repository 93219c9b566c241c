"""The scheduler: every instance runs it, every ``interval`` seconds, and each tick moves every running event
on (app/tournaments/service.py, ``tick``). Instances never repeat each other's steps: each step takes the
tournament's row lock and moves the round's status by compare-and-set, so two instances ticking at once do one
step between them and the other finds nothing to do."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from app.tournaments.service import TournamentService

log = logging.getLogger(__name__)


class TournamentScheduler:
    def __init__(self, service: TournamentService, interval: float) -> None:
        self.service = service
        self.interval = interval
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._loop(), name="tengen-tournaments")

    async def _loop(self) -> None:
        while True:
            try:
                await self.service.tick()
            except Exception:  # the database was away: the next tick does it
                log.warning("tournament tick failed", exc_info=True)
            await asyncio.sleep(self.interval)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
