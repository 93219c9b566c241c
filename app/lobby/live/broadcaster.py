"""Lobby updates fanned out to every connected ``/ws/lobby`` socket.

The interface is two methods: ``await publish(message)`` and ``subscribe()`` (an async context manager that
yields a subscription with ``await get()``). ``MemoryLobbyBroadcaster`` serves one process. The hub's
(app/lobby/live/hub_broadcaster.py) implements the same two methods: ``publish`` sends the message on the hub (public ones
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
import contextlib
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any, Protocol

from app.lobby.messages import LobbyResync

QUEUE_SIZE = 256

Listener = Callable[[dict[str, Any]], None]


class LobbySubscription:
    """One socket's inbox. A socket that falls this far behind, or may have missed messages (``resync``), is told
    to reload (``{"t": "resync"}``: the client opens the socket again, and its new snapshot holds all it missed)
    instead of growing memory; what was queued before that is dropped, once."""

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

    def resync(self) -> None:
        """Messages for this socket may have been lost (the hub reconnected, a publish failed): reload."""
        if self.overflowed:
            return
        self.overflowed = True
        with contextlib.suppress(asyncio.QueueFull):
            self._queue.put_nowait(LobbyResync().wire())  # wakes a ``get`` waiting on an empty queue

    async def get(self) -> dict[str, Any]:
        if not self.overflowed:
            message = await self._queue.get()
            if not self.overflowed:
                return message
        self.overflowed = False
        while not self._queue.empty():
            self._queue.get_nowait()
        return LobbyResync().wire()


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
        if message.get("t") == "resync":  # another instance could not publish some news: these sockets reload
            self.resync(None if to is None else set(to))
            return
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

    def resync(self, user_ids: set[int] | None = None) -> None:
        """Tell sockets to reload: every one that shows public news (``user_ids`` None), or those users' own."""
        for subscription in list(self._subscriptions):
            if subscription.public if user_ids is None else subscription.user_id in user_ids:
                subscription.resync()

    @asynccontextmanager
    async def subscribe(self, user_id: int | None = None, public: bool = True) -> AsyncIterator[LobbySubscription]:
        """A subscription to private messages addressed to ``user_id``, and (``public``) to public ones."""
        subscription = LobbySubscription(user_id, public)
        self._subscriptions.add(subscription)
        try:
            yield subscription
        finally:
            self._subscriptions.discard(subscription)
