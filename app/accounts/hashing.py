"""Password hashing off the event loop, in a small pool of worker processes at a lower CPU priority.

An argon2id hash takes about 0.2 s of CPU and 64 MiB of memory by design. Computed on the event loop it
would stall every game on the instance for that long. It runs in ``workers`` spawned processes of their own
(``nice`` +10): on a busy machine the server, and with it every game, goes first, and a hash's memory is
mapped, filled and unmapped in the worker's address space, never the server's. Each hash uses one lane
(``passwords``), so a worker takes at most one core, and each is paced to use on average at most ``share`` of
it (``HashPacer``): a flood at the global log-in limit would otherwise keep a core busy hashing, one that the
database and the games need.

The default ``share`` is 0.25: a hash of about 0.2 s may then start every 0.8 s, 75 password checks a minute
per worker. That is far above what honest log-ins and registrations ask of an instance (a session lasts, so
players log in rarely), while a flood costs at most a quarter of one core, on a 2-core host an eighth of it.
The price is paid only under a flood beyond 75 checks a minute: the queue fills (32 waiting: up to about 26 s)
and further checks, honest ones too, are refused ``busy`` until it drains, as the global log-in limit
(``login_limit_global``, 300 a minute) refuses them beyond its own rate.

At most ``workers`` hashes run at once and at most ``queue`` more wait, for a worker or for its turn: beyond
that a request is refused with ``busy`` (503) at once instead of piling up (the log-in limits keep honest
traffic far below that). The workers start with the first hash; if one dies, the hashes it held are refused
``busy`` and a new pool starts with the next.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from app.accounts import passwords
from app.accounts.hash_pacing import HashPacer
from app.errors import ServiceError
from app.worker_processes import follow_parent, spawn_context

T = TypeVar("T")

log = logging.getLogger(__name__)

HASH_WORKER_NICENESS = 10


def _worker_start() -> None:
    """Run this worker after the server when the CPU is contended, and end it with the server."""
    with contextlib.suppress(AttributeError, OSError):
        os.nice(HASH_WORKER_NICENESS)
    follow_parent()


def _timed(work: Callable[..., T], *args: str) -> tuple[T, float]:
    """``work(*args)`` in the worker, and the CPU time it took there (what the pacing counts)."""
    started = time.process_time()
    result = work(*args)
    return result, time.process_time() - started


def busy() -> ServiceError:
    return ServiceError("busy", "Too many log-ins at once; try again in a moment.", 503)


class PasswordPool:
    """``hash``, ``verify`` and ``burn_time`` in worker processes. The functions are module-level ones sent
    by reference; another ``verify`` may be given (a test's, which waits until the test lets it end), and
    another pacer (a test's, with its own clock)."""

    def __init__(
        self,
        workers: int = 1,
        queue: int = 32,
        verify: Callable[[str, str], bool] = passwords.verify_password,
        share: float = 0.25,
        pacer: HashPacer | None = None,
    ) -> None:
        self.workers = max(1, workers)
        self._verify = verify
        self._pacer = pacer if pacer is not None else HashPacer(share, self.workers)
        self._executor: ProcessPoolExecutor | None = None
        self._slots = self.workers + max(0, queue)
        self._busy = 0

    @property
    def share(self) -> float:
        """The share of a core each worker uses on average, at most."""
        return self._pacer.share

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                self.workers,
                mp_context=spawn_context(),
                initializer=_worker_start,
            )
        return self._executor

    async def _run(self, work: Callable[..., T], *args: str) -> T:
        if self._busy >= self._slots:
            raise busy()
        self._busy += 1
        try:
            async with self._pacer.turn() as turn:
                result, turn.seconds = await self._compute(work, *args)
                return result
        finally:
            self._busy -= 1

    async def _compute(self, work: Callable[..., T], *args: str) -> tuple[T, float]:
        """``work(*args)`` in a worker, and the CPU time it took there."""
        pool = self._pool()
        try:
            return await asyncio.wrap_future(pool.submit(_timed, work, *args))
        except BrokenProcessPool:
            log.warning("a password hashing worker died: the workers are started again")
            if self._executor is pool:
                self._executor = None
                pool.shutdown(wait=False, cancel_futures=True)
            raise busy() from None

    async def hash(self, password: str) -> str:
        return await self._run(passwords.hash_password, password)

    async def verify(self, password_hash: str, password: str) -> bool:
        return await self._run(self._verify, password_hash, password)

    async def burn_time(self, password: str) -> None:
        """As long as a real check: a wrong name costs what a wrong password costs."""
        await self._run(passwords.burn_time, password)

    def close(self) -> None:
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
