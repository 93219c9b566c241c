"""The lobby broadcaster over the hub: lobby updates reach ``/ws/lobby`` sockets on every instance."""

from __future__ import annotations

from typing import Any

from app.live.codec import decode, encode
from app.live.hub import LOBBY_CHANNEL, Hub, Unsubscribe
from app.live.lobby import MemoryLobbyBroadcaster


class HubLobbyBroadcaster(MemoryLobbyBroadcaster):
    """Publishes on the hub's lobby channel and feeds what arrives there to this instance's sockets."""

    def __init__(self, hub: Hub) -> None:
        super().__init__()
        self._hub = hub
        self._unsubscribe: Unsubscribe | None = None

    async def start(self) -> None:
        self._unsubscribe = await self._hub.subscribe(LOBBY_CHANNEL, self._received)

    async def close(self) -> None:
        if self._unsubscribe is not None:
            await self._unsubscribe()
            self._unsubscribe = None

    async def publish(self, message: dict[str, Any]) -> None:
        await self._hub.publish(LOBBY_CHANNEL, encode(message))

    def _received(self, data: bytes) -> None:
        self.deliver(decode(data))
