"""Chat between two people one of whom blocked the other is hidden both ways, on the socket itself; so are
their open challenges, on a lobby socket.

Every text a game or review socket sends goes through its viewer's ``ChatFilter``: a chat line from a hidden user
becomes ``{"t": "hidden", "v": N}`` (the version stays, so the stream keeps no gaps), and a snapshot's chat
loses their lines (whose line it is, and the placeholder, as app/games/visibility.py has them). Only chat lines
and snapshots of a viewer who blocks someone (or is blocked) are read; every other text passes untouched. A
lobby socket asks ``visibility.hides_challenge`` of each ``challenge_created`` it is to send, with its viewer's
``hidden``. ``ChatFilters`` holds the
filters of this instance's sockets by user, so a block made on any instance (announced over the hub,
app/moderation/notices.py) applies to open sockets at once.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import orjson
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.games import visibility
from app.store.repositories import moderation as repo

_CHAT = '{"t":"chat"'
_SNAPSHOT = '{"t":"snapshot"'


class ChatFilter:
    __slots__ = ("user_id", "hidden")

    def __init__(self, user_id: int, hidden: frozenset[int]) -> None:
        self.user_id = user_id
        self.hidden = hidden

    def text(self, text: str) -> str:
        if not self.hidden:
            return text
        if text.startswith(_CHAT):
            line = orjson.loads(text)
            if visibility.author_of(line) in self.hidden:
                return orjson.dumps(visibility.hidden(line.get("v"))).decode()
        elif text.startswith(_SNAPSHOT):
            message = orjson.loads(text)
            room = message.get("game") or message.get("review") or {}
            if room.get("chat"):
                room["chat"] = [line for line in room["chat"] if visibility.author_of(line) not in self.hidden]
                return orjson.dumps(message).decode()
        return text

    def wrap(self, send: Callable[[str], Awaitable[None]]) -> Callable[[str], Awaitable[None]]:
        async def filtered(text: str) -> None:
            await send(self.text(text))

        return filtered


class ChatFilters:
    """The filters of this instance's game and review sockets, by user."""

    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession]) -> None:
        self.sessionmaker = sessionmaker
        self._by_user: dict[int, set[ChatFilter]] = {}

    async def open(self, user_id: int | None) -> ChatFilter | None:
        if user_id is None:
            return None
        async with self.sessionmaker() as session:
            hidden = await repo.avoided(session, user_id)
        chat_filter = ChatFilter(user_id, hidden)
        self._by_user.setdefault(user_id, set()).add(chat_filter)
        return chat_filter

    def close(self, chat_filter: ChatFilter | None) -> None:
        if chat_filter is None:
            return
        held = self._by_user.get(chat_filter.user_id)
        if held is not None:
            held.discard(chat_filter)
            if not held:
                del self._by_user[chat_filter.user_id]

    async def refresh(self, user_id: int) -> None:
        """Read the user's blocks again for the sockets they hold here (after a block or unblock)."""
        held = self._by_user.get(user_id)
        if not held:
            return
        async with self.sessionmaker() as session:
            hidden = await repo.avoided(session, user_id)
        for chat_filter in held:
            chat_filter.hidden = hidden
