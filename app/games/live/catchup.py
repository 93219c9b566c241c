"""What a game socket missed: the versioned texts after a version, as its seat sees them.

From the hub's recent-event log when it holds them, else from the database (``texts_since``, which fills a
socket's gap); or from the log only, when it can prove it holds every one of them (``logged_since``, for a
reconnect with ``?v=N``: otherwise one resync snapshot replaces the client's state, docs/protocol.md §2).
The reading of the log is the transport's (``logged_texts``), with each envelope read as the seat sees it.
"""

from __future__ import annotations

import logging
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.games.live.seats import seat_text
from app.games.visibility import text_for
from app.store.repositories import games as games_repo
from app.transport.envelope import Texts, logged_texts, unpack
from app.transport.hub import Hub
from app.transport.outbox import Outbox

log = logging.getLogger(__name__)


class SocketCatchUp:
    def __init__(
        self, hub: Hub, channel: str, sessionmaker: async_sessionmaker[AsyncSession], game_id: str, outbox: Outbox
    ) -> None:
        self.hub = hub
        self.channel = channel
        self.sessionmaker = sessionmaker
        self.game_id = game_id
        self.outbox = outbox

    async def texts_since(self, seat: str | None, after_v: int, upto_v: int | None = None) -> Texts:
        """The versioned texts after ``after_v`` as ``seat`` sees them: from the hub's log, else the database."""
        # With ``latest``, the hub answers None when its log misses committed events (an instance died
        # between its commit and its publish, or the hub lost its state): the database answers instead.
        logged = await self.hub.replay(self.channel, after_v, latest=upto_v)
        out: Texts = []
        if logged is not None:
            for data in logged:
                envelope = unpack(data)
                if envelope.v is not None and (upto_v is None or envelope.v <= upto_v):
                    out.append((envelope.v, seat_text(envelope, seat)))
            return out
        async with self.sessionmaker() as session:
            rows = await games_repo.events_after(session, self.game_id, after_v)
        for row in rows:
            if upto_v is not None and row.v > upto_v:
                break
            payload: dict[str, Any] = row.payload
            out.append((row.v, text_for(payload, row.v, seat)))
        return out

    async def logged_since(self, seat: str | None, since_v: int, upto_v: int) -> Texts | None:
        """The events after ``since_v`` up to ``upto_v`` (the room's version) as ``seat`` sees them, from the
        hub's recent-event log only; None when the log cannot prove it holds every one of them."""
        if since_v == upto_v:
            return []
        await self.outbox.settled()  # this instance's own commits still on their way to the log
        try:
            return await logged_texts(self.hub, self.channel, since_v, upto_v, lambda envelope: seat_text(envelope, seat))
        except Exception:  # the hub is unreachable: the snapshot needs only this room's state
            log.warning("game %s: the recent-event log could not be read", self.game_id, exc_info=True)
            return None
