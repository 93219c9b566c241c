"""Periodic clean-up of what strangers leave behind: unused guests, and games without a clock nobody plays.

Every ``interval`` seconds, on every instance (each step is idempotent, so instances may overlap):

- a guest older than ``TENGEN_GUEST_TTL_HOURS`` that never played, challenged or chatted is deleted (its
  cookie then starts a new guest);
- an unfinished game without a clock in which nothing happened for ``TENGEN_UNTIMED_ABANDON_DAYS`` ends with no
  result (``Void``, reason ``no_result``; its ``game_over`` event says ``"abandoned": true``), through its room
  like any other ending.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.background import Periodic
from app.games.live.rooms import RoomManager
from app.store.repositories import games as games_repo
from app.store.repositories import users as users_repo
from app.store.types import utcnow

log = logging.getLogger(__name__)


class Housekeeping(Periodic):
    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        rooms: RoomManager,
        *,
        guest_ttl_hours: float,
        untimed_abandon_days: float,
        interval: float,
    ) -> None:
        super().__init__("tengen-housekeeping", interval)
        self.sessionmaker = sessionmaker
        self.rooms = rooms
        self.guest_ttl = timedelta(hours=guest_ttl_hours)
        self.abandon_after = timedelta(days=untimed_abandon_days)

    async def run_once(self) -> tuple[int, int]:
        """(guests deleted, games ended)."""
        now = utcnow()
        async with self.sessionmaker() as session:
            guests = await users_repo.delete_unused_guests(session, now - self.guest_ttl)
            await session.commit()
            idle = await games_repo.abandoned_untimed(session, now - self.abandon_after)
        ended = 0
        for game_id in idle:
            room = await self.rooms.open(game_id)
            if room is not None and (await room.act(None, None, {"t": "abandoned"})).ok:
                ended += 1
        if guests or ended:
            log.info("housekeeping: %d unused guests deleted, %d abandoned games ended", guests, ended)
        return guests, ended
