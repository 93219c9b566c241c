"""The ladders' keeper, one on every instance: settles each challenge whose answer deadline has passed (lost by
the defender) and each whose game has ended, every ``interval`` seconds, and a game's challenge at once when the
room on this instance ends the game (``game_finished``). Whichever instance gets there first settles it; the
others find it settled and write nothing (``service._settle``: the ladder's lock and a compare-and-set on the
challenge's status), so a deadline is settled exactly once however many instances run."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.background import Periodic
from app.ladders import service
from app.lobby.live.broadcaster import LobbyBroadcaster

log = logging.getLogger(__name__)


class LadderKeeper(Periodic):
    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession], lobby: LobbyBroadcaster, interval: float) -> None:
        super().__init__("tengen-ladder-keeper", interval)
        self.sessionmaker = sessionmaker
        self.lobby = lobby
        self._pending: set[asyncio.Task[None]] = set()

    async def run_once(self) -> int:
        settled = await service.sweep(self.sessionmaker, self.lobby)
        if settled:
            log.info("ladder keeper: %d challenge(s) settled", settled)
        return settled

    def game_finished(self, game_id: str) -> None:
        """Settle the game's ladder challenge now, if it was one; should this fail, the next round does it."""
        task = asyncio.get_running_loop().create_task(self._settle(game_id), name=f"tengen-ladder-{game_id}")
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _settle(self, game_id: str) -> None:
        try:
            await service.settle_game(self.sessionmaker, self.lobby, game_id)
        except Exception:  # the sweep settles it later
            log.warning("game %s: its ladder challenge was not settled now; the keeper's next round will", exc_info=True)

    async def close(self) -> None:
        for task in list(self._pending):
            task.cancel()
        for task in list(self._pending):
            with contextlib.suppress(asyncio.CancelledError, Exception):  # the sweep covers it
                await task
        await super().close()
