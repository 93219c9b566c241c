"""The lobby's "your turn" list kept live: after a commit that changes whose turn it is (or a game's deadline or
status), both players' lobby sockets get ``my_game`` with the game's entry (app/lobby/my_games.py).

Sent from a task of its own, so that a move's acknowledgement never waits for the lobby's hub; each entry
carries the game's version ``v``, and a client keeps the newest one it has seen of each game.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from app.live.lobby import LobbyBroadcaster
from app.live.room import Room
from app.lobby import my_games

log = logging.getLogger(__name__)


class TurnFeed:
    def __init__(self, lobby: LobbyBroadcaster) -> None:
        self.lobby = lobby
        self._tasks: set[asyncio.Task[None]] = set()

    def committed(self, room: Room, events: list[dict[str, Any]]) -> None:
        """``Room.on_committed``: queue the ``my_game`` message when the events change a player's list."""
        auth = room.authority
        if auth is None or room.practice or not any(e.get("t") in my_games.TURN_EVENTS for e in events):
            return
        game = my_games.from_room(room.game_id, room.v, auth, room.players)
        task = asyncio.get_running_loop().create_task(self._send(my_games.message(game)))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _send(self, message: dict[str, Any]) -> None:
        try:
            await self.lobby.publish(message)
        except Exception:  # the next commit or a lobby reload brings the list up to date
            log.warning("could not publish a game's turn to the lobby", exc_info=True)
