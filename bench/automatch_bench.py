"""Time to a pair when a compatible seeker is already waiting, on two instances (PostgreSQL + Redis).

Two real ``python -m app.cli serve`` processes share one PostgreSQL database (created for the run, dropped
afterwards) and one Redis key prefix (deleted afterwards). Each trial makes two fresh guests (a guest in a
game cannot look for another). The first opens a lobby socket and places a seek; once it is acknowledged, the
second, on the other instance for even trials and on the same one for odd trials, pings its own lobby socket
(the baseline: one round trip to the server and back) and then sends a compatible seek. The time to a pair
runs from that send until both players' sockets have received ``paired``: the claim in Redis, the game's
transaction in PostgreSQL and the private message through the hub to the other instance all count.

Prints p50/p99/max of the time to a pair (all trials, then cross-instance and same-instance), the same for the
baseline ping, and ``pair_p99_ms=<..> ratio_p99=<pair p99 / ping p99>`` last.

    .venv/bin/python bench/automatch_bench.py [--trials 200]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import httpx
import orjson
import websockets

from tests.support.instances import Instances, delete_redis_prefix
from tests.support.services import POSTGRES_URL, REDIS_URL, pg_admin
from websockets.asyncio.client import ClientConnection
from ws_clients import percentile

SEEK = {"sizes": [9], "speeds": ["blitz"], "rules": "any"}
TIMEOUT = 30.0
_ids = itertools.count(1)


class Seeker:
    """A guest with a lobby socket on one instance."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.http = httpx.AsyncClient(base_url=url)
        self.ws: ClientConnection | None = None

    async def connect(self) -> None:
        (await self.http.post("/api/guest")).raise_for_status()
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        self.ws = await websockets.connect(
            self.url.replace("http://", "ws://") + "/ws/lobby", additional_headers={"Cookie": cookie}
        )

    async def until(self, kind: str, client_id: str | None = None) -> dict:
        async def scan() -> dict:
            while True:
                assert self.ws is not None, "connect() first"
                message = orjson.loads(await self.ws.recv())
                if message.get("t") == "error" and message.get("id") == client_id:
                    raise RuntimeError(f"refused: {message}")
                if message.get("t") == kind and (client_id is None or message.get("id") == client_id):
                    return message

        return await asyncio.wait_for(scan(), TIMEOUT)

    async def send(self, message: dict) -> str:
        client_id = f"b{next(_ids)}"
        assert self.ws is not None, "connect() first"
        await self.ws.send(orjson.dumps({**message, "id": client_id}).decode())
        return client_id

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        await self.http.aclose()


async def trial(waiting_url: str, arriving_url: str) -> tuple[float, float]:
    """(time to a pair, baseline ping round trip), in seconds."""
    waiting, arriving = Seeker(waiting_url), Seeker(arriving_url)
    try:
        await waiting.connect()
        await arriving.connect()
        await waiting.until("snapshot")
        await arriving.until("snapshot")
        await waiting.until("ack", await waiting.send({"t": "seek", **SEEK}))
        started = time.perf_counter()
        await arriving.until("pong", await arriving.send({"t": "ping"}))
        ping = time.perf_counter() - started
        await asyncio.sleep(0.05)
        started = time.perf_counter()
        await arriving.send({"t": "seek", **SEEK})
        first, second = await asyncio.gather(waiting.until("paired"), arriving.until("paired"))
        elapsed = time.perf_counter() - started
        assert first["game_id"] == second["game_id"], (first, second)
        return elapsed, ping
    finally:
        await waiting.close()
        await arriving.close()


async def run(urls: list[str], trials: int) -> dict[str, list[float]]:
    figures: dict[str, list[float]] = {"cross": [], "same": [], "ping": []}
    for n in range(trials):
        first = urls[n % 2]
        second = urls[(n + 1) % 2] if n % 2 == 0 else first
        elapsed, ping = await trial(first, second)
        figures["cross" if second != first else "same"].append(elapsed)
        figures["ping"].append(ping)
        await asyncio.sleep(0.2)  # the lobby socket budget is per address: keep well under it
    return figures


def _line(name: str, values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return f"{name} n={len(ms)} p50_ms={percentile(ms, 50):.1f} p99_ms={percentile(ms, 99):.1f} max_ms={max(ms):.1f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=200)
    opts = parser.parse_args()
    name = f"tengen_bench_{uuid.uuid4().hex}"
    prefix = f"tengen-bench-{uuid.uuid4().hex}:"
    pg_admin(f'CREATE DATABASE "{name}"')
    database_url = POSTGRES_URL.rpartition("/")[0] + "/" + name
    load = os.getloadavg()[0]
    print(
        f"cpus={os.cpu_count()} trials={opts.trials} load_average_1min={load:.2f} (servers, clients, PostgreSQL "
        f"and Redis share these cores)"
    )
    try:
        with tempfile.TemporaryDirectory() as workdir:
            group = Instances(database_url, REDIS_URL, prefix, Path(workdir), secret_key=uuid.uuid4().hex)
            group.env["TENGEN_SOCKETS_PER_ADDRESS"] = "0"
            try:
                group.start(1)[0].stop()  # migrate the new database once, before any timing
                urls = [instance.url for instance in group.start(2)]
                figures = asyncio.run(run(urls, opts.trials))
            finally:
                group.stop_all()
    finally:
        pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        delete_redis_prefix(prefix)
    pairs = figures["cross"] + figures["same"]
    print(_line("pair_all", pairs))
    print(_line("pair_cross_instance", figures["cross"]))
    print(_line("pair_same_instance", figures["same"]))
    print(_line("baseline_ping", figures["ping"]))
    p99 = percentile([v * 1000 for v in pairs], 99)
    print(f"pair_p99_ms={p99:.1f} ratio_p99={p99 / percentile([v * 1000 for v in figures['ping']], 99):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
