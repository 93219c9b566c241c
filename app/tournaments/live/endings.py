"""Ending a player's tournament game for them (they withdrew and chose not to finish it, or were disqualified):
through the game's room, as the server ends an abandoned game, so the other player wins by forfeit (``B+F`` or
``W+F``), the end is an ordinary event of the game, and the room records it whichever instance holds it."""

from __future__ import annotations

import logging

from app.games.live.rooms import RoomManager
from app.store.repositories import games

log = logging.getLogger(__name__)


class GameEnder:
    def __init__(self, rooms: RoomManager) -> None:
        self.rooms = rooms

    async def __call__(self, game_id: str, user_id: int) -> None:
        async with self.rooms.sessionmaker() as session:
            game = await games.get(session, game_id)
        if game is None or game.status == "finished" or user_id not in (game.black_id, game.white_id):
            return
        room = await self.rooms.open(game_id)
        if room is None:
            return
        colour = "B" if game.black_id == user_id else "W"
        outcome = await room.act(None, None, {"t": "abandoned", "color": colour})
        if not outcome.ok and outcome.code != "game_over":
            log.warning("tournament game %s did not end for its player: %s", game_id, outcome.code)
