"""The lobby broadcaster over the hub: lobby updates reach ``/ws/lobby`` sockets on every instance.

A public message travels on the hub's ``LOBBY_CHANNEL``, which every instance subscribes to. A private one
(``_to``: user ids — the ``my_game`` entry after every move, a challenge addressed to someone, automatch's
news) travels on each recipient's ``user_channel``, which an instance subscribes to only while it holds a lobby
socket of that user: the user's first socket here subscribes before it starts listening, the last one to close
unsubscribes. So an instance receives the private messages of its own sockets' users and nobody else's, and a
move costs work only on the instances whose sockets show it, however many instances there are. A hub that
reconnects (Redis) subscribes again to every channel still wanted, these included.

Nothing announced is lost for good, though a message may be: the lobby's news is state kept in the database
(challenges, games, sanctions) or in the seek pool, and a lobby snapshot carries all of it. So

- when the hub's subscription to a channel is reset (its Redis connection was lost and is back, or this
  instance fell behind), every socket that channel feeds here is told ``resync``: the client opens the socket
  again and reads a new snapshot;
- a publish that fails (Redis unreachable) is delivered to this instance's own sockets at once, and the
  channel is owed a ``resync``: published as soon as the hub takes it again (every ``OWED_RETRY`` seconds),
  so the sockets on the other instances reload too.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
from typing import Any

from app.background import BackgroundTask
from app.lobby.live.broadcaster import LobbySubscription, MemoryLobbyBroadcaster
from app.lobby.messages import LobbyResync
from app.transport.codec import decode, encode
from app.lobby.live.channels import LOBBY_CHANNEL, user_channel
from app.transport.hub import Hub, Unsubscribe

log = logging.getLogger(__name__)

OWED_RETRY = 0.5  # seconds between tries to publish the resyncs owed for publishes that failed


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
        self._owed: set[str] = set()  # channels a publish failed on: each is owed a resync
        self._owing = asyncio.Event()
        self._task = BackgroundTask("lobby-resyncs")

    async def start(self) -> None:
        self._unsubscribe = await self._hub.subscribe(LOBBY_CHANNEL, self._received, self.resync)
        self._task.start(self._pay_owed())

    async def close(self) -> None:
        await self._task.close()
        if self._unsubscribe is not None:
            await self._unsubscribe()
            self._unsubscribe = None
        for feed in list(self._users.values()):
            unsubscribe, feed.unsubscribe = feed.unsubscribe, None
            if unsubscribe is not None:
                await unsubscribe()

    async def publish(self, message: dict[str, Any]) -> None:
        """Never raises for the hub: what could not be published reaches this instance's sockets, and the
        others' are told to resync once the hub is back."""
        data = encode(message)
        to = message.get("_to")
        if to is None:
            if not await self._publish(LOBBY_CHANNEL, data):
                self.deliver(message)
            return
        missed = [user_id for user_id in dict.fromkeys(to) if not await self._publish(user_channel(user_id), data)]
        if missed:
            self.deliver({**message, "_to": missed})

    async def _publish(self, channel: str, data: bytes) -> bool:
        try:
            await self._hub.publish(channel, data)
            return True
        except Exception as exc:
            log.warning("a lobby message could not be published on %s (%s); a resync is owed", channel, exc)
            self._owed.add(channel)
            self._owing.set()
            return False

    async def _pay_owed(self) -> None:
        """Publish the owed resyncs once the hub takes them (each channel's own ``resync`` message)."""
        data = encode(LobbyResync().wire())
        while True:
            await self._owing.wait()
            await asyncio.sleep(OWED_RETRY)
            for channel in sorted(self._owed):
                try:
                    await self._hub.publish(channel, data)
                except Exception:
                    break  # not yet: try again later
                self._owed.discard(channel)
            if not self._owed:
                self._owing.clear()

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
                    feed.unsubscribe = await self._hub.subscribe(
                        user_channel(user_id), partial(self._received_for, user_id), partial(self.resync, {user_id})
                    )
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
