"""Stopping a real ``tengen serve`` (SIGTERM, as a rolling restart does) on PostgreSQL and Redis, with game and
lobby sockets open: it ends within a few seconds, closes every socket with the code that tells clients to come
back (1012, "service restart"), and a move acknowledged before the signal is in the game after the restart.
"""

from __future__ import annotations

import signal
import socket
import subprocess
import time
from pathlib import Path

from tests.support.instances import POSTGRES_ONLY, Instances
from tests.support.instances import cluster, redis_cluster_prefix  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.support.players import guests, start_game

pytestmark = POSTGRES_ONLY

# Far above the few seconds a stop takes, far below the 10-20 s it took while the shutdown waited on its
# background work: a behaviour bound, not a benchmark.
STOP_BOUND_SECONDS = 8.0
SERVICE_RESTART = 1012


def slow_upload(port: int) -> socket.socket:
    """A client in the middle of sending a request's body (a phone on a slow network uploading an SGF)."""
    client = socket.create_connection(("127.0.0.1", port))
    client.sendall(
        b"POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b'Content-Length: 4000\r\n\r\n{"username": '
    )
    return client


def exit_seconds(process: subprocess.Popen[bytes]) -> float:
    started = time.monotonic()
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)
        return float("inf")
    return time.monotonic() - started


async def test_sigterm_stops_in_seconds_closing_sockets_for_a_reconnect_and_keeping_acknowledged_moves(
    cluster: Instances, tmp_path: Path
) -> None:
    (first,) = cluster.start(1)
    async with guests(first.url, 2) as (black, white):
        game_id = await start_game(black, white, time_control={"kind": "byoyomi", "main": 600, "periods": 3, "period_time": 30})
        b, w = await black.socket(game_id), await white.socket(game_id)
        await b.of_type("snapshot")
        await w.of_type("snapshot")
        lobbies = [await black.lobby(), await white.lobby()]
        for lobby in lobbies:
            await lobby.next()
        assert (await b.act({"t": "play", "p": [2, 2]}))["t"] == "ack"
        assert (await w.act({"t": "play", "p": [6, 6]}))["t"] == "ack"
        uploading = slow_upload(first.port)

        seconds = exit_seconds(first.process)
        assert seconds < STOP_BOUND_SECONDS, f"stopping took {seconds:.1f} s:\n{first.log_text()[-3000:]}"
        # uvicorn ends by raising the signal again once it has shut down, as a process killed by it would.
        assert first.process.returncode in (0, -signal.SIGTERM), first.log_text()[-3000:]
        print(f"stopped in {seconds:.2f} s")
        for sock in (b, w, *lobbies):
            assert await sock.close_code() == SERVICE_RESTART

        uploading.close()

        (second,) = cluster.start(1)
        again = await black.socket(game_id, base_url=second.url)
        snapshot = await again.of_type("snapshot")
        assert snapshot["v"] == 2
        await again.close()
