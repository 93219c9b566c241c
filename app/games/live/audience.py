"""A room's audience on this instance: its sockets, and who is present in the game across instances.

Presence is kept by the hub (every instance's sockets); a player coming or going is announced at once, and
spectators arriving or leaving within ``PRESENCE_COALESCE_SECONDS`` are announced together: a crowd joining a
popular game would otherwise send every socket one presence message per arrival (n arrivals, n squared
messages); counted together, they cost one message per socket.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

import orjson

from app.games.live.seats import seat_text
from app.games.messages import Presence as PresenceMessage
from app.transport.connection import Connection
from app.transport.envelope import Envelope, pack
from app.games.live.presence import Presence, presence, role_of
from app.transport.hub import Hub


def presence_message(presence: Presence) -> dict[str, Any]:
    """The ephemeral ``presence`` message of the game protocol."""
    return PresenceMessage(players=dict(presence.players), spectators=presence.spectators).wire()


PRESENCE_COALESCE_SECONDS = 0.1  # spectators arriving or leaving within this are announced together


class Audience:
    def __init__(self, hub: Hub, channel: str, on_presence: Callable[[dict[str, Any]], None]) -> None:
        self.hub = hub
        self.channel = channel
        self.on_presence = on_presence  # called with each presence message, as the hub announced it
        self.connections: set[Connection] = set()
        self.presence: dict[str, Any] = {"players": {"B": False, "W": False}, "spectators": 0}
        self._presence_task: asyncio.Task[None] | None = None

    def add(self, conn: Connection) -> None:
        self.connections.add(conn)

    async def joined(self, conn: Connection) -> None:
        """Record an added socket's presence with the hub and announce it."""
        await self.hub.join(self.channel, conn.id, role_of(conn.role), conn.user_id)
        await self._changed(conn)

    async def remove(self, conn: Connection) -> None:
        self.connections.discard(conn)
        await conn.stop()
        with contextlib.suppress(Exception):
            await self.hub.leave(self.channel, conn.id)
            await self._changed(conn)

    def deliver(self, envelope: Envelope) -> None:
        """Hand an event from the hub to every socket here, as its seat may see it."""
        for conn in list(self.connections):
            conn.push(seat_text(envelope, conn.role), envelope.v)

    def broadcast(self, text: str) -> None:
        """An unversioned text to every socket here."""
        for conn in list(self.connections):
            conn.push(text)

    async def refresh(self, publish: bool = True) -> None:
        """Read presence from the hub; announce it to every instance, or (``publish=False``) just take it."""
        found = presence_message(await presence(self.hub, self.channel))
        if publish:
            await self.hub.publish(self.channel, pack(orjson.dumps(found), vis="presence"))
        else:
            self.apply(found)

    def apply(self, presence: dict[str, Any]) -> None:
        self.presence = {"players": presence["players"], "spectators": presence["spectators"]}
        self.on_presence(presence)

    async def _changed(self, conn: Connection) -> None:
        """Publish presence now when a player came or went; coalesce spectators' comings and goings."""
        if conn.role is not None:
            await self.refresh()
        elif self._presence_task is None:
            self._presence_task = asyncio.get_running_loop().create_task(self._coalesced())

    async def _coalesced(self) -> None:
        try:
            await asyncio.sleep(PRESENCE_COALESCE_SECONDS)
        finally:
            self._presence_task = None
        with contextlib.suppress(Exception):
            await self.refresh()

    def close(self) -> None:
        if self._presence_task is not None:
            self._presence_task.cancel()
            self._presence_task = None
