"""What one stranger can make, through a real uvicorn: guests stored only when needed and expired when unused,
caps on challenges, practice games and games without a clock, abandoned untimed games ended, rooms loaded
only when needed."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import websockets
from websockets.asyncio.client import ClientConnection

from app.accounts.cookies import COOKIE_NAME
from tests.conftest import MakeLiveServer
from tests.support.players import Player, start_game
from tests.support.rows import count_users

UNTIMED = {"kind": "none"}
TIMED = {"kind": "fischer", "main": 600, "increment": 5}


async def _cookieless_requests(base_url: str, game_id: str, player_name: str) -> list[int | str]:
    """One cookieless request of every kind a stranger can send, each from a new client: what each answered."""
    ws_base = base_url.replace("http://", "ws://")
    answers: list[int | str] = []
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as http:
        for method, path, body in [
            ("GET", "/api/me", None),
            ("GET", f"/api/players/{player_name}/handicap?size=19", None),
            ("GET", f"/api/players/{player_name}", None),
            ("GET", "/api/challenges", None),
            ("GET", "/api/challenges/incoming", None),
            ("GET", "/api/games/live", None),
            ("GET", f"/api/games/{game_id}", None),
            ("GET", f"/api/games/{game_id}/chat", None),
            ("GET", "/api/me/games/active", None),
            ("GET", "/api/me/games/history", None),
            ("GET", "/api/leaderboard", None),
            ("GET", "/api/archive", None),
            ("GET", "/api/bots", None),
            ("POST", "/api/challenges", {"board_size": 99}),
            ("POST", "/api/practice", {"size": 5}),
            ("POST", "/api/challenges/nope/accept", None),
            ("POST", "/api/challenges/nope/decline", None),
            ("DELETE", "/api/challenges/nope", None),
            ("POST", "/api/auth/logout", None),
            ("POST", "/api/auth/login", {"username": "nobody-here", "password": "x"}),
        ]:
            response = await http.request(method, path, json=body)
            assert COOKIE_NAME not in response.cookies, (method, path)
            answers.append(response.status_code)
    async with websockets.connect(f"{ws_base}/ws/lobby") as lobby:  # a seek needs a session: none is made
        assert json.loads(await lobby.recv())["t"] == "snapshot"
        await lobby.send(json.dumps({"t": "seek", "id": "s1"}))
        answers.append(json.loads(await lobby.recv())["code"])
    async with websockets.connect(f"{ws_base}/ws/games/{game_id}") as watcher:  # nor watching, nor a chat
        assert json.loads(await watcher.recv())["t"] == "snapshot"
        await watcher.send(json.dumps({"t": "chat", "id": "c1", "channel": "spectators", "text": "hi"}))
        answers.append((await _answer(watcher, "c1"))["code"])
    return answers


async def _answer(ws: ClientConnection, message_id: str) -> dict[str, Any]:
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if message.get("id") == message_id:
            return message


async def test_requests_that_need_no_guest_store_none(live_server: str, database_url: str) -> None:
    """150 cookieless requests of every kind (reading, watching, failing validation, a seek or a chat
    without a session) store no guest; doing something that needs one (starting a session) stores one."""
    black, white = await Player(live_server).visit(), await Player(live_server).visit()
    game_id = await start_game(black, white)
    named = await Player(live_server).visit()
    await named.http.post("/api/auth/register", json={"username": "Honinbo", "password": "s3cret-Tengen-pw"})
    before = await count_users(database_url)
    rounds = [await _cookieless_requests(live_server, game_id, "Honinbo") for _ in range(7)]
    assert sum(map(len, rounds)) >= 150
    assert await count_users(database_url) == before
    expected = [
        200,
        403,
        200,
        200,
        200,
        200,
        200,
        200,
        200,
        200,
        200,
        200,
        200,
        422,
        422,
        404,
        401,
        401,
        200,
        401,
        "not_authenticated",
        "not_authenticated",
    ]
    assert rounds == [expected] * 7
    async with httpx.AsyncClient(base_url=live_server, timeout=60) as stranger:  # refused by the service, not the schema
        rated = await stranger.post("/api/challenges", json={"board_size": 9, "rated": True})
        assert rated.status_code == 403 and COOKIE_NAME not in stranger.cookies
    assert await count_users(database_url) == before
    async with httpx.AsyncClient(base_url=live_server, timeout=60) as stranger:
        me = await stranger.get("/api/me")
        nobody = {"id": None, "name": None, "guest": True, "bot": False, "rank": None, "sanction": None, "moderator": False}
        assert me.json() == nobody
        assert COOKIE_NAME not in stranger.cookies
    async with httpx.AsyncClient(base_url=live_server, timeout=60) as player:  # doing something that needs one does
        assert (await player.post("/api/challenges", json={"board_size": 9})).status_code == 201
        assert COOKIE_NAME in player.cookies
    assert await count_users(database_url) == before + 1
    for person in (black, white, named):
        await person.close()


async def test_new_guests_are_capped_per_address(make_live_server: MakeLiveServer, database_url: str) -> None:
    server = make_live_server(guests_per_address=2)
    before = await count_users(database_url)
    answers = []
    for _ in range(4):
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as stranger:
            answers.append((await stranger.post("/api/guest")).status_code)
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as stranger:
        refused = await stranger.post("/api/challenges", json={"board_size": 9})
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited"
        assert COOKIE_NAME not in stranger.cookies
    assert answers == [200, 200, 429, 429]
    assert await count_users(database_url) == before + 2


async def test_unused_guests_expire(make_live_server: MakeLiveServer, database_url: str) -> None:
    server = make_live_server(guest_ttl_hours=1 / 3600, housekeeping_seconds=0.3)
    busy = Player(server.url)  # its first request makes its guest and a challenge at once
    assert (await busy.http.post("/api/challenges", json={"board_size": 9})).status_code == 201
    busy.user = (await busy.http.get("/api/me")).json()
    idle = await Player(server.url).visit()
    for _ in range(100):
        await asyncio.sleep(0.1)
        if await count_users(database_url) == 1:
            break
    assert await count_users(database_url) == 1  # the guest with a challenge stays
    stale = idle.http.cookies[COOKIE_NAME]
    again = (await idle.http.post("/api/guest")).json()
    assert again["name"] != idle.user["name"]  # the expired guest's cookie starts a new guest
    # SQLite may give the new guest the deleted one's id: the stale cookie still names nobody.
    async with httpx.AsyncClient(base_url=server.url, cookies={COOKIE_NAME: stale}) as replay:
        assert (await replay.get("/api/me")).json()["name"] not in (idle.user["name"], again["name"])
    assert (await busy.http.get("/api/me")).json()["id"] == busy.user["id"]
    await idle.close()
    await busy.close()


async def test_practice_games_are_capped(make_live_server: MakeLiveServer) -> None:
    server = make_live_server(max_practice_games=2)
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as client:
        codes = [(await client.post("/api/practice", json={"size": 9})).status_code for _ in range(4)]
        refused = await client.post("/api/practice", json={"size": 9})
    assert codes == [201, 201, 409, 409]
    assert refused.json()["error"]["code"] == "too_many_practice_games"


async def test_untimed_games_and_open_challenges_are_capped(make_live_server: MakeLiveServer) -> None:
    server = make_live_server(max_untimed_games=2, max_open_challenges=3)
    host, guests = await Player(server.url).visit(), [await Player(server.url).visit() for _ in range(3)]
    for guest in guests[:2]:
        await start_game(host, guest, time_control=UNTIMED)
    refused = await host.http.post("/api/challenges", json={"board_size": 9, "time_control": UNTIMED})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "too_many_untimed_games"
    # With a clock it is fine, up to the cap on open challenges.
    codes = [
        (await host.http.post("/api/challenges", json={"board_size": 9, "time_control": TIMED})).status_code for _ in range(4)
    ]
    assert codes == [201, 201, 201, 409]
    # Someone else's untimed challenge cannot be accepted by a player already at the cap either.
    offer = (await guests[2].http.post("/api/challenges", json={"board_size": 9, "time_control": UNTIMED})).json()
    accepted = await host.http.post(f"/api/challenges/{offer['id']}/accept")
    assert accepted.status_code == 409 and accepted.json()["error"]["code"] == "too_many_untimed_games"
    for player in (host, *guests):
        await player.close()


async def test_abandoned_untimed_games_end(make_live_server: MakeLiveServer) -> None:
    server = make_live_server(untimed_abandon_days=2 / 86400, housekeeping_seconds=0.3)
    black, white = await Player(server.url).visit(), await Player(server.url).visit()
    untimed = await start_game(black, white, time_control=UNTIMED)
    timed = await start_game(black, white, time_control=TIMED)
    for _ in range(100):
        await asyncio.sleep(0.1)
        game = (await black.http.get(f"/api/games/{untimed}")).json()
        if game["status"] == "finished":
            break
    assert game["status"] == "finished" and game["result"] == "Void" and game["ended_by"] == "no_result", game
    assert (await black.http.get(f"/api/games/{timed}")).json()["status"] != "finished"
    await black.close()
    await white.close()


async def test_rooms_are_loaded_when_needed_not_at_start(make_live_server: MakeLiveServer) -> None:
    first = make_live_server()
    black, white = await Player(first.url).visit(), await Player(first.url).visit()
    untimed = [await start_game(black, white, time_control=UNTIMED) for _ in range(3)]
    for player in (black, white):
        await player.close()
    first.stop()
    second = make_live_server()
    await asyncio.sleep(1.0)
    assert not set(untimed) & set(second.app.state.rooms.rooms)  # nothing loaded the untimed games
    watcher = await Player(second.url).visit()
    sock = await watcher.socket(untimed[0])
    assert (await sock.of_type("snapshot"))["game"]["id"] == untimed[0]
    assert untimed[0] in second.app.state.rooms.rooms
    await sock.close()
    await watcher.close()
