"""``ai_review`` on the game's channel: every instance holding sockets for the game hands it to each of them
(the room's channel stays open after the end; an unversioned message, like presence)."""

from __future__ import annotations

import logging

from app.ai_review.messages import AiReviewNews
from app.transport.envelope import pack
from app.games.live.channel import game_channel
from app.transport.hub import Hub
from app.transport.messages import encode

log = logging.getLogger("tengen.ai_review")


async def publish(hub: Hub | None, news: AiReviewNews) -> None:
    """Best effort: figures are stored before they are announced, and GET reads them should this fail."""
    if hub is None:
        return
    try:
        await hub.publish(game_channel(news.game_id), pack(encode(news)))
    except Exception:
        log.warning("game %s: the review's news did not reach the hub", news.game_id, exc_info=True)
