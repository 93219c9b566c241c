"""The engine service: one per instance, the one way anything on the server asks KataGo about a position.

It runs a KataGo analysis process per neural-net buffer size (``lane.py``) and sends each question to the
smallest buffer its board fits. ``analyze`` waits for the answer; whoever stops waiting (a request that ends, a
deadline) cancels it, and KataGo is told to stop (``terminate``). At most ``queue`` questions wait at once on the
instance; one more is refused at once (``engine_busy``). Every process's speed is measured when it starts and
is public (``evals_per_second``), so that callers budget their visits by it: a CPU-only machine makes about one
evaluation a second, a GPU a thousand.

Without KataGo (not installed, or ``TENGEN_KATAGO=false``) the service says so once in the log and in
``/healthz``, and refuses every question (``engine_unavailable``): everything else works as it did without it.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from app.engines.analysis import Analysis, Question
from app.engines.configs import buffer_for
from app.engines.errors import EngineBusy, EngineUnavailable
from app.engines.lane import Lane, Priority
from app.engines.layout import Installed, Layout, engines_dir
from app.engines.process import Launch
from app.settings import Settings

log = logging.getLogger("tengen.engines")


class EngineService:
    def __init__(self, lanes: list[Lane], queue: int = 32, absent: str | None = None) -> None:
        """``absent``: why there is no KataGo (then ``lanes`` is empty)."""
        self.lanes = sorted(lanes, key=lambda lane: lane.buffer)
        self.queue = queue
        self.absent = absent
        self._closed = False

    @classmethod
    def from_settings(cls, settings: Settings) -> EngineService:
        if not settings.katago_enabled:
            why = "TENGEN_KATAGO=false" if settings.katago is False else "TENGEN_ENV=test; TENGEN_KATAGO=true starts it"
            return cls([], absent=f"turned off ({why})")
        layout = Layout.under(engines_dir(settings))
        installed = Installed.read(layout)
        if installed is None:
            return cls([], absent=f"not installed in {layout.root} (run `tengen engines install`: docs/engines.md)")
        buffers = [buffer for buffer in settings.katago_buffers if buffer in installed.buffers]
        if not buffers:
            return cls([], absent=f"none of TENGEN_KATAGO_BUFFERS {settings.katago_buffers} is installed ({installed.buffers})")
        lanes = [
            Lane(
                buffer,
                Launch.configured(layout, buffer, settings),
                parallel=settings.katago_parallel,
                start_timeout=settings.katago_start_seconds,
                measure_visits=settings.katago_measure_visits,
            )
            for buffer in buffers
        ]
        return cls(lanes, settings.katago_queue)

    # ---- life

    def start(self) -> None:
        """Start the processes in the background, one after another (each is measured alone); returns at once."""
        if self.absent is not None:
            level = logging.INFO if self.state == "off" else logging.WARNING
            log.log(level, "KataGo is %s: counting, estimates and hints use the rules engine and GNU Go", self.absent)
            return
        after: asyncio.Event | None = None
        for lane in self.lanes:
            lane.start(after)
            after = lane.started

    async def close(self) -> None:
        self._closed = True
        await asyncio.gather(*(lane.close() for lane in self.lanes))

    # ---- questions

    async def analyze(self, question: Question, priority: Priority) -> Analysis:
        """KataGo's analysis of the position. Cancelling the caller cancels the question (KataGo stops on it).

        Raises ``EngineUnavailable`` (no KataGo, or none for this board size), ``EngineBusy`` (the queue is full)
        or ``EngineFailed`` (KataGo stopped, refused the question or answered nonsense)."""
        lane = self._lane_for(question.position.size)
        if self.waiting >= self.queue:
            raise EngineBusy(self.waiting)
        job = lane.put(question, priority)
        try:
            return await job.future
        except asyncio.CancelledError:
            lane.abandon(job)
            raise

    def evals_per_second(self, size: int) -> float | None:
        """What the process for this board size measured at its start (None: no such process, or not measured yet)."""
        try:
            return self._lane_for(size).evals_per_second
        except EngineUnavailable:
            return None

    @property
    def waiting(self) -> int:
        return sum(lane.waiting for lane in self.lanes)

    def backlog(self, size: int) -> int:
        """The visits of the questions waiting for or being answered by the process for this board size (0: none,
        or no such process): the work a new question queues behind, for a caller with a time budget."""
        try:
            lane = self._lane_for(size)
        except EngineUnavailable:
            return 0
        return lane.pending_visits

    def _lane_for(self, size: int) -> Lane:
        if self.absent is not None:
            raise EngineUnavailable(f"KataGo is {self.absent}.")
        if self._closed:
            raise EngineUnavailable("The server is stopping.")
        buffer = buffer_for(size, [lane.buffer for lane in self.lanes])
        if buffer is None:
            raise EngineUnavailable(f"KataGo runs here for boards up to {self.lanes[-1].buffer}x{self.lanes[-1].buffer}.")
        return next(lane for lane in self.lanes if lane.buffer == buffer)

    # ---- what it says about itself

    @property
    def state(self) -> str:
        """``missing`` (or ``off``), ``ready`` (some process answers), ``starting``, or ``failed`` (none could start)."""
        if self.absent is not None:
            return "off" if self.absent.startswith("turned off") else "missing"
        states = {lane.state for lane in self.lanes}
        if "ready" in states:
            return "ready"
        if states <= {"failed"}:
            return "failed"
        return "starting"

    def status(self) -> dict[str, Any]:
        """For ``/healthz``: the state, and per buffer size its process's state, speed, CPU policy and queue."""
        if self.absent is not None:
            return {"state": self.state, "message": f"KataGo is {self.absent}"}
        return {
            "state": self.state,
            "buffers": {
                f"{lane.buffer}x{lane.buffer}": {
                    "state": lane.state,
                    "evals_per_second": None if lane.evals_per_second is None else round(lane.evals_per_second, 3),
                    "scheduling": lane.scheduling,
                    "waiting": lane.waiting,
                    "running": lane.running,
                    "restarts": lane.restarts,
                    **({"error": lane.error} if lane.error else {}),
                }
                for lane in self.lanes
            },
        }
