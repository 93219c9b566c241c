"""The lobby broadcaster over the hub: lobby updates reach ``/ws/lobby`` sockets on every instance.

A public message travels on the hub's ``LOBBY_CHANNEL``, which every instance subscribes to. A private one
(``_to``: user ids — the ``my_game`` entry after every move, a challenge addressed to someone, automatch's
news) travels on each recipient's ``user_channel``, which an instance subscribes to only while it holds a lobby
socket of that user: the user's first socket here subscribes before it starts listening, the last one to close
unsubscribes. So an instance receives the private messages of its own sockets' users and nobody else's, and a
move costs work only on the instances whose sockets show it, however many instances there are. A hub that
reconnects (Redis) subscribes again to every channel still wanted, these included.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
from typing import Any

from app.live.codec import decode, encode
from app.live.hub import LOBBY_CHANNEL, Hub, Unsubscribe, user_channel
from app.live.lobby import LobbySubscription, MemoryLobbyBroadcaster


class _UserFeed:
    """This instance's subscription to one user's channel, held while that user has lobby sockets here."""

    def __init__(self) -> None:
        self.sockets = 0
        self.lock = asyncio.Lock()  # one subscribe or unsubscribe at a time
        self.unsubscribe: Unsubscribe | None = None


class HubLobbyBroadcaster(MemoryLobbyBroadcaster):
    """Publishes on the hub's lobby channels and feeds what arrives there to this instance's sockets."""

    def __init__(self, hub: Hub) -> None:
        super().__init__()
        self._hub = hub
        self._unsubscribe: Unsubscribe | None = None
        self._users: dict[int, _UserFeed] = {}

    async def start(self) -> None:
        self._unsubscribe = await self._hub.subscribe(LOBBY_CHANNEL, self._received)

    async def close(self) -> None:
        if self._unsubscribe is not None:
            await self._unsubscribe()
            self._unsubscribe = None
        for feed in list(self._users.values()):
            unsubscribe, feed.unsubscribe = feed.unsubscribe, None
            if unsubscribe is not None:
                await unsubscribe()

    async def publish(self, message: dict[str, Any]) -> None:
        data = encode(message)
        to = message.get("_to")
        if to is None:
            await self._hub.publish(LOBBY_CHANNEL, data)
            return
        for user_id in dict.fromkeys(to):
            await self._hub.publish(user_channel(user_id), data)

    @asynccontextmanager
    async def subscribe(self, user_id: int | None = None, public: bool = True) -> AsyncIterator[LobbySubscription]:
        if user_id is None:
            async with super().subscribe(None, public) as subscription:
                yield subscription
            return
        feed = self._users.get(user_id)
        if feed is None:
            feed = self._users[user_id] = _UserFeed()
        feed.sockets += 1  # counted at once, so a closing socket of the same user keeps the channel
        try:
            async with feed.lock:
                if feed.unsubscribe is None:
                    feed.unsubscribe = await self._hub.subscribe(user_channel(user_id), partial(self._received_for, user_id))
            async with super().subscribe(user_id, public) as subscription:
                yield subscription
        finally:
            feed.sockets -= 1
            # Shielded: a socket cancelled while closing still gives the channel up when it was the last one.
            await asyncio.shield(self._release(user_id, feed))

    async def _release(self, user_id: int, feed: _UserFeed) -> None:
        async with feed.lock:
            if feed.sockets == 0 and feed.unsubscribe is not None:
                unsubscribe, feed.unsubscribe = feed.unsubscribe, None
                await unsubscribe()
        if feed.sockets == 0 and self._users.get(user_id) is feed:
            del self._users[user_id]

    def _received(self, data: bytes) -> None:
        self.deliver(decode(data))

    def _received_for(self, user_id: int, data: bytes) -> None:
        # The other recipients' sockets (here or elsewhere) get it on their own channels.
        self.deliver({**decode(data), "_to": [user_id]})
