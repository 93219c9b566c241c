"""Long-running tasks a component owns: started with it, cancelled and awaited when it closes."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from abc import ABC, abstractmethod
from collections.abc import Coroutine
from typing import Any

log = logging.getLogger(__name__)


class BackgroundTask:
    def __init__(self, name: str) -> None:
        self.name = name
        self._task: asyncio.Task[None] | None = None

    def start(self, work: Coroutine[Any, Any, None]) -> None:
        self._task = asyncio.get_running_loop().create_task(work, name=self.name)

    async def close(self) -> None:
        """Cancel the task and wait until it has stopped; nothing to do when it never started."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


class Periodic(ABC):
    """``run_once`` every ``interval`` seconds from ``start`` until ``close``, the first one an interval after
    the start. A round that fails is logged and the next one comes all the same."""

    def __init__(self, name: str, interval: float) -> None:
        self.interval = interval
        self._task = BackgroundTask(name)

    def start(self) -> None:
        self._task.start(self._loop())

    async def close(self) -> None:
        await self._task.close()

    @abstractmethod
    async def run_once(self) -> object: ...

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            try:
                await self.run_once()
            except Exception:  # tried again next time
                log.exception("%s failed", self._task.name)
