"""One neural-net buffer size: its KataGo process, the questions waiting for it, the ones it is answering.

Questions wait in a heap by priority (then by arrival) and go to KataGo while it has a free analysis thread
(``parallel``); KataGo's own ``priority`` field is set to match. Background work never waits in front of anyone:
when a more urgent question waits and every thread is busy, a background question is terminated (KataGo's
``terminate`` action) and queued again, to run from the start once the urgent ones are done.

Each question KataGo has gets an id of its own, and its final answer (KataGo sends exactly one with
``isDuringSearch`` false) is matched back by that id. A question nobody waits for any more is dropped from the
heap, or terminated if KataGo has it; its thread is free again only once KataGo's final answer comes, so the
process never holds more questions than it has threads.

When the process dies, the questions it had fail (``engine_failed``), and it is started again after a delay that
grows while it keeps failing; the questions waiting stay and go to the new process. A line that is not an answer
fails the question it names; one that names none fails every question the process had, and the process is
restarted, since its output can no longer be trusted. While KataGo cannot be started at all, questions are refused
(``engine_unavailable``) rather than left waiting.

At every start, before any question, the process's speed is measured with a few evaluations alone
(``evals_per_second``), so that callers can budget by it.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, Literal

from app.bots.backoff import Backoff
from app.engines.analysis import Analysis, BadAnswer, Position, Question, answered_nothing, finished, read_answer
from app.engines.errors import EngineFailed, EngineUnavailable
from app.engines.process import KataGoProcess, Launch, StartFailed

log = logging.getLogger("tengen.engines")

RESTART_DELAYS = (0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0)  # seconds before each new start while KataGo keeps failing
STEADY_SECONDS = 60.0  # a process that ran this long resets the delays
MEASURE_SECONDS = 60.0  # the speed measurement's time limit

State = Literal["waiting", "starting", "measuring", "ready", "restarting", "failed", "closed"]


class Priority(IntEnum):
    """Lower first."""

    COUNTING = 0  # a game entering counting: both players wait, within the counting budget
    ESTIMATE = 1  # a score estimate or hint a person is waiting for
    BACKGROUND = 2  # nobody waits: it yields to the others

    @property
    def katago(self) -> int:
        """KataGo's ``priority`` (higher first)."""
        return int(Priority.BACKGROUND) - int(self)


@dataclass(eq=False)
class Job:
    question: Question
    priority: Priority
    seq: int
    future: asyncio.Future[Analysis] = field(repr=False)
    query_id: str | None = None  # while KataGo has it
    abandoned: bool = False  # nobody waits for it any more
    preempted: bool = False  # terminated to make room for more urgent questions; it runs again

    def __lt__(self, other: Job) -> bool:
        return (self.priority, self.seq) < (other.priority, other.seq)

    def settle(self, result: Analysis | BaseException) -> None:
        if self.future.done():
            return
        if isinstance(result, BaseException):
            self.future.set_exception(result)
        else:
            self.future.set_result(result)


class Lane:
    def __init__(
        self,
        buffer: int,
        launch: Launch,
        parallel: int = 1,
        start_timeout: float = 120.0,
        measure_visits: int = 4,
        restart_delays: tuple[float, ...] = RESTART_DELAYS,
    ) -> None:
        self.buffer = buffer
        self.launch = launch
        self.parallel = max(parallel, 1)
        self.start_timeout = start_timeout
        self.measure_visits = measure_visits
        self.restart_delays = restart_delays
        self.state: State = "waiting"
        self.error: str | None = None  # why the last start failed
        self.evals_per_second: float | None = None
        self.scheduling: str | None = None  # the CPU policy its last process got: SCHED_IDLE, or nice <n>
        self.restarts = 0
        self.started = asyncio.Event()  # set once the first start ended (ready or failed)
        self._queue: list[Job] = []
        self._running: dict[str, Job] = {}
        self._process: KataGoProcess | None = None
        self._ids = itertools.count()
        self._seq = itertools.count()
        self._task: asyncio.Task[None] | None = None
        self._killing: asyncio.Task[None] | None = None
        self._lost = 0  # questions the last process to stop had

    # ---- what the service asks

    @property
    def waiting(self) -> int:
        return len(self._queue)

    @property
    def running(self) -> int:
        return len(self._running)

    @property
    def pending_visits(self) -> int:
        """The visits of the questions waiting and being answered (at most: a running one may be part done)."""
        return sum(job.question.visits for job in self._queue) + sum(job.question.visits for job in self._running.values())

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None and self._process.alive else None

    def put(self, question: Question, priority: Priority) -> Job:
        if self.state == "failed":
            raise EngineUnavailable(f"KataGo ({self.buffer}x{self.buffer}) could not be started: {self.error}")
        if self.state == "closed":
            raise EngineUnavailable("The server is stopping.")
        job = Job(question, priority, next(self._seq), asyncio.get_running_loop().create_future())
        heapq.heappush(self._queue, job)
        self._dispatch()
        return job

    def abandon(self, job: Job) -> None:
        """Nobody waits for ``job`` any more: out of the heap, or terminated if KataGo has it."""
        job.abandoned = True
        if job in self._queue:
            self._queue.remove(job)
            heapq.heapify(self._queue)
        elif job.query_id is not None:
            self._terminate(job)

    def start(self, after: asyncio.Event | None = None) -> None:
        """Start the process in the background (after ``after`` is set: lanes start, and measure, one at a time)."""
        self._task = asyncio.create_task(self._supervise(after), name=f"katago-{self.buffer}")

    async def close(self) -> None:
        self.state = "closed"
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        process, self._process = self._process, None
        if process is not None:
            await process.stop()
        self._fail_all(EngineUnavailable("The server is stopping."))

    # ---- the process's life

    async def _supervise(self, after: asyncio.Event | None) -> None:
        if after is not None:
            await after.wait()
        loop = asyncio.get_running_loop()
        backoff = Backoff(self.restart_delays)
        while True:
            self.state = "starting" if self.restarts == 0 and self.error is None else "restarting"
            try:
                process = await KataGoProcess.start(self.launch, self, self.start_timeout)
            except StartFailed as exc:
                self.state, self.error = "failed", str(exc)
                log.warning("KataGo (%sx%s) could not be started: %s", self.buffer, self.buffer, exc)
                self._fail_all(EngineUnavailable(f"KataGo ({self.buffer}x{self.buffer}) could not be started: {exc}"))
                self.started.set()
                await asyncio.sleep(backoff.next())
                continue
            began = loop.time()
            self._process = process
            self.scheduling = process.scheduling()
            await self._measure(process)
            if self._process is process:  # not gone while it was measured
                self.state, self.error = "ready", None
                self._dispatch()
            self.started.set()
            code = await process.wait()
            self._process = None
            self.restarts += 1
            self.state = "restarting"
            log.warning(
                "KataGo (%sx%s, pid %s) stopped (exit code %s) with %s question(s), which failed; starting it again. %s",
                self.buffer, self.buffer, process.pid, code, self._lost, process.stderr_text(),
            )  # fmt: skip
            if loop.time() - began > STEADY_SECONDS:
                backoff.reset()
            await asyncio.sleep(backoff.next())

    async def _measure(self, process: KataGoProcess) -> None:
        """Evaluations a second on this process alone: one evaluation to warm it up, then ``measure_visits``."""
        if self.measure_visits <= 0:
            return
        self.state = "measuring"
        centre = (self.buffer // 2, self.buffer // 2)
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout(MEASURE_SECONDS):
                await self._probe(Question(Position(self.buffer), visits=1))
                began = loop.time()
                analysis = await self._probe(Question(Position(self.buffer, moves=(("B", centre),)), visits=self.measure_visits))
                self.evals_per_second = analysis.visits / max(loop.time() - began, 1e-6)
        except (TimeoutError, EngineFailed, ConnectionError) as exc:
            log.warning("KataGo (%sx%s): its speed could not be measured: %s", self.buffer, self.buffer, exc or "timeout")
            return
        log.info("KataGo (%sx%s): %.2f evaluations a second", self.buffer, self.buffer, self.evals_per_second)

    async def _probe(self, question: Question) -> Analysis:
        job = Job(question, Priority.COUNTING, -1, asyncio.get_running_loop().create_future())
        self._send(job)
        try:
            return await job.future
        finally:
            if not job.future.done() or job.future.cancelled():
                self.abandon(job)

    # ---- questions to KataGo

    def _dispatch(self) -> None:
        if self.state != "ready":
            return
        while self._queue and len(self._running) < self.parallel:
            self._send(heapq.heappop(self._queue))
        urgent = sum(1 for job in self._queue if job.priority < Priority.BACKGROUND)
        making_room = sum(1 for job in self._running.values() if job.preempted)
        for job in sorted(self._running.values(), key=lambda job: -job.seq):
            if making_room >= urgent:
                break
            if job.priority == Priority.BACKGROUND and not job.preempted and not job.abandoned:
                job.preempted = True
                making_room += 1
                self._terminate(job)

    def _send(self, job: Job) -> None:
        job.query_id = f"q{next(self._ids)}"
        self._running[job.query_id] = job
        try:
            if self._process is None:
                raise ConnectionError("no process")
            self._process.send(job.question.to_katago(job.query_id, job.priority.katago))
        except ConnectionError:
            self._finish(job, EngineFailed("KataGo stopped; it is being started again."))

    def _terminate(self, job: Job) -> None:
        if self._process is not None and job.query_id is not None:
            with contextlib.suppress(ConnectionError):
                self._process.send({"id": f"stop-{job.query_id}", "action": "terminate", "terminateId": job.query_id})

    # ---- KataGo's answers

    def answer(self, line: dict[str, Any]) -> None:
        query_id = line.get("id")
        if "action" in line:  # the acknowledgement of a terminate
            return
        if "warning" in line:
            log.info("KataGo warns about %s: %s (%s)", query_id, line.get("warning"), line.get("field"))
            return
        job = self._running.get(query_id) if isinstance(query_id, str) else None
        if "error" in line:
            if job is None:
                log.warning("KataGo: %s", line.get("error"))
                return
            self._finish(job, EngineFailed(f"KataGo refused the question: {line.get('error')} ({line.get('field')})."))
            return
        if job is None or not finished(line):
            return
        if job.abandoned:
            self._finish(job, None)
        elif job.preempted and (answered_nothing(line) or _visits(line) < job.question.visits):
            self._finish(job, None)
            job.preempted = False
            heapq.heappush(self._queue, job)
        else:
            try:
                result: Analysis | BaseException = read_answer(line, job.question)
            except BadAnswer as exc:
                log.warning("KataGo's answer to %s could not be read: %s", query_id, exc)
                result = EngineFailed(f"KataGo's answer could not be read: {exc}.")
            self._finish(job, result)
        self._dispatch()

    def malformed(self, query_id: str | None) -> None:
        failure = EngineFailed("KataGo's answer could not be read.")
        job = self._running.get(query_id) if query_id is not None else None
        if job is not None:
            self._terminate(job)  # in case that line was not its last
            self._finish(job, failure)
            self._dispatch()
            return
        if self._running and self._process is not None:  # whose it was is unknown: the output cannot be trusted
            log.warning("KataGo (%sx%s): an answer nobody can be matched to; restarting it", self.buffer, self.buffer)
            self.state = "restarting"
            self._fail_running(failure)
            self._killing = asyncio.get_running_loop().create_task(self._process.kill())

    def closed(self) -> None:
        """The process is gone: what it had fails now (the supervisor starts it again, unless the lane is closing)."""
        self._process = None
        if self.state == "closed":
            self._fail_running(EngineUnavailable("The server is stopping."))
            return
        self.state = "restarting"
        self._lost = len(self._running)
        self._fail_running(EngineFailed("KataGo stopped while analysing this position; it is being started again."))

    def _finish(self, job: Job, result: Analysis | BaseException | None) -> None:
        if job.query_id is not None:
            self._running.pop(job.query_id, None)
        job.query_id = None
        if result is not None:
            job.settle(result)

    def _fail_running(self, failure: BaseException) -> None:
        for job in list(self._running.values()):
            self._finish(job, failure)

    def _fail_all(self, failure: BaseException) -> None:
        self._fail_running(failure)
        queued, self._queue = self._queue, []
        for job in queued:
            job.settle(failure)


def _visits(line: dict[str, Any]) -> int:
    root = line.get("rootInfo")
    visits = root.get("visits") if isinstance(root, dict) else None
    return visits if isinstance(visits, int) else 0
