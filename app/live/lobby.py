"""Lobby updates fanned out to every connected ``/ws/lobby`` socket.

The interface is two methods: ``await publish(message)`` and ``subscribe()`` (an async context manager that
yields a subscription with ``await get()``). ``MemoryLobbyBroadcaster`` serves one process. A hub that spans
instances implements the same two methods: ``publish`` sends the message on the hub's lobby channel, and each
instance feeds what it receives from that channel into its local subscriptions (``deliver`` below does that
for the memory implementation, so a Redis listener can wrap it).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, Protocol

QUEUE_SIZE = 256


class LobbySubscription:
    """One socket's inbox. A socket that falls this far behind is told to reload instead of growing memory."""

    def __init__(self) -> None:
        self._queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(QUEUE_SIZE)
        self.overflowed = False

    def put(self, message: dict[str, Any]) -> None:
        try:
            self._queue.put_nowait(message)
        except asyncio.QueueFull:
            self.overflowed = True

    async def get(self) -> dict[str, Any]:
        if self.overflowed:
            self.overflowed = False
            while not self._queue.empty():
                self._queue.get_nowait()
            return {"t": "resync"}
        return await self._queue.get()


class LobbyBroadcaster(Protocol):
    async def publish(self, message: dict[str, Any]) -> None: ...

    def subscribe(self) -> Any: ...  # async context manager yielding a LobbySubscription


class MemoryLobbyBroadcaster:
    def __init__(self) -> None:
        self._subscriptions: set[LobbySubscription] = set()

    @property
    def subscriber_count(self) -> int:
        return len(self._subscriptions)

    async def publish(self, message: dict[str, Any]) -> None:
        self.deliver(message)

    def deliver(self, message: dict[str, Any]) -> None:
        for subscription in list(self._subscriptions):
            subscription.put(message)

    @asynccontextmanager
    async def subscribe(self) -> AsyncIterator[LobbySubscription]:
        subscription = LobbySubscription()
        self._subscriptions.add(subscription)
        try:
            yield subscription
        finally:
            self._subscriptions.discard(subscription)
