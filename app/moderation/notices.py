"""Moderation news every instance must act on at once, over the hub's ``moderation`` channel (in-process or
Redis alike; the messages are typed in app/moderation/hub_news.py):

- ``Sanction`` (``{"t": "sanction", "user_id", "action", "reason", "until"}``): the user was suspended or
  banned. Every instance ends their seek and ends every socket of theirs it holds (lobby, game and review
  alike): each reads ``account_sanctioned`` (what the client needs to tell the user why, in their language),
  then closes with 4403. Reconnecting, they may watch but not play or chat. A socket opened under this very
  sanction (it reached another instance first) is left alone: it was told in its lobby snapshot.
- ``BlocksChanged`` (``{"t": "blocks", "user_ids": [A, B]}``): A blocked or unblocked B. Every instance re-reads
  the blocks of the two users' open game sockets, so chat between them is hidden (or shown) from the next line on.
  Live seeks need no news: automatch reads the blocks at each pairing, and every new game checks them as it is
  added (app/moderation/blocks.py).

The decisions themselves are committed to the database before the news goes out, and are checked there where
actions are accepted, so an instance that missed a message still refuses what it must; and it ends the
sanctioned user's sockets, with the same words, when it next re-reads its sockets' standing
(app/transport/credential_sweep.py).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from app.moderation.chat_filter import ChatFilters
from app.moderation.messages import AccountSanctioned
from app.moderation.standing import notice_key
from app.transport.credentials import CLOSE_SANCTIONED, Ending
from app.transport.hub import Hub
from app.moderation.hub_news import MODERATION, BlocksChanged, Sanction
from app.transport.messages import encode
from app.transport.sockets import SocketRegistry

log = logging.getLogger(__name__)

__all__ = ["CLOSE_SANCTIONED", "announce_blocks", "announce_sanction", "listen", "sanction_ending"]


def sanction_ending(notice: AccountSanctioned) -> Ending:
    """How a sanctioned user's socket ends: it reads ``notice``, then closes with 4403; what it sends meanwhile
    is refused as the sanction's (``account_suspended`` / ``account_banned``)."""
    banned = notice.action == "ban"
    return Ending(
        CLOSE_SANCTIONED,
        "account banned" if banned else "account suspended",
        "account_banned" if banned else "account_suspended",
        "This account is banned." if banned else f"This account is suspended until {notice.until}.",
        encode(notice).decode(),
    )


async def announce_sanction(hub: Hub, user_id: int, notice: AccountSanctioned) -> None:
    await MODERATION.publish(hub, Sanction(user_id=user_id, action=notice.action, reason=notice.reason, until=notice.until))


async def announce_blocks(hub: Hub, user_ids: list[int]) -> None:
    await MODERATION.publish(hub, BlocksChanged(user_ids=user_ids))


async def listen(
    hub: Hub,
    sockets: SocketRegistry,
    filters: ChatFilters,
    end_seek: Callable[[int], Awaitable[Any]],
    on_reset: Callable[[], Any] | None = None,
) -> Callable[[], Awaitable[None]]:
    """Act on moderation news from every instance (this one included); ``on_reset``: called when some may have
    been missed. Returns the unsubscribe function."""

    async def on_message(message: Sanction | BlocksChanged) -> None:
        try:
            if isinstance(message, Sanction):
                await end_seek(message.user_id)
                notice = AccountSanctioned(action=message.action, reason=message.reason, until=message.until)
                key = notice_key(notice)
                await sockets.end_user(message.user_id, sanction_ending(notice), lambda ticket: ticket.sanction != key)
            else:
                for user_id in message.user_ids:
                    await filters.refresh(user_id)
        except Exception:  # the database checks still refuse; the next message is handled
            log.warning("moderation message %s could not be applied here", message.t, exc_info=True)

    return await MODERATION.subscribe(hub, on_message, on_reset)
