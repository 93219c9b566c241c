"""A room's committed events on their way to the hub, in version order, with the deadline each leaves.

They are published from the loop's next turn, once the commit's acknowledgement is written, so an
acknowledgement never waits for the hub (a Redis round trip or two) nor for the encoding and queueing of the
events: it only ever follows the commit. The publishing runs at once in that turn and becomes a task only when
it has to wait (app/transport/eager.py): with the in-process hub it never does, so a move costs no task. The queue
keeps the hub's order that of the versions; a socket that attaches or catches up meanwhile reads what the hub
has not logged yet from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

from app.transport import eager
from app.transport.envelope import pack
from app.transport.hub import Hub

log = logging.getLogger(__name__)


class Cut(Protocol):
    """A committed event cut by who reads what (the room's domain defines it): the texts a hub envelope
    carries, every recipient getting one of them unchanged."""

    @property
    def visibility(self) -> str: ...  # the room's label of who reads ``visible``
    @property
    def visible(self) -> bytes: ...
    @property
    def others(self) -> bytes: ...  # what everybody else reads; empty when everybody reads ``visible``
    @property
    def private(self) -> dict[str, Any]: ...  # the stored fields no client reads


Splitter = Callable[[dict[str, Any], int], Cut]  # a committed event and its version -> its cut


class Outbox:
    def __init__(self, hub: Hub, channel: str, deadline_key: str, split: Splitter) -> None:
        self.hub = hub
        self.channel = channel
        self.deadline_key = deadline_key  # the hub's key of the room's deadline (the room's domain names it)
        self.split = split  # who reads which text of an event: the room's domain says
        self._queue: deque[tuple[list[dict[str, Any]], int, float | None]] = deque()  # committed, not yet published
        # Done when what is queued is published (None: nothing on its way); the task while the publishing waits.
        self._publisher: asyncio.Future[None] | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def busy(self) -> bool:
        """Whether committed events are still on their way to the hub."""
        return self._publisher is not None

    def send(self, events: list[dict[str, Any]], first_v: int, deadline: float | None) -> None:
        """Queue committed events (versions ``first_v`` on) and the deadline they leave."""
        self._queue.append((events, first_v, deadline))
        if self._publisher is None:
            loop = asyncio.get_running_loop()
            self._publisher = published = loop.create_future()
            loop.call_soon(self._start, published)

    def _start(self, published: asyncio.Future[None]) -> None:
        if self.hub.inline:
            self._task = eager.start(self._drain(published))  # None: all published already
        else:
            self._task = asyncio.get_running_loop().create_task(self._drain(published))

    async def settled(self) -> None:
        """Wait until what was queued so far is published (a failure to publish is logged, not raised)."""
        publisher = self._publisher
        if publisher is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(publisher)

    async def close(self) -> None:
        """Let committed events still on their way reach the hub first."""
        publisher = self._publisher
        if publisher is not None:
            with contextlib.suppress(Exception):
                await publisher

    async def set_deadline(self, deadline: float | None, v: int) -> None:
        """Set (or clear) the room's deadline, as computed at version ``v``."""
        if deadline is None:
            await self.hub.clear_deadline(self.deadline_key, v)
        else:
            await self.hub.set_deadline(self.deadline_key, deadline, v)

    async def _drain(self, published: asyncio.Future[None]) -> None:
        try:
            while self._queue:
                while self._queue:
                    events, first_v, deadline = self._queue.popleft()
                    last_v = first_v + len(events) - 1
                    try:
                        await self._publish(events, first_v)
                    except Exception:  # committed: the hub catches up from the database later
                        log.warning("%s: hub unreachable after a commit", self.channel, exc_info=True)
                try:
                    # Versioned: should another instance have set a newer deadline for the room meanwhile, this
                    # older one is ignored by the hub.
                    await self.set_deadline(deadline, last_v)
                except Exception:  # the next commit or catch-up sets it again
                    log.warning("%s: could not set the deadline", self.channel, exc_info=True)
        finally:
            # Nothing is awaited between the last look at the queue and this: a later commit starts anew.
            self._publisher = self._task = None
            if not published.done():
                published.set_result(None)

    async def _publish(self, events: list[dict[str, Any]], first_v: int) -> None:
        for offset, event in enumerate(events):
            v = first_v + offset
            cut = self.split(event, v)
            await self.hub.publish(
                self.channel, pack(cut.visible, v=v, vis=cut.visibility, others=cut.others, private=cut.private), v=v
            )
