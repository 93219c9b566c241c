"""Moderation news every instance must act on at once, over the hub's ``moderation`` channel (in-process or
Redis alike; the messages are typed in app/live/hub_messages.py):

- ``Sanction`` (``{"t": "sanction", "user_id": N}``): the user was suspended or banned. Every instance closes
  their sockets (close code 4403; reconnecting, they may watch but not play or chat) and ends their seek here.
- ``BlocksChanged`` (``{"t": "blocks", "user_ids": [A, B]}``): A blocked or unblocked B. Every instance re-reads
  the blocks of the two users' open game sockets, so chat between them is hidden (or shown) from the next line on.

The decisions themselves are committed to the database before the news goes out, and are checked there where
actions are accepted, so an instance that missed a message still refuses what it must.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from app.live.hub import Hub
from app.live.hub_messages import MODERATION, BlocksChanged, Sanction
from app.live.sockets import SocketRegistry
from app.moderation.chat_filter import ChatFilters

log = logging.getLogger(__name__)

CLOSE_SANCTIONED = 4403


async def announce_sanction(hub: Hub, user_id: int) -> None:
    await MODERATION.publish(hub, Sanction(user_id=user_id))


async def announce_blocks(hub: Hub, user_ids: list[int]) -> None:
    await MODERATION.publish(hub, BlocksChanged(user_ids=user_ids))


async def listen(
    hub: Hub, sockets: SocketRegistry, filters: ChatFilters, end_seek: Callable[[int], Awaitable[Any]]
) -> Callable[[], Awaitable[None]]:
    """Act on moderation news from every instance (this one included); returns the unsubscribe function."""

    async def on_message(message: Sanction | BlocksChanged) -> None:
        try:
            if isinstance(message, Sanction):
                await end_seek(message.user_id)
                await sockets.close_user(message.user_id, CLOSE_SANCTIONED, "account suspended")
            else:
                for user_id in message.user_ids:
                    await filters.refresh(user_id)
        except Exception:  # the database checks still refuse; the next message is handled
            log.warning("moderation message %s could not be applied here", message.t, exc_info=True)

    return await MODERATION.subscribe(hub, on_message)
