"""``/ws/lobby`` on a real uvicorn: the snapshot, then challenges and games as they come and go."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.typing import Origin

from app.accounts.cookies import COOKIE_NAME
from app.transport.connection import FLOOD_LIMIT


async def _next(ws: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        message = json.loads(await ws.recv())
        if message["t"] == kind:
            return message


async def test_lobby_socket_follows_challenges_and_games(live_server: str) -> None:
    ws_url = live_server.replace("http://", "ws://") + "/ws/lobby"
    async with httpx.AsyncClient(base_url=live_server) as alice, httpx.AsyncClient(base_url=live_server) as bob:
        early = (await alice.post("/api/challenges", json={"board_size": 13})).json()
        async with connect(ws_url, additional_headers={"Cookie": f"{COOKIE_NAME}={alice.cookies[COOKIE_NAME]}"}) as ws:
            snapshot = json.loads(await ws.recv())
            assert snapshot["t"] == "snapshot" and [c["id"] for c in snapshot["challenges"]] == [early["id"]]
            assert snapshot["games"] == []

            await ws.send(json.dumps({"t": "ping", "id": "p1"}))
            assert (await _next(ws, "pong"))["id"] == "p1"

            challenge = (await alice.post("/api/challenges", json={"board_size": 9})).json()
            created = await _next(ws, "challenge_created")
            assert created["challenge"]["id"] == challenge["id"] and "token" not in created["challenge"]

            await alice.delete(f"/api/challenges/{early['id']}")
            assert await _next(ws, "challenge_removed") == {"t": "challenge_removed", "id": early["id"], "reason": "cancelled"}

            accepted = (await bob.post(f"/api/challenges/{challenge['id']}/accept")).json()
            removed = await _next(ws, "challenge_removed")
            assert removed["id"] == challenge["id"] and removed["reason"] == "accepted"
            started = await _next(ws, "game_started")
            # The creator learns where to go.
            assert started["challenge_id"] == challenge["id"]
            assert started["game_id"] == accepted["game_id"] and started["url"] == accepted["url"]
            assert started["game"]["board_size"] == 9


async def test_private_challenges_are_not_announced(live_server: str) -> None:
    ws_url = live_server.replace("http://", "ws://") + "/ws/lobby"
    async with httpx.AsyncClient(base_url=live_server) as alice:
        async with connect(ws_url) as ws:
            await _next(ws, "snapshot")
            await alice.post("/api/challenges", json={"private": True})
            public = (await alice.post("/api/challenges", json={})).json()
            # The first announcement is the public challenge: the private one was never sent.
            assert (await _next(ws, "challenge_created"))["challenge"]["id"] == public["id"]


async def test_foreign_origin_websocket_is_refused(live_server: str) -> None:
    ws_url = live_server.replace("http://", "ws://") + "/ws/lobby"
    with pytest.raises(InvalidStatus) as refused:
        async with connect(ws_url, origin=Origin("http://evil.example")):
            pass
    assert refused.value.response.status_code == 403
    async with connect(ws_url, origin=Origin(live_server)) as ws:
        assert json.loads(await ws.recv())["t"] == "snapshot"


async def test_the_twentieth_refusal_closes_the_lobby_socket_as_it_does_a_game_socket(live_server: str) -> None:
    """Same rule as the game socket (tests/games/live/test_room.py): 20 refusals answered, each naming its frame,
    then close 4029."""
    async with connect(live_server.replace("http://", "ws://") + "/ws/lobby") as ws:
        assert json.loads(await ws.recv())["t"] == "snapshot"
        for n in range(200):
            try:
                await ws.send(json.dumps({"t": "ping", "id": f"f{n}"}))
            except ConnectionClosed:
                break
        received = []
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                received.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4029
    refused = [m for m in received if m["t"] == "error"]
    assert len(refused) == FLOOD_LIMIT == 20 and {m["code"] for m in refused} == {"rate_limited"}
    assert len({m["id"] for m in refused}) == 20 and all(m["id"].startswith("f") for m in refused)


async def test_the_feed_of_a_user_s_own_games_carries_nothing_of_the_public_lobby(live_server: str) -> None:
    """``?feed=mine`` (the header's socket on every page): an empty public snapshot, then only what is the
    user's own; a whole feed of the same user, beside it, gets the public news in between."""
    base = live_server.replace("http://", "ws://") + "/ws/lobby"
    async with httpx.AsyncClient(base_url=live_server) as alice, httpx.AsyncClient(base_url=live_server) as bob:
        (await alice.post("/api/challenges", json={"board_size": 13})).raise_for_status()
        (await bob.post("/api/guest")).raise_for_status()
        cookie = {"Cookie": f"{COOKIE_NAME}={bob.cookies[COOKIE_NAME]}"}
        async with (
            connect(base + "?feed=mine", additional_headers=cookie) as mine,
            connect(base, additional_headers=cookie) as whole,
        ):
            snapshot = json.loads(await mine.recv())
            assert snapshot["t"] == "snapshot" and snapshot["challenges"] == [] and snapshot["games"] == []
            assert len((await _next(whole, "snapshot"))["challenges"]) == 1

            challenge = (await alice.post("/api/challenges", json={"board_size": 9})).json()
            await _next(whole, "challenge_created")
            accepted = (await bob.post(f"/api/challenges/{challenge['id']}/accept")).json()
            seen: list[dict[str, Any]] = []
            while not seen or seen[-1]["t"] != "my_game":
                seen.append(json.loads(await whole.recv()))
            assert {m["t"] for m in seen} >= {"challenge_removed", "game_started"}
            first = json.loads(await mine.recv())  # the public news before it never came
            assert first["t"] == "my_game" and first["game"]["id"] == accepted["game_id"], first
