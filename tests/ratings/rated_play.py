"""Registered players playing rated games on a real server, and waiting for the rating update."""

from __future__ import annotations

import asyncio
import itertools
import uuid
from typing import Any

from tests.support.players import Player, start_game

PASSWORD = "s3cret-Tengen-pw"
_n = itertools.count(1)


async def registered(base_url: str, strength: str | None = None, prefix: str = "p") -> Player:
    player = await Player(base_url).visit()
    name = f"{prefix}{next(_n)}{uuid.uuid4().hex[:6]}"
    body: dict[str, Any] = {"username": name, "password": PASSWORD}
    if strength is not None:
        body["strength"] = strength
    response = await player.http.post("/api/auth/register", json=body)
    assert response.status_code == 201, response.text
    player.user = response.json()
    return player


STONES = [[2, 2], [6, 6], [2, 6], [6, 2]]  # two stones each: the fewest a rated game needs (docs/ratings.md)


async def rated_game(black: Player, white: Player, winner: str = "B", base_url: str | None = None, **settings: Any) -> str:
    """A rated game: two stones each, then the loser resigns. Returns the game id."""
    game_id = await start_game(black, white, rated=True, **settings)
    b = await black.socket(game_id, base_url=base_url)
    w = await white.socket(game_id, base_url=base_url)
    await b.of_type("snapshot")
    await w.of_type("snapshot")
    for n, point in enumerate(STONES):
        assert (await (b, w)[n % 2].act({"t": "play", "p": point}))["t"] == "ack"
    loser = w if winner == "B" else b
    assert (await loser.act({"t": "resign"}))["t"] == "ack"
    await b.close()
    await w.close()
    return game_id


async def profile(player: Player, name: str) -> dict[str, Any]:
    response = await player.http.get(f"/api/players/{name}")
    assert response.status_code == 200, response.text
    return response.json()


async def wait_games(player: Player, name: str, games: int, category: str = "overall", timeout: float = 20.0) -> dict[str, Any]:
    """The player's profile once ``games`` rated games count in ``category``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        data = await profile(player, name)
        if data["ratings"][category]["games"] >= games:
            return data
        if loop.time() > deadline:
            raise AssertionError(f"{name} has {data['ratings'][category]['games']} rated games, not {games}")
        await asyncio.sleep(0.1)
