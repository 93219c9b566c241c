"""The review rooms of one instance: opened on demand, closed when idle, their participant lists kept true."""

from __future__ import annotations

import asyncio
import contextlib
import logging


from app.reviews.limits import ReviewLimits
from app.reviews.live.room import ReviewRoom
from app.study.workers import StudyWorkers
from app.transport.room_deps import RoomDeps

log = logging.getLogger(__name__)

# Participant lists re-read (an instance that died leaves them), the stored version compared with what the hub
# announced (a change whose publish was lost), idle rooms closed.
SWEEP_SECONDS = 10.0
IDLE_ROOM_SECONDS = 60.0


class ReviewRooms:
    def __init__(
        self,
        deps: RoomDeps,
        limits: ReviewLimits,
        workers: StudyWorkers,
    ) -> None:
        self.deps = deps  # handed to every room
        self.hub = deps.hub
        self.sessionmaker = deps.sessionmaker
        self.limits = limits
        self.workers = workers
        self.clock = deps.clock
        self.rooms: dict[str, ReviewRoom] = {}
        self._opening: dict[str, asyncio.Lock] = {}
        self._idle_since: dict[str, float] = {}
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self._sweep_loop(), name="tengen-review-rooms")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        for room in list(self.rooms.values()):
            await room.close()
        self.rooms.clear()

    async def open(self, review_id: str) -> ReviewRoom | None:
        """The room of ``review_id`` on this instance, loaded from the database if needed (None: no such review)."""
        room = self.rooms.get(review_id)
        if room is not None:
            return room
        lock = self._opening.setdefault(review_id, asyncio.Lock())
        try:
            async with lock:
                room = self.rooms.get(review_id)
                if room is None:
                    room = ReviewRoom(review_id, self.deps, self.limits, self.workers)
                    if not await room.load():
                        await room.close()
                        return None
                    self.rooms[review_id] = room
                return room
        finally:
            if not lock.locked() and self._opening.get(review_id) is lock:
                del self._opening[review_id]

    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                await self.sweep()
            except Exception:  # one bad room must not stop the sweep of the others
                log.exception("sweeping the review rooms failed")

    async def sweep(self) -> None:
        now = self.clock()
        for review_id, room in list(self.rooms.items()):
            if room.connections:
                self._idle_since.pop(review_id, None)
                with contextlib.suppress(Exception):
                    await room.refresh_participants(publish=False)
                    await room.check_stored_version()
                continue
            since = self._idle_since.setdefault(review_id, now)
            if now - since > IDLE_ROOM_SECONDS and not room.lock.locked():
                self._idle_since.pop(review_id, None)
                self.rooms.pop(review_id, None)
                await room.close()
