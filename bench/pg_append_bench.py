"""The write ceiling of one PostgreSQL for the statement every move commits (``append``).

Games are created in a fresh database (migrated to head; dropped afterwards). Client processes then append
move events as rooms do, each game one move after another (the compare-and-set on its version), through the
application's own code path: ``rows_for`` builds the rows, ``append`` sends the one statement
on the engine's driver connections. Each step raises the number of appends in flight (``--steps``: that
many games at once, spread over the client processes, each with at most 16 connections: PostgreSQL's
connection slots are shared with everything else); per step it prints appends per second, the latency
(p50/p99), and the CPU the PostgreSQL backends of this database and the clients spent per append (from
``/proc``). The last line is the ceiling the measurements give: ``pg_ms_per_append`` (PostgreSQL CPU per
append at the busiest step), ``appends_per_pg_core`` (its inverse: what one core of PostgreSQL commits
a second once it is the bottleneck) and ``best_appends_per_s`` (the most this machine committed).

    nice -n 10 .venv/bin/python bench/pg_append_bench.py [--steps 1,4,16,32] [--seconds 5]
        [--client-procs 2]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import sys
import time
import uuid
from multiprocessing.queues import Queue

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import proc_cpu

from app.games.live.rows import rows_for
from app.lobby.starting import create_game
from app.store.db import create_engine, create_sessionmaker
from app.store.migrations import upgrade_to_head
from app.store.repositories import games as games_repo
from app.store.repositories import users as users_repo
from tests.support.services import POSTGRES_URL, pg_admin

SIZE = 19
CONNECTIONS_PER_PROC = 16


def move_event(v: int) -> dict:
    """Move ``v`` of a game as the room commits it (the protocol's ``move``, with a Fischer clock)."""
    color = "B" if v % 2 else "W"
    return {
        "t": "move",
        "v": v,
        "color": color,
        "p": [(v * 7) % SIZE, (v * 11) % SIZE],
        "captured": [],
        "move_number": v,
        "prisoners": {"B": 0, "W": 0},
        "to_move": "W" if color == "B" else "B",
        "clocks": {"B": {"main": 300.0, "running": color == "W"}, "W": {"main": 300.0, "running": color == "B"}},
        "server_time": time.time(),
    }


async def _create_games(url: str, count: int) -> list[str]:
    engine = create_engine(url)
    try:
        async with create_sessionmaker(engine)() as session:
            black = await users_repo.add_guest(session, "bench-b", f"bench-b-{uuid.uuid4().hex}")
            white = await users_repo.add_guest(session, "bench-w", f"bench-w-{uuid.uuid4().hex}")
            ids = []
            for _ in range(count):
                game = await create_game(
                    session,
                    board_size=SIZE,
                    rules="chinese",
                    komi=None,
                    handicap=0,
                    time_control={"kind": "fischer", "main": 300, "increment": 5},
                    rated=False,
                    black_id=black.id,
                    white_id=white.id,
                )
                ids.append(game.id)
            await session.commit()
            return ids
    finally:
        await engine.dispose()


async def _append(url: str, game_ids: list[str], ready: Queue[bool], go: Queue[tuple[float, float]]) -> dict:
    """Append moves to each of ``game_ids`` in turn until the window ends; times the ones inside it.

    Every game has one move appended (its connection opened) before this process says it is ready; the
    window (start, end) then comes on ``go``, the same for all processes."""
    # One driver connection per game, up to CONNECTIONS_PER_PROC: PostgreSQL's connection slots are shared.
    engine = create_engine(url, pool_size=min(len(game_ids), CONNECTIONS_PER_PROC), max_overflow=0)
    sessionmaker = create_sessionmaker(engine)
    latencies: list[float] = []
    versions = dict.fromkeys(game_ids, 0)

    async def one(game_id: str) -> float:
        event = move_event(versions[game_id] + 1)
        sent = time.time()
        versions[game_id] = await games_repo.append(
            sessionmaker, game_id, versions[game_id], [games_repo.NewEvent(type="move", payload=event, **rows_for(event))]
        )
        return sent

    try:
        await asyncio.gather(*(one(g) for g in game_ids))
        ready.put(True)
        start, end = await asyncio.to_thread(go.get)

        async def game(game_id: str) -> None:
            while time.time() < end:
                sent = await one(game_id)
                done = time.time()
                if sent >= start and done <= end:
                    latencies.append(done - sent)

        cpu, *_ = await asyncio.gather(proc_cpu.own_cpu(start, end), *(game(g) for g in game_ids))
    finally:
        await engine.dispose()
    return {"latencies": latencies, "cpu": cpu}


def _client(url: str, game_ids: list[str], ready: Queue[bool], go: Queue[tuple[float, float]], results: Queue[dict]) -> None:
    results.put(asyncio.run(_append(url, game_ids, ready, go)))


def run_step(url: str, database: str, game_ids: list[str], procs: int, seconds: float, warmup: float) -> dict:
    shares = [game_ids[p::procs] for p in range(procs) if game_ids[p::procs]]
    ctx = multiprocessing.get_context("spawn")
    ready, results = ctx.Queue(), ctx.Queue()
    gos = [ctx.Queue() for _ in shares]
    clients = [ctx.Process(target=_client, args=(url, share, ready, go, results)) for share, go in zip(shares, gos)]
    for process in clients:
        process.start()
    for _ in clients:
        ready.get(timeout=300)
    start = time.time() + warmup
    window = (start, start + seconds)
    for go in gos:
        go.put(window)
    time.sleep(max(0.0, start - time.time()))
    before = proc_cpu.snapshot()
    time.sleep(max(0.0, window[1] - time.time()))
    after = proc_cpu.snapshot()
    outcomes = [results.get(timeout=120) for _ in clients]
    for process in clients:
        process.join(30)
    cpu = proc_cpu.cpu_split(before, after, [], database, sum(o["cpu"] for o in outcomes), seconds)
    latencies = sorted(x for o in outcomes for x in o["latencies"])
    rate = len(latencies) / seconds

    def p(q: float) -> float:
        return latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000 if latencies else float("nan")

    return {
        "rate": rate,
        "p50": p(0.5),
        "p99": p(0.99),
        "postgres": cpu["postgres"],
        "clients": cpu["clients"],
        "other": cpu["other"],
        "machine": cpu["machine"],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", default="1,4,16,32", help="appends in flight (games at once), per step")
    parser.add_argument("--seconds", type=float, default=5.0, help="measured seconds per step")
    parser.add_argument("--warmup", type=float, default=1.0, help="unmeasured seconds before each step")
    parser.add_argument("--client-procs", type=int, default=2, help="client processes")
    opts = parser.parse_args()
    steps = [int(s) for s in opts.steps.split(",")]

    name = f"tengen_bench_{uuid.uuid4().hex}"
    pg_admin(f'CREATE DATABASE "{name}"')
    url = POSTGRES_URL.rpartition("/")[0] + "/" + name
    print(
        f"cpus={os.cpu_count()} steps={steps} seconds={opts.seconds} client_procs={opts.client_procs} "
        f"load_average={os.getloadavg()[0]:.2f} (PostgreSQL, the clients and everything else share these cores)"
    )
    figures = []
    try:
        upgrade_to_head(url)
        for in_flight in steps:
            game_ids = asyncio.run(_create_games(url, in_flight))
            f = run_step(url, name, game_ids, min(opts.client_procs, in_flight), opts.seconds, opts.warmup)
            figures.append(f)

            def per(cores: float, f: dict = f) -> float:
                return 1000 * cores / f["rate"] if f["rate"] else float("nan")

            print(
                f"in_flight={in_flight} appends_per_s={f['rate']:.0f} p50_ms={f['p50']:.2f} p99_ms={f['p99']:.2f} "
                f"cpu_cores postgres={f['postgres']:.2f} clients={f['clients']:.2f} other={f['other']:.2f} "
                f"machine={f['machine']:.2f}/{os.cpu_count()} cpu_ms_per_append postgres={per(f['postgres']):.3f} "
                f"clients={per(f['clients']):.3f}"
            )
    finally:
        pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    busiest = max(figures, key=lambda f: f["rate"])
    pg_ms = 1000 * busiest["postgres"] / busiest["rate"] if busiest["rate"] else float("nan")
    per_core = 1000 / pg_ms if pg_ms else float("nan")
    print(f"pg_ms_per_append={pg_ms:.3f} appends_per_pg_core={per_core:.0f} best_appends_per_s={busiest['rate']:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
