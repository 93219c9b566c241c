"""The same workload of concurrent games against one Tengen instance, then against two, in one run.

Each instance is a real ``python -m app.cli serve`` process; all share one PostgreSQL database (created for
the run and dropped afterwards) and one Redis key prefix (deleted afterwards). Clients run in their own
processes (``--client-procs``): every game has two players, each on a WebSocket, alternating moves on a
19x19 board and waiting for each acknowledgement before the next move (a new game starts when one fills up).
A socket may send 10 messages a second (the server's rate limit), so one game tops out near 20 moves/s: use
enough games that the servers, not that limit, are what is measured (refusals are counted as ``errors``).
With two instances, each game is routed to one instance (``--placement game``, as a load balancer hashing
the ``/ws/games/<id>`` path does) or its two players are put on different instances (``--placement spread``,
the worst case: every event crosses the hub).

Prints, for each phase, moves per second and the p50/p99 round trip (send -> ack), then ``scale_ratio=<two/one>``
last. Everything (servers, PostgreSQL, Redis, clients) shares this machine's cores: see ``os.cpu_count()``.

    /work/main/.venv/bin/python bench/scale_bench.py [--games 40] [--seconds 15] [--client-procs 2]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import multiprocessing
import os
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import httpx  # noqa: E402
import orjson  # noqa: E402
import websockets  # noqa: E402

from tests.support.instances import Instances, delete_redis_prefix  # noqa: E402
from tests.support.services import POSTGRES_URL, REDIS_URL  # noqa: E402

SIZE = 19
BLACK_POINTS = [[x, y] for y in range(0, 9) for x in range(SIZE)]
WHITE_POINTS = [[x, y] for y in range(10, SIZE) for x in range(SIZE)]
MOVES_PER_GAME = 2 * min(len(BLACK_POINTS), len(WHITE_POINTS))


class Seat:
    """A lean game socket: a reader task drains every message and resolves the awaited acks."""

    def __init__(self, connection) -> None:  # type: ignore[no-untyped-def]
        self.connection = connection
        self.waiting: dict[str, asyncio.Future] = {}
        self.ids = itertools.count()
        self.snapshot = asyncio.get_running_loop().create_future()
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for raw in self.connection:
                message = orjson.loads(raw)
                kind = message.get("t")
                if kind == "snapshot" and not self.snapshot.done():
                    self.snapshot.set_result(message)
                elif kind == "error" and message.get("id") is None:
                    # Refused before parsing (the per-socket rate limit: 10 messages/s): fail what waits.
                    for future in self.waiting.values():
                        if not future.done():
                            future.set_result(message)
                    self.waiting.clear()
                elif kind in ("ack", "error"):
                    future = self.waiting.pop(message.get("id"), None)
                    if future is not None and not future.done():
                        future.set_result(message)
        except websockets.ConnectionClosed:
            pass

    async def act(self, message: dict) -> dict:
        client_id = f"b{next(self.ids)}"
        future = asyncio.get_running_loop().create_future()
        self.waiting[client_id] = future
        await self.connection.send(orjson.dumps({**message, "id": client_id}).decode())
        return await asyncio.wait_for(future, 30)

    async def close(self) -> None:
        await self.connection.close()
        self.reader.cancel()


async def _user(url: str) -> httpx.AsyncClient:
    client = httpx.AsyncClient(base_url=url, timeout=30)
    (await client.get("/api/me")).raise_for_status()
    return client


async def _seat(client: httpx.AsyncClient, url: str, game_id: str) -> Seat:
    cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
    ws_url = url.replace("http://", "ws://") + f"/ws/games/{game_id}"
    seat = Seat(await websockets.connect(ws_url, additional_headers={"Cookie": cookie}, max_size=2**22))
    await asyncio.wait_for(seat.snapshot, 30)
    return seat


async def _run_clients(urls: list[str], games: list[int], placement: str, warmup: float, seconds: float):
    start = time.monotonic()
    measure_from, end = start + warmup, start + warmup + seconds
    rtts: list[float] = []
    errors = 0

    async def table(index: int) -> None:
        nonlocal errors
        black_url = urls[index % len(urls)]
        white_url = urls[(index + 1) % len(urls)] if placement == "spread" else black_url
        black, white = await _user(black_url), await _user(white_url)
        try:
            while time.monotonic() < end:
                body = {"board_size": SIZE, "rules": "chinese", "color": "black", "time_control": {"kind": "none"}}
                offered = (await black.post("/api/challenges", json=body)).json()
                challenge_id = offered.get("id") or offered["challenge"]["id"]
                accepted = (await white.post(f"/api/challenges/{challenge_id}/accept")).json()
                game_id = accepted.get("game_id") or accepted["game"]["id"]
                seats = [await _seat(black, black_url, game_id), await _seat(white, white_url, game_id)]
                for move in range(1, MOVES_PER_GAME + 1):
                    if time.monotonic() >= end:
                        break
                    points = BLACK_POINTS if move % 2 else WHITE_POINTS
                    sent = time.monotonic()
                    reply = await seats[(move + 1) % 2].act({"t": "play", "p": points[(move - 1) // 2]})
                    done = time.monotonic()
                    if reply.get("t") != "ack":
                        errors += 1
                    elif sent >= measure_from and done <= end:
                        rtts.append(done - sent)
                for seat in seats:
                    await seat.close()
        finally:
            await black.aclose()
            await white.aclose()

    await asyncio.gather(*(table(i) for i in games))
    return rtts, errors


def _client_process(args: tuple) -> tuple[list[float], int]:
    return asyncio.run(_run_clients(*args))


def run_phase(instances: int, group: Instances, opts: argparse.Namespace) -> dict:
    started = group.start(instances)
    urls = [i.url for i in started]
    shares = [list(range(p, opts.games, opts.client_procs)) for p in range(opts.client_procs)]
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(opts.client_procs) as pool:
        results = pool.map(_client_process, [(urls, share, opts.placement, opts.warmup, opts.seconds)
                                              for share in shares])
    for instance in started:
        instance.stop()
    rtts = sorted(r for rs, _ in results for r in rs)
    errors = sum(e for _, e in results)
    p = lambda q: rtts[min(len(rtts) - 1, int(q * len(rtts)))] * 1000 if rtts else float("nan")  # noqa: E731
    return {"moves_per_s": len(rtts) / opts.seconds, "p50_ms": p(0.50), "p99_ms": p(0.99), "errors": errors,
            "moves": len(rtts)}


def _pg_admin(statement: str) -> None:
    import asyncpg

    async def run() -> None:
        connection = await asyncpg.connect(POSTGRES_URL.replace("postgresql+asyncpg://", "postgresql://"))
        try:
            await connection.execute(statement)
        finally:
            await connection.close()

    asyncio.run(run())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="concurrent games")
    parser.add_argument("--seconds", type=float, default=15.0, help="measured seconds per phase")
    parser.add_argument("--warmup", type=float, default=3.0, help="unmeasured seconds before each phase")
    parser.add_argument("--client-procs", type=int, default=2, help="client processes")
    parser.add_argument("--placement", choices=("game", "spread"), default="game")
    opts = parser.parse_args()

    name = f"tengen_bench_{uuid.uuid4().hex}"
    prefix = f"tengen-bench-{uuid.uuid4().hex}:"
    _pg_admin(f'CREATE DATABASE "{name}"')
    database_url = POSTGRES_URL.rpartition("/")[0] + "/" + name
    print(f"cpus={os.cpu_count()} games={opts.games} seconds={opts.seconds} client_procs={opts.client_procs} "
          f"placement={opts.placement} (servers, clients, PostgreSQL and Redis share these cores)")
    try:
        with tempfile.TemporaryDirectory() as workdir:
            group = Instances(database_url, REDIS_URL, prefix, Path(workdir), secret_key=uuid.uuid4().hex)
            try:
                group.start(1)[0].stop()  # migrate the new database once, before any timing
                figures = {}
                for count in (1, 2):
                    figures[count] = run_phase(count, group, opts)
                    f = figures[count]
                    print(f"instances={count} moves_per_s={f['moves_per_s']:.1f} p50_ms={f['p50_ms']:.1f} "
                          f"p99_ms={f['p99_ms']:.1f} moves={f['moves']} errors={f['errors']}")
            finally:
                group.stop_all()
    finally:
        _pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        delete_redis_prefix(prefix)
    print(f"scale_ratio={figures[2]['moves_per_s'] / figures[1]['moves_per_s']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
