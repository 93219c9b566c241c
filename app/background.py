"""One long-running task a component owns: started with it, cancelled and awaited when it closes."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Coroutine
from typing import Any


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
