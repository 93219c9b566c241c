"""Lobby updates fanned out to every connected ``/ws/lobby`` socket.

The interface is two methods: ``await publish(message)`` and ``subscribe()`` (an async context manager that
yields a subscription with ``await get()``). ``MemoryLobbyBroadcaster`` serves one process. The hub's
(app/live/hub_lobby.py) implements the same two methods: ``publish`` sends the message on the hub (public ones
on the lobby channel, private ones on their recipients' own channels), and each instance feeds what it
receives into its local subscriptions (``deliver`` below does that for the memory implementation, so the hub's
can wrap it).

A message with ``"_to": [user ids]`` is private: it reaches only the subscriptions of those users (with
``_to`` and any other field starting with ``_``, meant for the instances' listeners only, taken off).
Everything else reaches every subscription that asked for public messages (a socket that shows only its user's
own games, such as the header's on every page, does not). Listeners added with ``listen`` hear every message
this instance delivers, private ones included (automatch uses them to hear of games started on other
instances); over the hub, an instance receives a private message only for the users with a lobby socket on it,
and delivers it once per such user with ``_to`` naming that user alone.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any, Protocol

from app.protocol import LobbyResync

QUEUE_SIZE = 256

Listener = Callable[[dict[str, Any]], None]


class LobbySubscription:
    """One socket's inbox. A socket that falls this far behind is told to reload instead of growing memory."""

    def __init__(self, user_id: int | None = None, public: bool = True) -> None:
        self._queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(QUEUE_SIZE)
        self.overflowed = False
        self.user_id = user_id
        self.public = public

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
            return LobbyResync().wire()
        return await self._queue.get()


class LobbyBroadcaster(Protocol):
    async def publish(self, message: dict[str, Any]) -> None: ...

    # An async context manager yielding a LobbySubscription.
    def subscribe(self, user_id: int | None = None, public: bool = True) -> Any: ...

    def listen(self, listener: Listener) -> None: ...


class MemoryLobbyBroadcaster:
    def __init__(self) -> None:
        self._subscriptions: set[LobbySubscription] = set()
        self._listeners: list[Listener] = []

    @property
    def subscriber_count(self) -> int:
        return len(self._subscriptions)

    async def publish(self, message: dict[str, Any]) -> None:
        self.deliver(message)

    def listen(self, listener: Listener) -> None:
        """Call ``listener(message)`` (a plain function; it must not raise) for every message delivered."""
        self._listeners.append(listener)

    def deliver(self, message: dict[str, Any]) -> None:
        for listener in list(self._listeners):
            listener(message)
        to = message.get("_to")
        if to is None:
            for subscription in list(self._subscriptions):
                if subscription.public:
                    subscription.put(message)
            return
        recipients = set(to)
        personal = {key: value for key, value in message.items() if not key.startswith("_")}  # "_to", "_seek"...
        for subscription in list(self._subscriptions):
            if subscription.user_id is not None and subscription.user_id in recipients:
                subscription.put(personal)

    @asynccontextmanager
    async def subscribe(self, user_id: int | None = None, public: bool = True) -> AsyncIterator[LobbySubscription]:
        """A subscription to private messages addressed to ``user_id``, and (``public``) to public ones."""
        subscription = LobbySubscription(user_id, public)
        self._subscriptions.add(subscription)
        try:
            yield subscription
        finally:
            self._subscriptions.discard(subscription)
