"""What one instance tells the others over the hub's own channels, as typed models built and read at both ends.

The rooms' channels carry what clients receive (app/protocol.py, app/transport/envelope.py).
The hub's own channels carry news every instance acts on by itself, in-process or over Redis alike. A
``HubChannel`` is one such channel and the models it carries, declared by whoever owns the news: the
transport's own is ``sessions`` (``Logout`` — the user logged out; every instance closes the sockets their
session cookies opened. ``TokenRevoked`` — an API token was revoked; every instance closes the sockets it
opened, app/transport/sockets.py); moderation's is declared beside it (app/moderation/hub_news.py).

``HubChannel.publish`` sends a message built with its model; ``HubChannel.subscribe`` hands each listener the
parsed model. A message that does not parse as one of its channel's models (another version's, or damaged)
is logged and dropped: the listener goes on with the next.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Generic, Literal, TypeVar, Union

import orjson
from pydantic import BaseModel, ConfigDict, Field, StrictInt, TypeAdapter, ValidationError

from app.transport.hub import Hub, ResetCallback, Unsubscribe

log = logging.getLogger(__name__)


class HubMessage(BaseModel):
    """The base of every message on the hub's own channels."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Logout(HubMessage):
    t: Literal["logout"] = "logout"
    user_id: StrictInt


class TokenRevoked(HubMessage):
    t: Literal["token_revoked"] = "token_revoked"
    user_id: StrictInt  # whose token it was
    token_id: StrictInt


M = TypeVar("M", bound=HubMessage)


class HubChannel(Generic[M]):
    """One of the hub's own channels and the messages it carries."""

    def __init__(self, name: str, messages: Any) -> None:
        self.name = name
        self._adapter: TypeAdapter[M] = TypeAdapter(messages)

    def encode(self, message: M) -> bytes:
        return orjson.dumps(message.model_dump())

    def decode(self, data: bytes) -> M | None:
        """The message ``data`` carries, or None (logged) when it is not one of this channel's."""
        try:
            return self._adapter.validate_json(data)
        except ValidationError as error:
            log.warning("dropped a malformed message on the hub's %s channel: %s", self.name, error.errors()[0]["msg"])
            return None

    async def publish(self, hub: Hub, message: M) -> None:
        await hub.publish(self.name, self.encode(message))

    async def subscribe(
        self, hub: Hub, listener: Callable[[M], Awaitable[None]], on_reset: ResetCallback | None = None
    ) -> Unsubscribe:
        """Hand every well-formed message on this channel, from every instance, to ``listener``; ``on_reset`` is
        called when some may have been missed (``Hub.subscribe``)."""

        async def on_message(data: bytes) -> None:
            message = self.decode(data)
            if message is not None:
                await listener(message)

        return await hub.subscribe(self.name, on_message, on_reset)


SessionNews = Annotated[Union[Logout, TokenRevoked], Field(discriminator="t")]
SESSIONS: HubChannel[Logout | TokenRevoked] = HubChannel("sessions", SessionNews)
