"""Limits that must hold across instances (PostgreSQL + Redis, real server processes): log-in attempts, chat
per user, and log-out closing the user's sockets wherever they are."""

from __future__ import annotations

import asyncio

import httpx
import pytest
import websockets

from tests.support.instances import POSTGRES_ONLY, Instances, cluster, redis_cluster_prefix  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.support.players import Player, start_game

pytestmark = [POSTGRES_ONLY, pytest.mark.timeout(120)]

PASSWORD = "correct horse battery"


async def test_wrong_passwords_are_counted_across_instances(cluster: Instances) -> None:
    a, b = cluster.start(2)
    async with httpx.AsyncClient(timeout=60) as client:
        registered = await client.post(a.url + "/api/auth/register", json={"username": "Shusai", "password": PASSWORD})
        assert registered.status_code == 201
    codes = []
    async with httpx.AsyncClient(timeout=60) as attacker:
        for i in range(12):
            url = (a if i % 2 else b).url
            guess = {"username": "Shusai", "password": f"g{i}xxxxx"}
            codes.append((await attacker.post(url + "/api/auth/login", json=guess)).status_code)
    assert codes == [401] * 10 + [429] * 2


async def test_chat_is_limited_per_user_across_instances(cluster: Instances) -> None:
    a, b = cluster.start(2)
    black, white = await Player(a.url).visit(), await Player(a.url).visit()
    game_id = await start_game(black, white)
    sockets = [await black.socket(game_id, base_url=a.url), await black.socket(game_id, base_url=b.url)]
    try:
        answers = [await sockets[i % 2].act({"t": "chat", "channel": "players", "text": f"line {i}"}) for i in range(4)]
        assert [m["t"] for m in answers] == ["ack"] * 2 + ["error"] * 2  # a guest's (a new account's) limit
        assert answers[-1]["code"] == "chat_rate_limited"
    finally:
        for sock in sockets:
            await sock.close()
        await black.close()
        await white.close()


async def test_logging_out_closes_the_sockets_on_every_instance(cluster: Instances) -> None:
    a, b = cluster.start(2)
    black, white = await Player(a.url).visit(), await Player(a.url).visit()
    assert (await black.http.post("/api/auth/register", json={"username": "Gennan", "password": PASSWORD})).status_code == 201
    game_id = await start_game(black, white)
    on_a, on_b = await black.socket(game_id, base_url=a.url), await black.socket(game_id, base_url=b.url)
    watching = await white.socket(game_id, base_url=b.url)
    try:
        for sock in (on_a, on_b, watching):
            await sock.of_type("snapshot")
        assert (await black.http.post("/api/auth/logout")).status_code == 200
        for sock in (on_a, on_b):
            with pytest.raises(websockets.ConnectionClosed) as closed:
                while True:
                    await sock.next(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
        assert (await watching.act({"t": "chat", "channel": "players", "text": "still here"}))["t"] == "ack"
    finally:
        for sock in (on_a, on_b, watching):
            await sock.close()
        await black.close()
        await white.close()
        await asyncio.sleep(0)
