"""Helpers for the endings tests: a game started on the fake clock, the lobby feed, the stored game."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
import websockets

from tests.support.fake_clock import FakeClock
from tests.support.players import GameSocket, Player, start_game


async def begin(
    black: Player, white: Player, clock: FakeClock, time_control: dict[str, Any] | None = None
) -> tuple[str, GameSocket, GameSocket]:
    """A 9x9 game with both players connected; the fake clock is moved to the game's start (black's turn)."""
    game_id = await start_game(black, white, time_control=time_control or {"kind": "none"})
    clock.set_iso((await stored(black, game_id))["started_at"])
    b, w = await black.socket(game_id), await white.socket(game_id)
    await b.of_type("snapshot")
    await w.of_type("snapshot")
    return game_id, b, w


async def stored(player: Player, game_id: str) -> dict[str, Any]:
    response = await player.http.get(f"/api/games/{game_id}")
    response.raise_for_status()
    return response.json()


async def finished(player: Player, game_id: str, timeout: float = 10.0) -> dict[str, Any]:
    """The stored game once its status is ``finished``."""
    for _ in range(int(timeout / 0.05)):
        game = await stored(player, game_id)
        if game["status"] == "finished":
            return game
        await asyncio.sleep(0.05)
    raise AssertionError(f"game {game_id} did not finish: {game}")


async def sgf(player: Player, game_id: str) -> str:
    response = await player.http.get(f"/api/games/{game_id}/sgf")
    response.raise_for_status()
    return response.text


async def live_ids(player: Player) -> set[str]:
    response = await player.http.get("/api/games/live")
    response.raise_for_status()
    return {g["id"] for g in response.json()["games"]}


class Lobby:
    """A ``/ws/lobby`` socket that keeps every message."""

    def __init__(self, connection: Any) -> None:
        self.connection = connection

    @classmethod
    async def open(cls, player: Player) -> "Lobby":
        url = player.base_url.replace("http://", "ws://") + "/ws/lobby"
        connection = await websockets.connect(url, additional_headers={"Cookie": player.cookie_header})
        lobby = cls(connection)
        await lobby.of_type("snapshot")
        return lobby

    async def of_type(self, kind: str, timeout: float = 10.0, **fields: Any) -> dict[str, Any]:
        async def scan() -> dict[str, Any]:
            while True:
                message = orjson.loads(await self.connection.recv())
                if message.get("t") == kind and all(message.get(k) == v for k, v in fields.items()):
                    return message

        return await asyncio.wait_for(scan(), timeout)

    async def close(self) -> None:
        await self.connection.close()


def move_to(url: str, *players: Player) -> None:
    """Point players (their HTTP session and new sockets) at another server."""
    for player in players:
        player.base_url = url
        player.http.base_url = url
