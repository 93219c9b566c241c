"""``deploy/nginx.conf`` run for real: Debian's nginx in front of two ``tengen serve`` processes on one
PostgreSQL database and one Redis prefix.

nginx runs in the foreground as this test's child, with its own prefix, temporary directories and a free
port (``tests/support/nginx.py`` changes only the upstream addresses, the port and the paths). Through it: the
WebSocket upgrade works, HTTP and the lobby socket are spread over both instances, every socket of one game
goes to one instance (hashed on the game id), and when that instance is killed mid-game its clients reconnect
through nginx, land on the other one and continue from the version they had, with no event missing.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets

from tests.support.instances import (  # noqa: F401 - pytest fixtures, taken by name as test parameters
    POSTGRES_ONLY,
    Instance,
    Instances,
    cluster,
    redis_cluster_prefix,
)
from tests.support.nginx import Nginx
from tests.support.players import GameSocket, Player, guests, start_game
from tests.support.services import need_nginx

pytestmark = [POSTGRES_ONLY, pytest.mark.timeout(120)]

CLOCK = {"kind": "fischer", "main": 300, "increment": 5}
BLACK_POINTS = [[x, y] for y in (0, 1) for x in range(9)]
WHITE_POINTS = [[x, y] for y in (8, 7) for x in range(9)]


def point(move: int) -> list[int]:
    return (BLACK_POINTS if move % 2 else WHITE_POINTS)[(move - 1) // 2]


def address(instance: Instance) -> str:
    return instance.url.removeprefix("http://")


@pytest.fixture
def proxied(cluster: Instances, tmp_path: Path) -> Iterator[tuple[Nginx, Instance, Instance]]:
    need_nginx()
    a, b = cluster.start(2)
    nginx = Nginx([address(a), address(b)], tmp_path / "nginx")
    try:
        nginx.wait_ready()
        yield nginx, a, b
    finally:
        nginx.stop()


def _logged(nginx: Nginx, path_prefix: str, count: int, timeout: float = 10.0) -> list[dict]:
    """The access log's requests whose path starts with ``path_prefix``, once there are ``count`` of them."""
    deadline = time.monotonic() + timeout
    while True:
        entries = [json.loads(line) for line in nginx.requests()]
        found = [e for e in entries if e["path"].startswith(path_prefix)]
        if len(found) >= count or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def _sockets_on(instance: Instance) -> float:
    """``tengen_connected_sockets`` of one instance, read from it directly (nginx hides /metrics)."""
    for line in httpx.get(instance.url + "/metrics", timeout=10).text.splitlines():
        if line.startswith("tengen_connected_sockets "):
            return float(line.split()[1])
    raise AssertionError("no tengen_connected_sockets gauge")


async def _gauges_become(instances: tuple[Instance, ...], expected: list[float], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        seen = [await asyncio.to_thread(_sockets_on, i) for i in instances]
        if seen == expected:
            return
        assert time.monotonic() < deadline, (seen, expected)
        await asyncio.sleep(0.05)


async def _closed(sock: GameSocket, timeout: float = 15.0) -> None:
    """Keep every message until the server side of ``sock`` goes away."""
    try:
        while True:
            sock.received.append(json.loads(await asyncio.wait_for(sock.connection.recv(), timeout)))
    except websockets.ConnectionClosed:
        return


async def _reconnect(player: Player, game_id: str, v: int) -> GameSocket:
    """Reconnect through nginx as a client does: again after a short pause while the handshake fails."""
    for attempt in range(50):
        try:
            return await player.socket(game_id, v=v)
        except (OSError, websockets.InvalidStatus, websockets.InvalidHandshake):
            await asyncio.sleep(0.1 * min(attempt + 1, 5))
    raise AssertionError("no instance took the socket through nginx")


def _last_seen(sock: GameSocket) -> int:
    return max((m["v"] for m in sock.versioned()), default=0)


async def test_http_and_lobby_are_balanced_and_every_socket_of_a_game_meets_on_one_instance(
    proxied: tuple[Nginx, Instance, Instance],
) -> None:
    nginx, a, b = proxied
    both = {address(a), address(b)}
    async with guests(nginx.url, 2) as people:
        # HTTP: least_conn over keep-alive upstream connections reaches both instances.
        for _ in range(10):
            assert (await people[0].http.get("/api/me")).status_code == 200
        assert (await people[0].http.get("/nginx-health")).text == "ok\n"
        assert (await people[0].http.get("/metrics")).status_code == 404
        http = _logged(nginx, "/api/me", 10)
        assert {e["upstream"] for e in http} == both and all(e["status"] == 200 for e in http), http

        # The lobby socket: four open at once are spread over both (least_conn counts the open ones).
        ws_url = nginx.url.replace("http://", "ws://")
        lobbies = [await websockets.connect(ws_url + "/ws/lobby") for _ in range(4)]
        for lobby in lobbies:
            assert json.loads(await asyncio.wait_for(lobby.recv(), 10))["t"] == "snapshot"
        for lobby in lobbies:
            await lobby.close()
        logged = _logged(nginx, "/ws/lobby", 4)
        assert [e["status"] for e in logged] == [101] * 4, logged
        assert {e["upstream"] for e in logged} == both, logged

        # Game sockets: hashed on the game id. Players and a spectator of one game meet on one instance, and
        # games land on both instances (a game in two has a chance of 1/2 of landing on either: 20 tries).
        hosts: dict[str, str] = {}
        while set(hosts.values()) != both and len(hosts) < 20:
            game_id = await start_game(people[0], people[1])
            sockets = [await people[0].socket(game_id), await people[1].socket(game_id), await people[0].socket(game_id)]
            for sock in sockets:
                assert (await sock.of_type("snapshot"))["v"] == 0
            for sock in sockets:
                await sock.close()
            game = _logged(nginx, f"/ws/games/{game_id}", 3)
            assert len(game) == 3 and {e["status"] for e in game} == {101}, game
            upstreams = {e["upstream"] for e in game}
            assert len(upstreams) == 1 and upstreams <= both, game
            hosts[game_id] = upstreams.pop()
        assert set(hosts.values()) == both, hosts


async def test_an_instance_killed_mid_game_its_clients_reconnect_through_nginx_and_lose_nothing(
    proxied: tuple[Nginx, Instance, Instance],
) -> None:
    nginx, a, b = proxied
    streams: dict[str, list[dict]] = {"B": [], "W": [], "S": []}
    async with guests(nginx.url, 3) as (black, white, watcher):
        game_id = await start_game(black, white, time_control=CLOCK)
        sockets = {"B": await black.socket(game_id), "W": await white.socket(game_id), "S": await watcher.socket(game_id)}
        for sock in sockets.values():
            assert (await sock.of_type("snapshot"))["v"] == 0
        # All three are on one instance: which one, the hash of the game id decided.
        host, survivor = (a, b) if _sockets_on(a) else (b, a)
        await _gauges_become((host, survivor), [3.0, 0.0])

        for move in range(1, 8):
            sock = sockets["B" if move % 2 else "W"]
            ack = await sock.act({"t": "play", "p": point(move)})
            assert ack["t"] == "ack" and ack["v"] == move, ack
        host.kill()  # move 7 is acknowledged; white and the spectator may or may not have received it yet

        for sock in sockets.values():
            await _closed(sock)  # nginx closes each client socket once its upstream connection is gone
        for role, sock in sockets.items():
            streams[role] += sock.versioned()
        player_of = {"B": black, "W": white, "S": watcher}
        back = {role: await _reconnect(player_of[role], game_id, _last_seen(sock)) for role, sock in sockets.items()}
        await _gauges_become((survivor,), [3.0])

        for role, sock in back.items():
            if _last_seen(sockets[role]) < 7:
                await sock.caught_up(7, timeout=20)
        for move in (8, 9):
            sock = back["B" if move % 2 else "W"]
            ack = await sock.act({"t": "play", "p": point(move)}, timeout=20)
            assert ack["t"] == "ack" and ack["v"] == move, ack
        for role, sock in back.items():
            await sock.event(9, timeout=20)
            resyncs = sock.resyncs()
            if resyncs:
                # The killed instance committed move 7 but its hub never logged it: the reconnect gets one
                # resync snapshot holding every move, then the events after it.
                assert len(resyncs) == 1 and resyncs[0]["v"] == 7, (role, resyncs)
                assert [m["p"] for m in resyncs[0]["game"]["moves"]] == [point(n) for n in range(1, 8)]
                streams[role] = [m for m in streams[role] if m["v"] > 7]
                assert [m["v"] for m in streams[role] + sock.versioned()] == [8, 9], (role, sock.received[:3])
                continue
            # The reconnect replayed exactly what was missed: no gap, no repeat.
            streams[role] += sock.versioned()
            assert [m["v"] for m in streams[role]] == list(range(1, 10)), (role, streams[role])
            assert [m.get("p") for m in streams[role] if m["t"] == "move"] == [point(n) for n in range(1, 10)]

        detail = (await watcher.http.get(f"/api/games/{game_id}")).json()
        assert detail["version"] == 9 and [m["p"] for m in detail["moves"]] == [point(n) for n in range(1, 10)]
        for sock in back.values():
            await sock.close()
        # nginx sent each reconnect to the killed instance's place on the ring first, found it refusing
        # connections and went on to the survivor (``$upstream_addr`` lists every instance tried).
        logged = _logged(nginx, f"/ws/games/{game_id}", 6)
        assert [e["upstream"].split(", ")[-1] for e in logged[3:]] == [address(survivor)] * 3, logged
