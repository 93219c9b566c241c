"""Players under attack: the room bench's games, with and without attackers, in one run on one machine.

Starts one Tengen server process (``tengen serve`` on a fresh PostgreSQL database, in-process hub; with
``--redis`` the Redis hub, so the limits are counted in Redis) and plays ``--games`` games of random legal
moves, one move per game every ``--interval`` seconds, watched by ``--spectators`` sockets each (the room
bench's tables, ``room_bench.TengenGames``). Rounds alternate: quiet, then under attack. During an attack
round a separate attacker process pushes, as fast as the caps let it:

- wrong passwords at one account and at made-up names (``--login-workers`` clients), answered 401, then 429;
- refused actions: ``--refusers`` spectator sockets each sending moves at the socket rate (10/s), all refused
  (``not_a_player``), and the same number of chat lines, refused past 4 per 10 s per user;
- lobby pings from ``--lobby-sockets`` sockets at the lobby rate.

Prints the players' move round trip (send -> ack) p50/p99 quiet and under attack, what the attackers got
through, and as its last line ``attack_ratio=<p99 under attack / p99 quiet>``.

CPU: like ``room_bench.py``, the bench moves itself, and with it the server, the players' clients and the
attacker process it starts, and the PostgreSQL backends of its database, into a cgroup of its own weighing 256
times the default (``cpu.shares`` 262144 on cgroup v1, ``cpu.weight`` 10000 on v2; no quota): other jobs on a
shared machine then wait for a core behind the bench, while the attackers still compete with the server
inside it, as they would on one host. Needs root and a writable ``/sys/fs/cgroup``; without, or with
``TENGEN_BENCH_CPU_GROUP=0``, it says so and runs as it is. Quiet and attacked rounds alternate in one run.

    .venv/bin/python bench/attack_bench.py [--games 100] [--spectators 5] [--moves 20]
        [--interval 1.0] [--rounds 4] [--redis] [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import asyncpg  # noqa: E402 - imported after sys.path names the repository
import httpx  # noqa: E402 - imported after sys.path names the repository
import orjson  # noqa: E402 - imported after sys.path names the repository
import websockets  # noqa: E402 - imported after sys.path names the repository

from cpu_groups import Favoured  # noqa: E402 - imported after sys.path names the repository
from room_bench import (  # noqa: E402 - imported after sys.path names the repository
    ADMIN_DSN,
    Backends,
    Server,
    TengenGames,
    free_port,
    ms,
    start_tengen,
    wait_listening,
)
from ws_clients import percentile  # noqa: E402 - imported after sys.path names the repository

REDIS_URL = os.environ.get("TENGEN_BENCH_REDIS", "redis://127.0.0.1:6379/0")
PASSWORD = "the right password"


# ---------------------------------------------------------------- the attacker process


class Start:
    """Every attacker connects first; the attack starts for all at once, and lasts ``seconds`` from then."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.go = asyncio.Event()
        self.stop = 0.0
        self.waiting = 0

    async def wait(self) -> float:
        self.waiting += 1
        await self.go.wait()
        return self.stop


async def _logins(base: str, start: Start, counts: Counter[str], worker: int) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        n = 0
        stop = await start.wait()
        while time.monotonic() < stop:
            n += 1
            name = "victim" if n % 2 else f"nobody{worker}x{n}"
            response = await client.post("/api/auth/login", json={"username": name, "password": f"guess-{n}"})
            counts[f"login {response.status_code}"] += 1


async def _refuser(base: str, game_id: str, start: Start, counts: Counter[str], rate: float) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        (await client.post("/api/guest")).raise_for_status()
        cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
    url = base.replace("http://", "ws://") + f"/ws/games/{game_id}"
    async with websockets.connect(url, additional_headers={"Cookie": cookie}, max_size=2**22, open_timeout=60) as ws:

        async def read() -> None:
            with contextlib.suppress(websockets.ConnectionClosed):
                async for raw in ws:
                    message = orjson.loads(raw)
                    if message.get("t") in ("ack", "error"):
                        counts[f"ws {message.get('code') or 'ack'}"] += 1

        reader = asyncio.create_task(read())
        n = 0
        stop = await start.wait()
        with contextlib.suppress(websockets.ConnectionClosed):
            while time.monotonic() < stop:
                n += 1
                if n % 2:
                    message = {"t": "play", "id": f"x{n}", "p": [n % 19, (n // 19) % 19]}
                else:
                    message = {"t": "chat", "id": f"x{n}", "channel": "spectators", "text": f"spam {n}"}
                await ws.send(orjson.dumps(message).decode())
                await asyncio.sleep(1 / rate)
        reader.cancel()


async def _lobby(base: str, start: Start, counts: Counter[str], rate: float) -> None:
    async with websockets.connect(base.replace("http://", "ws://") + "/ws/lobby", max_size=2**22, open_timeout=60) as ws:

        async def read() -> None:
            with contextlib.suppress(websockets.ConnectionClosed):
                async for raw in ws:
                    counts[f"lobby {orjson.loads(raw).get('t')}"] += 1

        reader = asyncio.create_task(read())
        n = 0
        stop = await start.wait()
        with contextlib.suppress(websockets.ConnectionClosed):
            while time.monotonic() < stop:
                n += 1
                await ws.send(json.dumps({"t": "ping", "id": f"p{n}"}))
                await asyncio.sleep(1 / rate)
        reader.cancel()


async def attack(base: str, game_ids: list[str], seconds: float, args: argparse.Namespace) -> None:
    counts: Counter[str] = Counter()
    start = Start(seconds)
    tasks = [_logins(base, start, counts, i) for i in range(args.login_workers)]
    tasks += [_refuser(base, game_ids[i % len(game_ids)], start, counts, 9.5) for i in range(args.refusers)]
    tasks += [_lobby(base, start, counts, 1.9) for _ in range(args.lobby_sockets)]
    running = asyncio.gather(*tasks, return_exceptions=True)
    connecting = time.monotonic() + 90
    while start.waiting < len(tasks) and not running.done() and time.monotonic() < connecting:
        await asyncio.sleep(0.2)
    start.stop = time.monotonic() + seconds
    start.go.set()
    print("ready", flush=True)
    results = await running
    errors = [r for r in results if isinstance(r, BaseException)]
    print(json.dumps({"counts": dict(counts), "errors": [repr(e) for e in errors[:3]]}), flush=True)


# ---------------------------------------------------------------- the run


def start_attacker(
    base: str, game_ids: list[str], seconds: float, args: argparse.Namespace, log: Path
) -> subprocess.Popen[bytes]:
    command = [
        sys.executable,
        __file__,
        "--attacker",
        base,
        "--seconds",
        str(seconds),
        "--login-workers",
        str(args.login_workers),
        "--refusers",
        str(args.refusers),
        "--lobby-sockets",
        str(args.lobby_sockets),
        *game_ids,
    ]
    return subprocess.Popen(command, cwd=ROOT, stdout=log.open("wb"), stderr=subprocess.STDOUT)


async def run(args: argparse.Namespace, favoured: Favoured | None) -> int:
    rng = random.Random(args.seed)
    database = f"tengen_bench_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(ADMIN_DSN)
    await admin.execute(f'CREATE DATABASE "{database}"')
    backends = Backends(favoured, admin, database)
    prefix = f"tengen-bench-{uuid.uuid4().hex[:12]}:"
    server: Server | None = None
    try:
        with tempfile.TemporaryDirectory(prefix="tengen-attack-") as tmp:
            data_dir = Path(tmp)
            port = free_port()
            extra = {"TENGEN_REDIS_URL": REDIS_URL, "TENGEN_REDIS_PREFIX": prefix} if args.redis else {}
            server = start_tengen(database, port, data_dir, **extra)
            await wait_listening(server, port)
            base = f"http://127.0.0.1:{port}"
            async with httpx.AsyncClient(base_url=base) as victim:
                (await victim.post("/api/auth/register", json={"username": "victim", "password": PASSWORD})).raise_for_status()
            print(
                f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; games={args.games} "
                f"spectators={args.spectators} moves={args.moves} interval={args.interval}s rounds={args.rounds} "
                f"hub={'redis' if args.redis else 'memory'}; attackers: {args.login_workers} log-in clients, "
                f"{args.refusers} refused-action/chat sockets, {args.lobby_sockets} lobby sockets",
                flush=True,
            )
            games = TengenGames(base, args, rng)
            await games.open()
            quiet: list[float] = []
            attacked: list[float] = []
            per_round = max(1, args.moves // args.rounds)
            try:
                for r in range(args.rounds):
                    await backends.join()
                    games.rtts = []
                    await games.round(per_round)
                    quiet += games.rtts
                    seconds = per_round * args.interval + 3
                    log = data_dir / f"attacker-{r}.log"
                    attacker = start_attacker(base, [t.game_id for t in games.tables], seconds, args, log)
                    while attacker.poll() is None and "ready" not in log.read_text():
                        await asyncio.sleep(0.2)  # the attackers connect first, then all start at once
                    await asyncio.sleep(1)  # ... and are at full rate
                    games.rtts = []
                    await games.round(per_round)
                    attacked += games.rtts
                    await asyncio.get_running_loop().run_in_executor(None, attacker.wait)
                    report = log.read_text().strip().splitlines()
                    print(f"round {r + 1}: attackers got {report[-1] if report else '(nothing)'}", flush=True)
            except Exception:
                print(server.tail(), file=sys.stderr)
                raise
            finally:
                await games.close()
            print(f"move round trip, quiet:        {ms(quiet)}")
            print(f"move round trip, under attack: {ms(attacked)}")
            print(f"attack_ratio={percentile(attacked, 99) / percentile(quiet, 99):.2f}", flush=True)
    finally:
        if server is not None:
            server.stop()
        with contextlib.suppress(Exception):
            await admin.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        await admin.close()
        if args.redis:
            with contextlib.suppress(Exception):
                import redis.asyncio as aioredis

                client = aioredis.Redis.from_url(REDIS_URL)
                keys = [key async for key in client.scan_iter(match=prefix + "*", count=500)]
                if keys:
                    await client.delete(*keys)
                await client.aclose()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100, help="concurrent games (default 100)")
    parser.add_argument("--spectators", type=int, default=5, help="spectators per game (default 5)")
    parser.add_argument("--moves", type=int, default=20, help="moves per game in each phase (default 20)")
    parser.add_argument("--interval", type=float, default=1.0, help="seconds between two moves of a game")
    parser.add_argument("--rounds", type=int, default=4, help="alternating quiet and attacked rounds (default 4)")
    parser.add_argument("--login-workers", type=int, default=8, help="attacking log-in clients (default 8)")
    parser.add_argument("--refusers", type=int, default=40, help="attacking game sockets (default 40)")
    parser.add_argument("--lobby-sockets", type=int, default=20, help="attacking lobby sockets (default 20)")
    parser.add_argument("--redis", action="store_true", help="the Redis hub (limits counted in Redis)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="a smoke run: 4 games, 2 spectators, few moves")
    parser.add_argument("--attacker", help=argparse.SUPPRESS)  # internal: run as the attacker process
    parser.add_argument("--seconds", type=float, default=10.0, help=argparse.SUPPRESS)
    parser.add_argument("game_ids", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.attacker:
        return asyncio.run(attack(args.attacker, args.game_ids, args.seconds, args)) or 0
    if args.quick:
        args.games, args.spectators, args.moves, args.interval, args.rounds = 4, 2, 8, 0.25, 2
        args.login_workers, args.refusers, args.lobby_sockets = 2, 4, 2
    favoured = Favoured.enter("attack-bench")
    try:
        return asyncio.run(run(args, favoured))
    finally:
        if favoured is not None:
            favoured.close()


if __name__ == "__main__":
    sys.exit(main())
