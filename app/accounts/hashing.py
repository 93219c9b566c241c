"""Password hashing off the event loop, on a bounded pool of threads.

An argon2id hash takes about 150 ms of CPU by design. Computed on the event loop it would stall every game on
the instance for that long; argon2-cffi releases the GIL, so on threads it runs beside the loop. At most
``threads`` hashes run at once and at most ``queue`` more wait: beyond that a request is refused with
``busy`` (503) at once instead of piling up (the log-in limits keep honest traffic far below that). The
threads run at a lower scheduling priority (``nice`` +10 on Linux), so on a busy machine the event loop, and
with it every game, goes first.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from app.accounts import passwords
from app.errors import ServiceError

T = TypeVar("T")


HASH_THREAD_NICENESS = 10


def _lower_priority() -> None:
    """Run this thread after the event loop's when the CPU is contended (a Linux thread has its own nice)."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), HASH_THREAD_NICENESS)


class PasswordPool:
    def __init__(self, threads: int = 2, queue: int = 32) -> None:
        self.threads = max(1, threads)
        self._executor = ThreadPoolExecutor(self.threads, thread_name_prefix="tengen-argon2", initializer=_lower_priority)
        self._slots = self.threads + max(0, queue)
        self._busy = 0

    async def _run(self, work: Callable[..., T], *args: str) -> T:
        if self._busy >= self._slots:
            raise ServiceError("busy", "Too many log-ins at once; try again in a moment.", 503)
        self._busy += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._executor, work, *args)
        finally:
            self._busy -= 1

    async def hash(self, password: str) -> str:
        return await self._run(passwords.hash_password, password)

    async def verify(self, password_hash: str, password: str) -> bool:
        return await self._run(passwords.verify_password, password_hash, password)

    async def burn_time(self, password: str) -> None:
        """As long as a real check: a wrong name costs what a wrong password costs."""
        await self._run(passwords.burn_time, password)

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
