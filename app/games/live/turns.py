"""The lobby's "your turn" list kept live: after a commit that changes whose turn it is (or a game's deadline,
status, move count or result), both players' lobby sockets get ``my_game`` with the game's entry (app/lobby/my_games.py).

What a commit changes in the entry is read when the room reports it (``committed``, while nothing else can act
on the room); the entry is built and published in the loop's next turn, once the move's acknowledgement is
written, so that an acknowledgement never waits for the lobby's message or its hub. Each entry carries the
game's version ``v``, and a client keeps the newest one it has seen of each game.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from typing import Any

from app.games.authority import GameAuthority
from app.games.live.room import Room
from app.lobby import my_games
from app.lobby.live.broadcaster import LobbyBroadcaster

log = logging.getLogger(__name__)


class TurnFeed:
    def __init__(self, lobby: LobbyBroadcaster) -> None:
        self.lobby = lobby
        self._tasks: set[asyncio.Task[None]] = set()
        # What each open room's entry last said (after its last commit here): a commit that changes none of it
        # (a chat line, an offer) sends nothing; any that does (a move, a period used, a dead stone) sends it.
        self._listed: weakref.WeakKeyDictionary[Room, dict[str, Any]] = weakref.WeakKeyDictionary()

    def committed(self, room: Room, events: list[dict[str, Any]]) -> None:
        """``Room.on_committed``: queue the ``my_game`` message when the commit changed the game's entry."""
        auth = room.authority
        if auth is None or room.practice:
            return
        facts = my_games.live_facts(auth)
        if self._listed.get(room) == facts:
            return
        self._listed[room] = facts
        asyncio.get_running_loop().call_soon(self._publish, room.game_id, room.v, auth, room.players, facts)

    def _publish(self, game_id: str, v: int, auth: GameAuthority, players: dict[str, Any], facts: dict[str, Any]) -> None:
        message = my_games.message(my_games.from_room(game_id, v, auth, players, facts))
        task = asyncio.get_running_loop().create_task(self._send(message))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _send(self, message: dict[str, Any]) -> None:
        try:
            await self.lobby.publish(message)
        except Exception:  # the next commit or a lobby reload brings the list up to date
            log.warning("could not publish a game's turn to the lobby", exc_info=True)
