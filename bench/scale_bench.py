"""The same workload of concurrent games against one Tengen instance, then against two, in one run.

Each instance is a real ``python -m app.cli serve`` process; all share one PostgreSQL database (created for
the run and dropped afterwards) and one Redis key prefix (deleted afterwards). Clients run in their own
processes (``--client-procs``): every game has two players, each on a WebSocket, alternating precomputed
moves on a 19x19 board; each player moves once the opponent's move has reached its own socket, and waits
for the acknowledgement (a new game starts when one fills up), so ``--games`` moves are in flight. Each
socket stays just under the server's rate limit (10 messages a second); ``paced`` counts the sends that
waited for it. With two instances, each game is routed to
one instance (``--placement game``, as a load balancer hashing the ``/ws/games/<id>`` path does) or its two
players are put on different instances (``--placement spread``, the worst case: every event crosses the hub).
Measuring starts once every game is set up and has a move acknowledged, plus ``--warmup`` seconds.

Prints, for each phase, moves per second, the p50/p99/max round trip (send -> ack), the longest stretch with
no ack at all, then the CPU split over the measured window read from ``/proc`` (each server, the clients,
PostgreSQL for this database, Redis, everything else on the machine), how long each server waited for a core,
CPU milliseconds per move and how often each instance's rooms re-read events from the database; then the
best ratio this machine allows, worked out from the CPU a move cost with one instance (``ceiling``), and
``scale_ratio=<two/one>`` last. Everything (servers, PostgreSQL, Redis, clients and whatever else runs)
shares this machine's cores: see ``os.cpu_count()``.

    /work/main/.venv/bin/python bench/scale_bench.py [--games 200] [--seconds 15] [--client-procs 2]
        [--placement game|spread] [--pin-servers]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import multiprocessing
import os
import subprocess
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


# The server refuses more than 10 messages a second per socket (burst 30): each seat stays just under it, so
# that a refusal never breaks a game's alternation. ``paced`` counts the sends that had to wait for it.
SEND_INTERVAL = 1 / 9.5
ACK_TIMEOUT = 30.0


class Seat:
    """A lean game socket: a reader task drains every message, resolves the awaited acks and notes the newest
    event version the socket has received (a player moves once the opponent's move has reached its screen)."""

    def __init__(self, connection) -> None:  # type: ignore[no-untyped-def]
        self.connection = connection
        self.next_send = 0.0
        self.paced = 0
        self.waiting: dict[str, asyncio.Future] = {}
        self.ids = itertools.count()
        self.snapshot = asyncio.get_running_loop().create_future()
        self.seen_v = 0
        self.seen = asyncio.Event()
        self.reader = asyncio.create_task(self._read())

    async def sees(self, v: int) -> bool:
        """Wait until this socket has received event ``v``; False if it never comes (the socket closed)."""
        while self.seen_v < v:
            if self.reader.done():
                return False
            self.seen.clear()
            try:
                await asyncio.wait_for(self.seen.wait(), ACK_TIMEOUT)
            except asyncio.TimeoutError:
                return False
        return True

    async def _read(self) -> None:
        try:
            async for raw in self.connection:
                message = orjson.loads(raw)
                kind = message.get("t")
                if kind == "snapshot" and not self.snapshot.done():
                    self.snapshot.set_result(message)
                    self.seen_v = message.get("v", 0)
                elif kind not in ("ack", "error") and isinstance(message.get("v"), int):
                    self.seen_v = max(self.seen_v, message["v"])
                    self.seen.set()
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
        wait = self.next_send - time.monotonic()
        if wait > 0:
            self.paced += 1
            await asyncio.sleep(wait)
        self.next_send = time.monotonic() + SEND_INTERVAL
        future = asyncio.get_running_loop().create_future()
        self.waiting[client_id] = future
        await self.connection.send(orjson.dumps({**message, "id": client_id}).decode())
        try:
            return await asyncio.wait_for(future, ACK_TIMEOUT)
        except asyncio.TimeoutError:
            self.waiting.pop(client_id, None)
            return {"t": "timeout"}

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


async def _run_clients(urls: list[str], games: list[int], placement: str, ready, go) -> dict:  # type: ignore[no-untyped-def]
    """One client process: its share of the games.

    Every game is set up and has a first move acknowledged before anything is measured: this process then
    puts its setup time on ``ready`` and waits for the window (from, end) on ``go``, the same for all.
    """
    begun = time.time()
    window = {"from": float("inf"), "end": float("inf")}
    out: dict = {"rtts": [], "acked_at": [], "errors": 0, "timeouts": 0, "paced": 0, "cpu": 0.0, "codes": {},
                 "setup_s": 0.0}
    cpu_marks: list[float] = []
    set_up = 0
    all_set_up = asyncio.Event()

    async def table(index: int) -> None:
        nonlocal set_up
        black_url = urls[index % len(urls)]
        white_url = urls[(index + 1) % len(urls)] if placement == "spread" else black_url
        black, white = await _user(black_url), await _user(white_url)
        first = True
        try:
            while time.time() < window["end"]:
                body = {"board_size": SIZE, "rules": "chinese", "color": "black", "time_control": {"kind": "none"}}
                offered = (await black.post("/api/challenges", json=body)).json()
                challenge_id = offered.get("id") or offered["challenge"]["id"]
                accepted = (await white.post(f"/api/challenges/{challenge_id}/accept")).json()
                game_id = accepted.get("game_id") or accepted["game"]["id"]
                seats = [await _seat(black, black_url, game_id), await _seat(white, white_url, game_id)]
                for move in range(1, MOVES_PER_GAME + 1):
                    if time.time() >= window["end"]:
                        break
                    points = BLACK_POINTS if move % 2 else WHITE_POINTS
                    seat = seats[(move + 1) % 2]
                    if not await seat.sees(move - 1):
                        out["timeouts"] += 1
                        break  # the opponent's move never reached this player: start another game
                    sent = time.time()
                    reply = await seat.act({"t": "play", "p": points[(move - 1) // 2]})
                    done = time.time()
                    if first:
                        first, set_up = False, set_up + 1
                        if set_up == len(games):
                            all_set_up.set()
                    if reply.get("t") == "timeout":
                        out["timeouts"] += 1
                        break  # this game's alternation is lost: start another
                    if reply.get("t") != "ack":
                        out["errors"] += 1
                        code = str(reply.get("code"))
                        out["codes"][code] = out["codes"].get(code, 0) + 1
                        break  # refused: this game's alternation is lost, start another
                    if sent >= window["from"] and done <= window["end"]:
                        out["rtts"].append(done - sent)
                        out["acked_at"].append(done)
                for seat in seats:
                    out["paced"] += seat.paced
                    await seat.close()
        finally:
            await black.aclose()
            await white.aclose()

    async def conductor() -> None:
        await all_set_up.wait()
        out["setup_s"] = time.time() - begun
        ready.put(out["setup_s"])
        window["from"], window["end"] = await asyncio.to_thread(go.get)
        await asyncio.sleep(max(0.0, window["from"] - time.time()))
        cpu_marks.append(time.process_time())  # this process's own CPU seconds over the measured window
        await asyncio.sleep(max(0.0, window["end"] - time.time()))
        cpu_marks.append(time.process_time())

    await asyncio.gather(conductor(), *(table(i) for i in games))
    out["cpu"] = cpu_marks[1] - cpu_marks[0] if len(cpu_marks) == 2 else float("nan")
    return out


def _client_process(args: tuple, ready, go, results) -> None:  # type: ignore[no-untyped-def]
    results.put(asyncio.run(_run_clients(*args, ready, go)))


# ---- CPU accounting from /proc: who used the cores during a phase's measured window ----

TICKS = os.sysconf("SC_CLK_TCK")


def _processes() -> dict[int, tuple[str, str, float]]:
    """pid -> (command name, command line, CPU seconds so far) for every process on the machine."""
    out = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmdline = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        close = stat.rindex(")")
        fields = stat[close + 2:].split()
        out[int(entry)] = (stat[stat.index("(") + 1:close], cmdline, (int(fields[11]) + int(fields[12])) / TICKS)
    return out


def _machine_busy() -> float:
    """CPU seconds all cores spent on anything but idle and iowait, since boot."""
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    return (sum(values) - values[3] - values[4]) / TICKS


def _runqueue_waits(pids: list[int]) -> list[float]:
    """Seconds each process's main thread has spent runnable but waiting for a core (``/proc/<pid>/schedstat``)."""
    out = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/schedstat") as f:
                out.append(int(f.read().split()[1]) / 1e9)
        except (OSError, IndexError, ValueError):
            out.append(float("nan"))
    return out


def _cpu_split(before: tuple, after: tuple, servers: list[int], database: str, clients_cpu: float,
               seconds: float) -> dict[str, object]:
    """Cores used over the window: each server, the clients, PostgreSQL for this database, Redis, the rest."""
    (procs0, busy0), (procs1, busy1) = before, after

    def used(pid: int) -> float:
        if pid not in procs1:
            return 0.0  # ended inside the window: its last share is lost (a pooled connection rarely ends)
        return procs1[pid][2] - (procs0[pid][2] if pid in procs0 else 0.0)

    postgres = sum(used(pid) for pid, (name, cmd, _) in procs1.items() if name == "postgres" and database in cmd)
    redis = sum(used(pid) for pid, (name, _, _) in procs1.items() if name == "redis-server")
    per_server = [used(pid) / seconds for pid in servers]
    machine = (busy1 - busy0) / seconds
    ours = sum(per_server) + (clients_cpu + postgres + redis) / seconds
    return {"servers": per_server, "clients": clients_cpu / seconds, "postgres": postgres / seconds,
            "redis": redis / seconds, "other": max(0.0, machine - ours), "machine": machine}


def run_phase(instances: int, group: Instances, opts: argparse.Namespace, database: str) -> dict:
    started = group.start(instances)
    urls = [i.url for i in started]
    servers = [i.process.pid for i in started]
    if opts.pin_servers:
        # One core per instance (an instance is one single-threaded process: it can never use more).
        for core, pid in enumerate(servers):
            subprocess.run(["taskset", "-pc", str(core % os.cpu_count()), str(pid)], check=True,
                           stdout=subprocess.DEVNULL)
    shares = [list(range(p, opts.games, opts.client_procs)) for p in range(opts.client_procs)]
    ctx = multiprocessing.get_context("spawn")
    ready, results = ctx.Queue(), ctx.Queue()
    gos = [ctx.Queue() for _ in shares]
    processes = [ctx.Process(target=_client_process, args=((urls, share, opts.placement), ready, go, results))
                 for share, go in zip(shares, gos)]
    for process in processes:
        process.start()
    # Measuring starts once every game is set up and has a move acknowledged, however long a cold server
    # on a busy machine takes for that (``setup_s``), then after ``--warmup`` more seconds of play.
    setup_s = max(ready.get(timeout=300) for _ in processes)
    measure_from = time.time() + opts.warmup
    for go in gos:
        go.put((measure_from, measure_from + opts.seconds))
    time.sleep(max(0.0, measure_from - time.time()))
    before = (_processes(), _machine_busy())
    waits_before = _runqueue_waits(servers)
    time.sleep(max(0.0, measure_from + opts.seconds - time.time()))
    after = (_processes(), _machine_busy())
    waits = [(b - a) / opts.seconds for a, b in zip(waits_before, _runqueue_waits(servers))]
    results = [results.get(timeout=120) for _ in processes]
    for process in processes:
        process.join(30)
    catchup_reads = [_metric(url, "tengen_room_catchup_reads_total") for url in urls]
    for instance in started:
        instance.stop()
    rtts = sorted(r for result in results for r in result["rtts"])
    acked = sorted([measure_from] + [a for result in results for a in result["acked_at"]]
                   + [measure_from + opts.seconds])
    p = lambda q: rtts[min(len(rtts) - 1, int(q * len(rtts)))] * 1000 if rtts else float("nan")  # noqa: E731
    return {"moves_per_s": len(rtts) / opts.seconds, "p50_ms": p(0.50), "p99_ms": p(0.99),
            "max_ms": p(1.0), "moves": len(rtts),
            # the longest stretch of the window in which no move at all was acknowledged
            "longest_gap_ms": max(b - a for a, b in zip(acked, acked[1:])) * 1000,
            "errors": sum(r["errors"] for r in results), "timeouts": sum(r["timeouts"] for r in results),
            "paced": sum(r["paced"] for r in results), "setup_s": setup_s,
            "codes": {c: sum(r["codes"].get(c, 0) for r in results) for r in results for c in r["codes"]},
            "server_waits": waits, "catchup_reads": catchup_reads,
            "cpu": _cpu_split(before, after, servers, database, sum(r["cpu"] for r in results), opts.seconds)}


def ceiling(one: dict, cores: int) -> str:
    """The best ratio this machine allows, from the CPU one move cost with one instance.

    One instance is one single-threaded process: at most one core, so at most ``1/s`` moves a second for ``s``
    server CPU seconds per move. Everything shares ``cores``: with ``o`` CPU seconds per move spent by the
    clients, PostgreSQL and Redis, no number of instances passes ``cores/(s+o)``. Two instances reach at most
    ``min(2/s, cores/(s+o))``.
    """
    cpu, rate = one["cpu"], one["moves_per_s"]
    s = sum(cpu["servers"]) / rate
    o = (cpu["clients"] + cpu["postgres"] + cpu["redis"]) / rate
    best_one, best_two = min(1 / s, cores / (s + o)), min(2 / s, cores / (s + o))
    return (f"ceiling: server {s * 1000:.2f} + clients/postgres/redis {o * 1000:.2f} CPU ms per move on {cores} "
            f"cores -> one instance <= {best_one:.0f} moves/s, two <= {best_two:.0f}, ratio <= {best_two / best_one:.2f}")


def _metric(url: str, name: str) -> float:
    """One counter from an instance's ``/metrics`` (NaN when it cannot be read)."""
    try:
        text = httpx.get(f"{url}/metrics", timeout=10).text
    except httpx.HTTPError:
        return float("nan")
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    return float("nan")


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
    parser.add_argument("--games", type=int, default=200, help="concurrent games")
    parser.add_argument("--seconds", type=float, default=15.0, help="measured seconds per phase")
    parser.add_argument("--warmup", type=float, default=3.0, help="unmeasured seconds before each phase")
    parser.add_argument("--client-procs", type=int, default=2, help="client processes")
    parser.add_argument("--placement", choices=("game", "spread"), default="game")
    parser.add_argument("--pin-servers", action="store_true",
                        help="taskset instance i to core i (clients, PostgreSQL and Redis stay unpinned)")
    opts = parser.parse_args()

    name = f"tengen_bench_{uuid.uuid4().hex}"
    prefix = f"tengen-bench-{uuid.uuid4().hex}:"
    _pg_admin(f'CREATE DATABASE "{name}"')
    database_url = POSTGRES_URL.rpartition("/")[0] + "/" + name
    print(f"cpus={os.cpu_count()} games={opts.games} seconds={opts.seconds} client_procs={opts.client_procs} "
          f"placement={opts.placement} pin_servers={opts.pin_servers} "
          f"(servers, clients, PostgreSQL and Redis share these cores; 'other' is everything else running)")
    try:
        with tempfile.TemporaryDirectory() as workdir:
            group = Instances(database_url, REDIS_URL, prefix, Path(workdir), secret_key=uuid.uuid4().hex)
            try:
                group.start(1)[0].stop()  # migrate the new database once, before any timing
                figures = {}
                for count in (1, 2):
                    figures[count] = run_phase(count, group, opts, name)
                    f, cpu = figures[count], figures[count]["cpu"]
                    print(f"instances={count} moves_per_s={f['moves_per_s']:.1f} p50_ms={f['p50_ms']:.1f} "
                          f"p99_ms={f['p99_ms']:.1f} max_ms={f['max_ms']:.1f} "
                          f"longest_gap_ms={f['longest_gap_ms']:.1f} moves={f['moves']} errors={f['errors']} "
                          f"timeouts={f['timeouts']} paced={f['paced']} setup_s={f['setup_s']:.1f}"
                          + "".join(f" error_{code}={n}" for code, n in sorted(f["codes"].items())))
                    servers = ",".join(f"{c:.2f}" for c in cpu["servers"])
                    print(f"  cpu_cores servers=[{servers}] clients={cpu['clients']:.2f} "
                          f"postgres={cpu['postgres']:.2f} redis={cpu['redis']:.2f} other={cpu['other']:.2f} "
                          f"machine={cpu['machine']:.2f}/{os.cpu_count()}")
                    waits = ",".join(f"{w:.2f}" for w in f["server_waits"])
                    reads = ",".join(f"{r:.0f}" for r in f["catchup_reads"])
                    print(f"  server_runqueue_wait=[{waits}] (share of the window each server was ready to run "
                          f"but waited for a core) room_catchup_reads=[{reads}] (since each server started)")
                    # What one core of server buys: if it stays flat from one instance to two, the instances
                    # share no bottleneck and throughput follows the cores they are given.
                    per_move = {k: 1000 * cpu[k] / f["moves_per_s"] for k in ("clients", "postgres", "redis")}
                    print(f"  moves_per_server_core_s={f['moves_per_s'] / sum(cpu['servers']):.0f} "
                          f"cpu_ms_per_move servers={1000 * sum(cpu['servers']) / f['moves_per_s']:.2f} "
                          + " ".join(f"{k}={v:.2f}" for k, v in per_move.items()))
            finally:
                group.stop_all()
    finally:
        _pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        delete_redis_prefix(prefix)
    print(ceiling(figures[1], os.cpu_count() or 1))
    print(f"scale_ratio={figures[2]['moves_per_s'] / figures[1]['moves_per_s']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
