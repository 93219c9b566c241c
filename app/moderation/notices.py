"""Moderation news every instance must act on at once, over the hub's ``moderation`` channel (in-process or
Redis alike):

- ``{"t": "sanction", "user_id": N}``: the user was suspended or banned. Every instance closes their sockets
  (close code 4403; reconnecting, they may watch but not play or chat) and ends their seek here.
- ``{"t": "blocks", "user_ids": [A, B]}``: A blocked or unblocked B. Every instance re-reads the blocks of the
  two users' open game sockets, so chat between them is hidden (or shown) from the next line on.

The decisions themselves are committed to the database before the news goes out, and are checked there where
actions are accepted, so an instance that missed a message still refuses what it must.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import orjson

from app.live.hub import Hub
from app.live.sockets import SocketRegistry
from app.moderation.chat_filter import ChatFilters

log = logging.getLogger(__name__)

MODERATION_CHANNEL = "moderation"
CLOSE_SANCTIONED = 4403


async def announce_sanction(hub: Hub, user_id: int) -> None:
    await hub.publish(MODERATION_CHANNEL, orjson.dumps({"t": "sanction", "user_id": user_id}))


async def announce_blocks(hub: Hub, user_ids: list[int]) -> None:
    await hub.publish(MODERATION_CHANNEL, orjson.dumps({"t": "blocks", "user_ids": user_ids}))


async def listen(
    hub: Hub, sockets: SocketRegistry, filters: ChatFilters, end_seek: Callable[[int], Awaitable[Any]]
) -> Callable[[], Awaitable[None]]:
    """Act on moderation news from every instance (this one included); returns the unsubscribe function."""

    async def on_message(data: bytes) -> None:
        message = orjson.loads(data)
        kind = message.get("t")
        try:
            if kind == "sanction" and isinstance(message.get("user_id"), int):
                user_id = message["user_id"]
                await end_seek(user_id)
                await sockets.close_user(user_id, CLOSE_SANCTIONED, "account suspended")
            elif kind == "blocks":
                for user_id in message.get("user_ids") or ():
                    if isinstance(user_id, int):
                        await filters.refresh(user_id)
        except Exception:  # the database checks still refuse; the next message is handled
            log.warning("moderation message %s could not be applied here", kind, exc_info=True)

    return await hub.subscribe(MODERATION_CHANNEL, on_message)
