"""Limits that must hold across instances (PostgreSQL + Redis, real server processes): log-in attempts, chat
per user, sockets per user and per address, and log-out closing the user's sockets wherever they are."""

from __future__ import annotations

import asyncio

import httpx
import pytest
import websockets

from tests.support.instances import POSTGRES_ONLY, Instances, cluster, redis_cluster_prefix  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.support.players import GameSocket, Player, start_game

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
    # The limit counts in fixed windows: an hour-long one, so that four lines never straddle a window's end on a
    # slow machine (with the default 10 s, a boundary between the second and the third line let the third through).
    cluster.env["TENGEN_CHAT_WINDOW"] = "3600"
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


async def _refused(sock: GameSocket) -> bool:
    """Whether a just-opened socket was refused for too many sockets (its first message, then close 4429)."""
    first = await sock.next(timeout=10)
    if first.get("code") != "too_many_sockets":
        return False
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await sock.next(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
    return True


async def test_socket_caps_hold_across_instances_and_a_killed_instances_sockets_stop_counting(
    cluster: Instances,
) -> None:
    cluster.env.update({"TENGEN_SOCKETS_PER_USER": "3", "TENGEN_SOCKETS_PER_ADDRESS": "5", "TENGEN_SOCKET_SLOT_SECONDS": "2"})
    a, b = cluster.start(2)
    black, white = await Player(a.url).visit(), await Player(a.url).visit()
    game_id = await start_game(black, white)
    opened = []
    try:
        for url in (a.url, b.url, a.url):  # the user's cap: three, wherever they are
            opened.append(await black.socket(game_id, base_url=url))
            assert (await opened[-1].of_type("snapshot"))["game"]["id"] == game_id
        for url in (a.url, b.url):
            assert await _refused(await black.socket(game_id, base_url=url))
        for url in (b.url, a.url):  # the address's cap (every socket here comes from 127.0.0.1): five
            opened.append(await white.socket(game_id, base_url=url))
            await opened[-1].of_type("snapshot")
        for url in (a.url, b.url):
            assert await _refused(await white.socket(game_id, base_url=url))
        a.kill()  # its three sockets die with it, without giving their slots back
        regained = 0
        for _ in range(100):  # they lapse within TENGEN_SOCKET_SLOT_SECONDS of the last renewal
            sock = await black.socket(game_id, base_url=b.url)
            if not await _refused(sock):
                opened.append(sock)
                regained += 1
                if regained == 2:
                    break
                continue
            await asyncio.sleep(0.2)
        assert regained == 2, "the killed instance's sockets still count"
        assert await _refused(await black.socket(game_id, base_url=b.url))  # 1 on b before, 2 regained: full
    finally:
        for sock in opened:
            await sock.close()
        await black.close()
        await white.close()
