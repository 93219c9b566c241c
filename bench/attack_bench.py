"""Players under attack: the room bench's games, with and without attackers, in one run on one machine.

Starts one Tengen server process (``tengen serve`` on a fresh PostgreSQL database, in-process hub; with
``--redis`` the Redis hub, so the limits are counted in Redis) with the product's default limits but one: the
players' sockets all come from one address, more than the cap per address allows (``bench_server.ONE_ADDRESS``).
It plays ``--games`` games of random legal moves, one move per game every ``--interval`` seconds, watched by
``--spectators`` sockets each (the room bench's tables, ``room_bench.TengenGames``). Rounds alternate: quiet,
then under attack. During an attack round a separate attacker process pushes, as fast as the caps let it:

- wrong passwords at one account and at made-up names (``--login-workers`` clients), answered 401, then 429;
- refused actions: ``--refusers`` spectator sockets each sending moves at the socket rate (10/s), all refused
  (``not_a_player``), and the same number of chat lines, refused past the chat limit per user;
- lobby pings from ``--lobby-sockets`` sockets at the lobby rate.

The server believes ``X-Forwarded-For`` from the bench, as from a proxy in front of it, and every attacking
client sends addresses of its own (a new one for each log-in attempt): the attack is bounded by the limits for
everyone and per account and user, not by those of one address.

Prints, for each phase, what the server spent (its event loop's thread, and how long it waited for a core;
its other threads, password hashing among them; its worker processes) and what the attacker process spent, in
cores, with the longest stall of the server's own making (``tengen_event_loop_busy_lag_seconds``); the
players' move round trip (send -> ack) p50/p99 quiet and under attack; what the attackers got through; how far
the ratio moves when each phase's moves are resampled (a p99 of 720 moves is their 8th slowest, so a ratio of
two such figures is noisy: ``--moves`` more per round narrows it); and as its last line
``attack_ratio=<p99 under attack / p99 quiet>``.

CPU: like ``room_bench.py``, the bench moves itself, and with it the server, the players' clients and the
attacker process it starts, and the PostgreSQL backends of its database, into a cgroup of its own weighing 256
times the default (``cpu.shares`` 262144 on cgroup v1, ``cpu.weight`` 10000 on v2; no quota): other jobs on a
shared machine then wait for a core behind the bench, while the attackers still compete with the server
inside it, as they would on one host. Needs root and a writable ``/sys/fs/cgroup``; without, or with
``TENGEN_BENCH_CPU_GROUP=0``, it says so and runs as it is. Quiet and attacked rounds alternate in one run.

    .venv/bin/python bench/attack_bench.py [--games 100] [--spectators 5] [--moves 20]
        [--interval 1.0] [--rounds 4] [--redis] [--quick] [--server-log FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import httpx
import orjson
import proc_cpu
import websockets
from bench_server import (
    add_game_options,
    bench_run,
    free_port,
    histograms,
    new_redis_prefix,
    run_favoured,
    start_tengen,
    wait_listening,
)
from cpu_groups import Favoured
from room_bench import LAG_HISTOGRAMS, TengenGames, longest_stall_ms, ms
from ws_clients import percentile

from tests.support.instances import delete_redis_prefix

ROOT = Path(__file__).resolve().parent.parent

REDIS_URL = os.environ.get("TENGEN_BENCH_REDIS", "redis://127.0.0.1:6379/0")
PASSWORD = "the right password"
MOVE_LATENCY = "tengen_move_latency_seconds"  # the server's own receive -> ack time of a move
READ = (*LAG_HISTOGRAMS, MOVE_LATENCY)
# The server runs with the product's default limits. It believes X-Forwarded-For from the bench, as from a
# proxy in front of it: each attacking client then comes from addresses of its own, so that what bounds the
# attack is the limits for everyone (300 password checks a minute, the hashing queue), not those of one
# address. The players send no such header: they all come from 127.0.0.1 (bench_server.ONE_ADDRESS).
ATTACKERS_BEHIND_A_PROXY = {"TENGEN_TRUSTED_PROXIES": '["127.0.0.1"]'}


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


class Addresses:
    """Made-up client addresses, one per attacking client and log-in attempt (10.0.0.1, 10.0.0.2, ...): the
    server believes the bench's ``X-Forwarded-For`` (``TENGEN_TRUSTED_PROXIES``), as it would a proxy's."""

    def __init__(self, first: int) -> None:
        self.n = first

    def next(self) -> dict[str, str]:
        self.n += 1
        return {"X-Forwarded-For": f"10.{self.n >> 16 & 255}.{self.n >> 8 & 255}.{self.n & 255}"}


async def _logins(base: str, start: Start, counts: Counter[str], addresses: Addresses) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        n = 0
        stop = await start.wait()
        while time.monotonic() < stop:
            n += 1
            name = "victim" if n % 2 else f"nobody{addresses.n}x{n}"
            body = {"username": name, "password": f"guess-{n}"}
            response = await client.post("/api/auth/login", json=body, headers=addresses.next())
            counts[f"login {response.status_code}"] += 1


async def _socket(
    url: str, headers: dict[str, str], start: Start, counts: Counter[str], rate: float, message: Callable[[int], dict]
) -> None:
    """One socket sending ``message(n)`` at ``rate`` per second while the attack lasts; answers are counted."""
    async with websockets.connect(url, additional_headers=headers, max_size=2**22, open_timeout=60) as ws:

        async def read() -> None:
            with contextlib.suppress(websockets.ConnectionClosed):
                async for raw in ws:
                    answer = orjson.loads(raw)
                    if answer.get("t") in ("ack", "error", "pong"):
                        counts[f"ws {answer.get('code') or answer['t']}"] += 1

        reader = asyncio.create_task(read())
        n = 0
        stop = await start.wait()
        with contextlib.suppress(websockets.ConnectionClosed):
            while time.monotonic() < stop:
                n += 1
                await ws.send(orjson.dumps(message(n)).decode())
                await asyncio.sleep(1 / rate)
        reader.cancel()


def _refused(n: int) -> dict:
    """A spectator's move (refused: ``not_a_player``) and chat line (refused past the chat limit), in turn."""
    if n % 2:
        return {"t": "play", "id": f"x{n}", "p": [n % 19, (n // 19) % 19]}
    return {"t": "chat", "id": f"x{n}", "channel": "spectators", "text": f"spam {n}"}


async def _refuser(base: str, game_id: str, start: Start, counts: Counter[str], address: dict[str, str]) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=60, headers=address) as client:
        for _ in range(10):  # as a browser would: after a 503, again once its Retry-After has passed
            started = await client.post("/api/guest")
            counts[f"guest {started.status_code}"] += 1
            if started.status_code != 503:
                break
            await asyncio.sleep(float(started.headers.get("retry-after", "1")))
        started.raise_for_status()
        cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
    url = base.replace("http://", "ws://") + f"/ws/games/{game_id}"
    await _socket(url, {"Cookie": cookie, **address}, start, counts, 9.5, _refused)


async def attack(base: str, game_ids: list[str], seconds: float, args: argparse.Namespace) -> None:
    counts: Counter[str] = Counter()
    start = Start(seconds)
    # Each attacking client from addresses of its own, apart from every other's (and from the players').
    blocks = (Addresses(i << 16) for i in itertools.count(1))
    lobby = base.replace("http://", "ws://") + "/ws/lobby"
    tasks = [_logins(base, start, counts, next(blocks)) for _ in range(args.login_workers)]
    tasks += [_refuser(base, game_ids[i % len(game_ids)], start, counts, next(blocks).next()) for i in range(args.refusers)]
    tasks += [
        _socket(lobby, next(blocks).next(), start, counts, 1.9, lambda n: {"t": "ping", "id": f"p{n}"})
        for _ in range(args.lobby_sockets)
    ]
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


@dataclass
class Use:
    """What the server spent over a phase's rounds, in seconds: its event loop's thread running and waiting
    for a core, its other threads (ended ones included), its child processes (the password hashing and study
    workers); the PostgreSQL backends of the bench's database; the players' process (this one) running and
    waiting for a core, and the attacker process; the phase's wall-clock seconds."""

    loop: float = 0.0
    loop_waited: float = 0.0
    threads: float = 0.0
    children: float = 0.0
    postgres: float = 0.0
    postgres_waited: float = 0.0
    players: float = 0.0
    players_waited: float = 0.0
    attacker: float = 0.0
    wall: float = 0.0

    def add(self, other: "Use") -> None:
        for name in vars(self):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def describe(self) -> str:
        cores = {k: max(0.0, v) / self.wall if self.wall else float("nan") for k, v in vars(self).items() if k != "wall"}
        return (
            f"server loop {cores['loop']:.2f} cores (waited for one {cores['loop_waited']:.2f}), other threads "
            f"{cores['threads']:.2f}, workers {cores['children']:.2f}; postgres {cores['postgres']:.2f} (waited "
            f"{cores['postgres_waited']:.2f}); players "
            f"{cores['players']:.2f} (waited {cores['players_waited']:.2f}); attacker {cores['attacker']:.2f}"
        )


class Meter:
    """Reads ``Use`` from ``/proc`` before and after a round (``proc_cpu``)."""

    def __init__(self, server: int, database: str) -> None:
        self.server, self.database = server, database

    def read(self, attacker: int | None) -> Use:
        loop = proc_cpu.threads(self.server).get(self.server, ("", 0.0, 0.0))
        me = os.getpid()
        players = proc_cpu.threads(me).get(me, ("", 0.0, 0.0))
        everyone = proc_cpu.processes()
        children = sum(row[2] for row in everyone.values() if row[3] == self.server)
        backends = [pid for pid, row in everyone.items() if row[0] == "postgres" and self.database in row[1]]
        postgres = sum(everyone[pid][2] for pid in backends)
        postgres_waited = sum(proc_cpu.runqueue_waits(backends))
        attacking = everyone[attacker][2] if attacker in everyone else 0.0
        threads = proc_cpu.cpu_seconds(self.server) - loop[1]
        return Use(
            loop[1], loop[2], threads, children, postgres, postgres_waited, players[1], players[2], attacking, time.monotonic()
        )

    @staticmethod
    def spent(before: Use, after: Use) -> Use:
        return Use(*(b - a for a, b in zip(vars(before).values(), vars(after).values())))


def slower(histogram: dict[float, float]) -> str:
    """How many moves took longer than each of a few bounds, from a cumulative histogram's counts."""
    total = histogram.get(float("inf"), 0.0)
    return ", ".join(f"{total - histogram.get(b, 0.0):.0f} over {b * 1000:.0f} ms" for b in (0.025, 0.05, 0.1, 0.25)) + (
        f" (of {total:.0f})"
    )


def ratio_interval(quiet: list[float], attacked: list[float], rng: random.Random, draws: int = 1000) -> tuple[float, float]:
    """How far the ratio of p99s moves with the sample: the 5th and 95th percentiles of the ratio over
    ``draws`` resamplings (with replacement) of each phase's round trips. A p99 of a few hundred moves rests on
    the few slowest of them, so a narrow interval needs thousands (more ``--moves``)."""
    if not quiet or not attacked:
        return float("nan"), float("nan")
    ratios = sorted(
        percentile(rng.choices(attacked, k=len(attacked)), 99) / percentile(rng.choices(quiet, k=len(quiet)), 99)
        for _ in range(draws)
    )
    return ratios[draws // 20], ratios[draws - 1 - draws // 20]


async def measured(games: TengenGames, moves: int, meter: Meter, use: Use, attacker: int | None) -> list[float]:
    """One paced round of the games; the players' round trips. What it cost is added to ``use``."""
    games.rtts = []
    before = meter.read(attacker)
    await games.round(moves)
    use.add(Meter.spent(before, meter.read(attacker)))
    return games.rtts


async def run(args: argparse.Namespace, favoured: Favoured | None) -> int:
    rng = random.Random(args.seed)
    prefix = new_redis_prefix()
    async with bench_run(favoured) as bench:
        with tempfile.TemporaryDirectory(prefix="tengen-attack-") as tmp:
            data_dir = Path(tmp)
            port = free_port()
            extra = {"TENGEN_REDIS_URL": REDIS_URL, "TENGEN_REDIS_PREFIX": prefix} if args.redis else {}
            server = start_tengen(bench.database, port, data_dir, **ATTACKERS_BEHIND_A_PROXY, **extra)
            bench.servers.append(server)
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
            meter = Meter(server.process.pid, bench.database)
            quiet: list[float] = []
            attacked: list[float] = []
            quiet_use, attacked_use = Use(), Use()
            stalls: dict[str, float] = {}
            served: dict[str, dict[float, float]] = {"quiet": {}, "attack": {}}
            per_round = max(1, args.moves // args.rounds)
            try:
                for r in range(args.rounds):
                    await bench.backends.join()
                    lag = await asyncio.to_thread(histograms, base, READ)
                    quiet += await measured(games, per_round, meter, quiet_use, None)
                    seconds = per_round * args.interval + 3
                    log = data_dir / f"attacker-{r}.log"
                    attacker = start_attacker(base, [t.game_id for t in games.tables], seconds, args, log)
                    while attacker.poll() is None and "ready" not in log.read_text():
                        await asyncio.sleep(0.2)  # the attackers connect first, then all start at once
                    lag_between = await asyncio.to_thread(histograms, base, READ)
                    await asyncio.sleep(1)  # ... and are at full rate
                    attacked += await measured(games, per_round, meter, attacked_use, attacker.pid)
                    lag_after = await asyncio.to_thread(histograms, base, READ)
                    await asyncio.get_running_loop().run_in_executor(None, attacker.wait)
                    for phase, (a, b) in (("quiet", (lag, lag_between)), ("attack", (lag_between, lag_after))):
                        stall = longest_stall_ms(a[LAG_HISTOGRAMS[0]], b[LAG_HISTOGRAMS[0]])
                        stalls[phase] = max(stalls.get(phase, 0.0), stall)
                        for bound, count in b[MOVE_LATENCY].items():
                            served[phase][bound] = served[phase].get(bound, 0.0) + count - a[MOVE_LATENCY].get(bound, 0.0)
                    report = log.read_text().strip().splitlines()
                    print(f"round {r + 1}: attackers got {report[-1] if report else '(nothing)'}", flush=True)
            except Exception:
                print(server.tail(), file=sys.stderr)
                raise
            finally:
                await games.close()
                if args.redis:
                    delete_redis_prefix(prefix)
                if args.server_log:
                    shutil.copyfile(server.log, args.server_log)
            for phase, use in (("quiet", quiet_use), ("attack", attacked_use)):
                print(f"{phase}: {use.describe()}; longest busy stall {stalls.get(phase, 0):.0f} ms")
                print(f"{phase}: the server's own receive -> ack: {slower(served[phase])}")
            print(f"move round trip, quiet:        {ms(quiet)}")
            print(f"move round trip, under attack: {ms(attacked)}")
            low, high = ratio_interval(quiet, attacked, random.Random(args.seed))
            beyond = max(0, len(quiet) - 1 - round(0.99 * (len(quiet) - 1)))
            print(
                f"attack_ratio 90% interval {low:.2f}-{high:.2f} (resampling the moves of each phase; "
                f"each p99 has {beyond} moves of {len(quiet)} above it)"
            )
            print(f"attack_ratio={percentile(attacked, 99) / percentile(quiet, 99):.2f}", flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_game_options(parser, moves_help="moves per game in each phase (default 20)")
    parser.add_argument("--rounds", type=int, default=4, help="alternating quiet and attacked rounds (default 4)")
    parser.add_argument("--login-workers", type=int, default=8, help="attacking log-in clients (default 8)")
    parser.add_argument("--refusers", type=int, default=40, help="attacking game sockets (default 40)")
    parser.add_argument("--lobby-sockets", type=int, default=20, help="attacking lobby sockets (default 20)")
    parser.add_argument("--redis", action="store_true", help="the Redis hub (limits counted in Redis)")
    parser.add_argument("--server-log", type=Path, help="keep the server's log (its warnings and errors) in this file")
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
    return run_favoured("attack-bench", lambda favoured: run(args, favoured))


if __name__ == "__main__":
    sys.exit(main())
