"""``POST /api/games/{id}/estimate``: the score estimate of a stored game's position (the game's own rules and
komi, any move number) for its spectators while it is played and for anyone once it has ended; its players are
refused while it is played, on any instance; score lead and ownership only, never a win rate; limited per user
with its own code. These run without KataGo (the rules engine's estimate, ``judge`` ``rules``); the same with the
real KataGo is tests/engines/test_game_estimate.py."""

from __future__ import annotations

from typing import Any

import httpx

from tests.conftest import MakeLiveServer
from tests.support.players import Player, guests, start_game

SLOW = 60.0  # seconds the playouts may take on a busy machine


def walls() -> list[list[int]]:
    """Black walls off the left (column 3), White the right (column 5), alternating from Black; then a black
    stone in White's area and a white one in Black's."""
    moves: list[list[int]] = []
    for y in range(9):
        moves += [[3, y], [5, y]]
    return [*moves, [8, 8], [1, 1]]


async def play(black: Player, white: Player, game_id: str, points: list[list[int]]) -> list[Any]:
    sockets = [await black.socket(game_id), await white.socket(game_id)]
    for n, point in enumerate(points):
        ack = await sockets[n % 2].act({"t": "play", "p": point})
        assert ack["t"] == "ack", ack
    return sockets


async def ask(person: Player, game_id: str, base_url: str | None = None, **body: Any) -> httpx.Response:
    return await person.http.post(f"{base_url or person.base_url}/api/games/{game_id}/estimate", json=body, timeout=SLOW)


async def test_a_spectator_gets_the_estimate_under_the_games_rules_and_its_players_are_refused_on_any_instance(
    make_live_server: MakeLiveServer,
) -> None:
    server, other = make_live_server(), make_live_server()
    async with guests(server.url, 3) as (black, white, watcher):
        game_id = await start_game(black, white, rules="japanese", komi=0.5)
        sockets = await play(black, white, game_id, walls())
        answer = await ask(watcher, game_id)
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert body["judge"] == "rules" and body["move"] == 20
        assert sorted(body["dead"]) == [[1, 1], [8, 8]]
        own = body["ownership"]
        assert all(own[y][0] > 0.3 for y in range(9)) and all(own[y][8] < -0.3 for y in range(9))
        # Japanese rules, komi 0.5: territory with the dead stones as prisoners (2 ... 1 against)
        assert body["score"]["rules"] == "japanese" and body["score"]["W"]["komi"] == 0.5
        assert "winrate" not in body  # no more of the engine's view of a live game than lead and ownership
        # an earlier position of the game: the first two moves only
        early = await ask(watcher, game_id, move=2)
        assert early.status_code == 200 and early.json()["move"] == 2, early.text
        for player in (black, white):
            for base in (server.url, other.url):  # the game's players, whichever instance they ask
                refused = await ask(player, game_id, base)
                assert refused.status_code == 403, refused.text
                assert refused.json()["error"]["code"] == "estimate_own_game"
        past = await ask(watcher, game_id, move=21)
        assert past.status_code == 422 and past.json()["error"]["code"] == "bad_move_number", past.text
        negative = await ask(watcher, game_id, move=-1)
        assert negative.status_code == 422 and negative.json()["error"]["code"] == "invalid_request"
        missing = await ask(watcher, "nosuchgame")
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "game_not_found"
        for sock in sockets:
            await sock.close()


async def test_a_finished_game_is_estimated_for_anyone_its_players_and_visitors_without_a_session(
    make_live_server: MakeLiveServer,
) -> None:
    server = make_live_server()
    async with guests(server.url, 2) as (black, white):
        game_id = await start_game(black, white)
        sockets = await play(black, white, game_id, walls())
        assert (await sockets[1].act({"t": "resign"}))["t"] == "ack"
        for sock in sockets:
            await sock.close()
        for player in (black, white):
            mine = await ask(player, game_id)
            assert mine.status_code == 200, mine.text
            assert mine.json()["judge"] == "rules" and mine.json()["score"]["rules"] == "chinese"
        async with httpx.AsyncClient(base_url=server.url, timeout=SLOW) as stranger:
            seen = await stranger.post(f"/api/games/{game_id}/estimate", json={"move": 18})
            assert seen.status_code == 200, seen.text
            assert seen.json()["dead"] == [] and seen.json()["move"] == 18


async def test_estimates_of_games_are_limited_with_their_own_code(make_live_server: MakeLiveServer) -> None:
    server = make_live_server(game_estimates=2)
    counters = server.app.state.limiter.counters
    counters.clock = lambda: 1000.0  # the one-minute window never turns while a slow machine answers
    async with guests(server.url, 3) as (black, white, watcher):
        game_id = await start_game(black, white)
        for _ in range(2):
            assert (await ask(watcher, game_id, move=0)).status_code == 200
        over = await ask(watcher, game_id, move=0)
        assert over.status_code == 429 and over.json()["error"]["code"] == "too_many_estimates", over.text
        assert "retry-after" in over.headers
        # the analysis board's estimates are counted apart
        board = await watcher.http.post("/api/study/estimate", json={"setup": {"size": 9}, "line": []}, timeout=SLOW)
        assert board.status_code == 200, board.text
