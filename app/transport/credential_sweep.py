"""Each instance re-reads the credentials of its open sockets, so that a credential's end holds on every frame
even when no news of it arrived.

The hub's news ends sockets at once on every instance (a log-out, a revoked token: app/transport/sockets.py; a
sanction: app/moderation/notices.py). News can be lost: published while an instance's Redis subscription was
down, or never published (a writer that tells no instance, as the house bots' start revoking their old tokens).
So every instance also reads again, for all its signed-in sockets at once (a few queries, whatever their
number), whether each one's credential still holds and whether its user was sanctioned since it opened
(``recheck``, app/accounts/credentials.py), and ends those that no longer hold: every ``interval`` seconds
(``TENGEN_CREDENTIAL_CHECK_SECONDS``), and at once when the hub says news may have been missed (``soon``).

A socket's action never waits for this in the normal course: the reading runs beside the sockets, and an action
only looks at its ticket (``Ticket.ended``) and at the time of the last reading that succeeded (``fresh``).
Should that be older than ``STALE_AFTER`` intervals (the database did not answer), an action reads again first
(``check``: one reading shared by every socket asking), so no action is taken on a credential read longer ago.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

from app.transport.credentials import Ending
from app.transport.sockets import SocketRegistry, Ticket

log = logging.getLogger(__name__)

STALE_AFTER = 3  # intervals: an action waits for a reading when the last good one is older than this

# The tickets to read again -> those that no longer hold, each with why.
Recheck = Callable[[list[Ticket]], Awaitable[list[tuple[Ticket, Ending]]]]


class CredentialSweep:
    def __init__(
        self, sockets: SocketRegistry, recheck: Recheck, interval: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.sockets = sockets
        self.recheck = recheck
        self.interval = interval
        self.clock = clock
        self.checked_at = clock()  # when the last reading that succeeded began (at start: no socket yet)
        self._reading: asyncio.Task[None] | None = None
        self._loop: asyncio.Task[None] | None = None
        self._soon: set[asyncio.Task[None]] = set()

    def start(self) -> None:
        self._loop = asyncio.get_running_loop().create_task(self._every_interval())

    async def close(self) -> None:
        tasks = [task for task in (self._loop, self._reading, *self._soon) if task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def fresh(self) -> bool:
        """Whether the last good reading is recent enough for an action to go on without reading again."""
        return self.clock() - self.checked_at <= STALE_AFTER * self.interval

    async def check(self) -> None:
        """Read every socket's credential again now (joining a reading under way); raises when it failed."""
        if self._reading is None or self._reading.done():
            self._reading = asyncio.get_running_loop().create_task(self._read())
        await asyncio.shield(self._reading)

    def soon(self) -> None:
        """Read again at once, beside whatever runs (the hub's ``on_reset``: news may have been missed)."""
        task = asyncio.get_running_loop().create_task(self._quietly())
        self._soon.add(task)
        task.add_done_callback(self._soon.discard)

    async def _read(self) -> None:
        began = self.clock()
        tickets = [ticket for ticket in self.sockets.tickets() if ticket.ended is None]
        if tickets:
            for ticket, ending in await self.recheck(tickets):
                await self.sockets.end(ticket, ending)
        self.checked_at = began

    async def _quietly(self) -> None:
        try:
            await self.check()
        except Exception:  # the next reading tries again; an action waits for one once this one is too old
            log.warning("the open sockets' credentials could not be read again", exc_info=True)

    async def _every_interval(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            await self._quietly()
