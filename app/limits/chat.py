"""The chat limits every room shares (games and reviews): lines per user across sockets and instances, and
no line repeating the user's previous one in the same room."""

from __future__ import annotations

from app.errors import ServiceError
from app.limits.rules import Limiter, Rule
from app.transport.messages import CHAT_RATE_LIMITED_MESSAGE


async def chat_refusal(limiter: Limiter, lines: int, window: int, user_id: int, room: str, text: str) -> ServiceError | None:
    """None when the line may be said, else the refusal (its code and message). Counts the line either way."""
    if not await limiter.allow(Rule("chat", lines, window), user_id):
        return ServiceError("chat_rate_limited", CHAT_RATE_LIMITED_MESSAGE, 429)
    said = " ".join(text.split()).casefold()
    if await limiter.repeated("chat-last", f"{user_id}:{room}", said, 5 * window):
        return ServiceError("chat_repeated", "you just said that")
    return None
