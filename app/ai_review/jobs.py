"""The reviews' job queue: procrastinate (docs/review.md, "The job queue", says why it and not arq or saq).

One job is one (subject, depth), the subject a game's id or an uploaded record's (``record:<id>``): deferred with
the queueing lock ``ai_review:<subject>:<depth>``, so that however many instances ask, one such job at most waits
in the queue, and with the lock ``ai_review:<subject>``, so that no two jobs of one subject ever run at once on
any worker (a deep job waits for the quick one of its subject, and finds its
positions stored). A job computes only the positions not stored at its depth yet (``analyst.py``): the review
rows, not the queue, are the truth of what is done.

- PostgreSQL: the jobs live in procrastinate's tables beside the review rows (its schema is applied at the
  first start, under an advisory lock, by whichever process gets there first: ``ensure_schema``). Workers
  anywhere (``tengen analyst``) take them; a worker that died leaves its job ``doing`` with its lock held, and
  the next worker to start, or the sweep every ``STALLED_SWEEP_SECONDS``, hands it back to the queue
  (procrastinate's heartbeats say which workers died).
- SQLite (the embedded default, one process): procrastinate's in-memory connector, worked by the analyst
  ``tengen serve`` runs in process. Its jobs die with the process; the review rows do not, and every worker
  queues again at its start each review left queued or running (``requeue``), which resumes where it stopped.

Automatic reviews (rated games) are queued at a lower priority than those someone asked for; asked for while
it waits, an automatic job is raised to the asked priority (``ReviewQueue._raise``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import procrastinate
import psycopg
from procrastinate import exceptions as queue_errors
from procrastinate.schema import SchemaManager
from procrastinate.testing import InMemoryConnector
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.ai_review.analyst import Analyst, ReviewFailed
from app.background import BackgroundTask
from app.engines.errors import EngineBusy, EngineFailed, EngineUnavailable
from app.store.db import is_sqlite, normalise_url
from app.store.repositories import ai_reviews

log = logging.getLogger("tengen.ai_review")

QUEUE = "ai_review"
TASK = "ai_review"
ATTEMPTS = 5  # an engine that fails (a restart, a full queue) is tried again this many times in all
RETRY_SECONDS = 10
ASKED, AUTOMATIC = 10, 0  # procrastinate priorities: higher first
STALLED_SECONDS = 30.0  # a worker silent this long (no heartbeat) is dead: its job goes back to the queue
STALLED_SWEEP_SECONDS = 60.0
RESTART_SECONDS = 5.0  # a worker that failed starts again after this
ENGINE_ERRORS = (EngineUnavailable, EngineBusy, EngineFailed)  # tried again later; anything else is a bug
SCHEMA_LOCK = 7_346_001  # pg_advisory_xact_lock key while procrastinate's schema is applied


def libpq_url(url: str) -> str:
    """The database URL as psycopg takes it (no SQLAlchemy driver name)."""
    return make_url(normalise_url(url)).set(drivername="postgresql").render_as_string(hide_password=False)


async def ensure_schema(url: str) -> None:
    """Apply procrastinate's schema unless it is there (PostgreSQL; one process at a time)."""
    async with await psycopg.AsyncConnection.connect(libpq_url(url), autocommit=False) as connection:
        async with connection.transaction():
            await connection.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
            found = await (await connection.execute("SELECT to_regclass('procrastinate_jobs')")).fetchone()
            if found is None or found[0] is None:
                await connection.execute(SchemaManager.get_schema())


class ReviewQueue:
    """This process's side of the queue: deferring jobs, and (``start_worker``) working them."""

    def __init__(self, url: str, sessionmaker: async_sessionmaker[AsyncSession]) -> None:
        self.url = url
        self.sessionmaker = sessionmaker
        self.embedded = is_sqlite(url)
        connector: Any = InMemoryConnector() if self.embedded else procrastinate.PsycopgConnector(conninfo=libpq_url(url))
        self.app = procrastinate.App(connector=connector)
        self.app.task(
            name=TASK,
            queue=QUEUE,
            pass_context=True,
            retry=procrastinate.RetryStrategy(max_attempts=ATTEMPTS, wait=RETRY_SECONDS, retry_exceptions=set(ENGINE_ERRORS)),
        )(_review)
        self._worker = BackgroundTask("ai-review worker")
        self._sweep = BackgroundTask("ai-review stalled jobs")
        self._opened = False
        self._opening = asyncio.Lock()

    async def open(self) -> None:
        """Connect (and on PostgreSQL apply procrastinate's schema if missing): at the first use, so that a
        server nobody asks for a review never opens the queue's connections."""
        async with self._opening:
            if self._opened:
                return
            if not self.embedded:
                await ensure_schema(self.url)
            await self.app.open_async()
            self._opened = True

    async def close(self) -> None:
        await self._sweep.close()
        await self._worker.close()
        if self._opened:
            self._opened = False
            await self.app.close_async()

    async def defer(self, subject: str, depth: str, automatic: bool = False) -> None:
        """Queue the job of (subject, depth), unless one waits already (its queueing lock). A job someone asks
        for that waits already at the automatic reviews' priority is raised to theirs (``_raise``)."""
        await self.open()
        deferrer = self._deferrer(subject, depth, automatic)
        try:
            await deferrer.defer_async(subject=subject, depth=depth)
        except queue_errors.AlreadyEnqueued:
            if not automatic:
                await self._raise(subject, depth)

    def _deferrer(self, subject: str, depth: str, automatic: bool) -> Any:
        return self.app.configure_task(
            name=TASK,
            queueing_lock=queueing_lock(subject, depth),
            lock=f"ai_review:{subject}",
            priority=AUTOMATIC if automatic else ASKED,
        )

    async def _raise(self, subject: str, depth: str) -> None:
        """procrastinate cannot change a waiting job's priority: the automatic job is cancelled (only while it
        still waits: a worker that took it meanwhile keeps it, and the analyst raises its engine priority from
        the review row instead) and deferred again at the asked priority under the same queueing lock, which the
        cancelled job no longer holds. Another instance raising it at the same moment finds it enqueued again
        (by either: both at the asked priority); should this process stop between the two steps, the review row
        (queued) has the next worker start queue it again (``requeue``)."""
        manager = self.app.job_manager
        waiting = await manager.list_jobs_async(queue=QUEUE, status="todo", queueing_lock=queueing_lock(subject, depth))
        for job in waiting:
            assert job.id is not None
            if job.priority >= ASKED or not await manager.cancel_job_by_id_async(job.id):
                continue
            with contextlib.suppress(queue_errors.AlreadyEnqueued):
                await self._deferrer(subject, depth, automatic=False).defer_async(subject=subject, depth=depth)

    async def requeue(self) -> int:
        """Queue again every review left queued or running (a restart, a worker that died); returns how many."""
        async with self.sessionmaker() as session:
            rows = await ai_reviews.unfinished(session)
        for row in rows:
            await self.defer(row.subject, row.depth, row.automatic)
        return len(rows)

    async def release_stalled(self) -> int:
        """Hand back to the queue the jobs of workers that died (PostgreSQL), or end them when one of the same
        (subject, depth) waits already."""
        if self.embedded:
            return 0
        manager = self.app.job_manager
        stalled = list(await manager.get_stalled_jobs(queue=QUEUE, seconds_since_heartbeat=STALLED_SECONDS))
        for job in stalled:
            assert job.id is not None
            try:
                await manager.retry_job(job)
            except queue_errors.ConnectorException:  # the queueing lock: the same job waits already
                await manager.finish_job_by_id_async(job.id, procrastinate.jobs.Status.CANCELLED, delete_job=False)
        return len(stalled)

    def start_worker(self, analyst: Analyst) -> None:
        """Work the queue in this process (one job at a time: KataGo is the bottleneck, and a job keeps it busy)."""
        self._worker.start(self._work(analyst))
        if not self.embedded:
            self._sweep.start(self._sweeping())

    async def _work(self, analyst: Analyst) -> None:
        """The worker, started again after a failure (the database away, a bug in a job's bookkeeping)."""
        while True:
            try:
                await self.open()
                await self.release_stalled()
                await self.requeue()
                await self.app.run_worker_async(
                    queues=[QUEUE],
                    concurrency=1,
                    install_signal_handlers=False,
                    listen_notify=not self.embedded,
                    fetch_job_polling_interval=1.0 if self.embedded else 5.0,
                    shutdown_graceful_timeout=0,
                    stalled_worker_timeout=STALLED_SECONDS,
                    delete_jobs="successful",
                    additional_context={"analyst": analyst},
                )
                return
            except Exception:
                log.exception("the review worker stopped; starting it again in %g s", RESTART_SECONDS)
                await asyncio.sleep(RESTART_SECONDS)

    async def _sweeping(self) -> None:
        while True:
            await asyncio.sleep(STALLED_SWEEP_SECONDS)
            try:
                await self.release_stalled()
            except Exception:  # tried again next time
                log.exception("releasing stalled review jobs failed")


def queueing_lock(subject: str, depth: str) -> str:
    return f"ai_review:{subject}:{depth}"


async def _review(context: procrastinate.JobContext, subject: str, depth: str) -> None:
    analyst: Analyst = context.additional_context["analyst"]
    try:
        await analyst.run(subject, depth)
    except ReviewFailed as exc:
        await analyst.fail(subject, str(exc))
    except ENGINE_ERRORS as exc:
        if context.job.attempts + 1 >= ATTEMPTS:
            await analyst.fail(subject, f"{exc.code}: {exc}")
        raise
