"""A finished game and a review of it, made through the public API (for the review tests)."""

from __future__ import annotations

from typing import Any

from tests.support.players import Player, start_game

MOVES = [[2, 2], [6, 6], [2, 6], [6, 2]]


async def finished_game(black: Player, white: Player, base_url: str | None = None) -> str:
    """A 9x9 game of four moves that White resigns; its id."""
    game_id = await start_game(black, white)
    sockets = {"B": await black.socket(game_id, base_url=base_url), "W": await white.socket(game_id, base_url=base_url)}
    for n, point in enumerate(MOVES):
        ack = await sockets["BW"[n % 2]].act({"t": "play", "p": point})
        assert ack["t"] == "ack", ack
    assert (await sockets["W"].act({"t": "resign"}))["t"] == "ack"
    for sock in sockets.values():
        await sock.close()
    return game_id


async def make_review(owner: Player, game_id: str, base_url: str | None = None, **body: Any) -> dict[str, Any]:
    response = await owner.http.post(f"{base_url or owner.base_url}/api/reviews", json={"game_id": game_id, **body})
    assert response.status_code == 201, response.text
    return response.json()
