"""The games do not feel KataGo: the room bench's move round trip while the engine service is busy with a queue of
score estimates, over the same with the engine idle, in one run on one server (issue 33: at most 1.1x).

Starts one Tengen server process (``tengen serve`` on a fresh PostgreSQL database, in-process hub) with KataGo
on (``TENGEN_KATAGO=true``, only the 19x19 process: ``TENGEN_KATAGO_BUFFERS=[19]``, from ``--engines`` or
``TENGEN_ENGINES_DIR``) and waits until ``/healthz`` says it is ready. Then ``--games`` 19x19 games between bot
clients (``room_bench.TengenGames``: random legal moves, ``--spectators`` each, one move per ``--interval``
seconds) are played in ``--rounds`` matched pairs of rounds, busy and quiet in turn (ABBA ABBA ...):

- **busy**: ``--in-flight`` clients post score estimates of 19x19 positions (``POST /api/study/estimate``,
  each a line of its own, so KataGo's cache never answers) one after another, from a second before the round
  until its end, so the engine always has a question running and more waiting (the service's estimate priority,
  KataGo as the server starts it); the estimates still running at the end are awaited before the next round;
- **quiet**: no estimate; the KataGo process sits idle.

Each pair's ratio is the busy round's p50 over the quiet round's; ``engine_busy_ratio`` is the median of the pairs'
ratios (the room bench's ``matched_ratio``: an interval for it from a sign test), beside the pooled p50s. An
estimate answered by the rules engine instead (KataGo over its 10 s) is counted and printed. The last line::

    engine_busy_ratio=<median of busy p50 / quiet p50> busy_p50_ms=<x> quiet_p50_ms=<x> estimates=<n>

    .venv/bin/python bench/engine_load_bench.py [--games 20] [--spectators 2] [--moves 24] [--interval 1.0]
        [--rounds 6] [--in-flight 2] [--engines DIR] [--nice-only] [--quick]

KataGo runs as the server starts it: under Linux's ``SCHED_IDLE`` (it runs only when nothing else wants the core;
``app/engines/lowered.py``), at niceness 19 where that is refused. ``--nice-only`` turns ``SCHED_IDLE`` off
(``TENGEN_KATAGO_SCHED_IDLE=false``), for the comparison with niceness 19 alone (which still takes a share of the
core, and its time slice, from a waking web server). The policy KataGo got is printed (``/healthz``).

The per-user estimate limit (30 a minute) is raised for the bench's one client; nothing else is. CPU group and
PostgreSQL as in ``room_bench.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import httpx
from bench_server import add_game_options, bench_run, free_port, run_favoured, start_tengen, wait_listening
from cpu_groups import Favoured
from room_bench import Pair, TengenGames, matched_ratio, ms
from ws_clients import percentile

from app.engines.layout import Installed, Layout, engines_dir
from app.rules import Game
from app.settings import Settings

ESTIMATE_MOVES = 80  # moves in each estimated line: a middle game
READY_SECONDS = 600.0  # KataGo's start (its speed measured) on a loaded 2-core machine


def estimate_body(seed: int) -> dict[str, object]:
    rng = random.Random(seed)
    game = Game(19)
    line: list[dict[str, object]] = []
    while len(line) < ESTIMATE_MOVES:
        point = (rng.randrange(19), rng.randrange(19))
        colour = game.to_move
        if game.is_legal(colour, point):
            line.append({"color": colour, "point": list(point)})
            game.play(colour, point)
    return {"setup": {"size": 19, "rules": "chinese", "komi": 7.5}, "line": line}


class Estimates:
    """``in_flight`` clients posting estimates one after another while ``running``; what judged each is counted."""

    def __init__(self, base: str, in_flight: int) -> None:
        self.base, self.in_flight = base, in_flight
        self.judges: dict[str, int] = {}
        self.seconds: list[float] = []
        self.seed = 0
        self._tasks: list[asyncio.Task[None]] = []
        self._stop = asyncio.Event()

    async def _client(self) -> None:
        async with httpx.AsyncClient(base_url=self.base, timeout=120) as http:
            (await http.post("/api/guest")).raise_for_status()
            while not self._stop.is_set():
                self.seed += 1
                started = time.perf_counter()
                answer = await http.post("/api/study/estimate", json=estimate_body(self.seed))
                answer.raise_for_status()
                self.seconds.append(time.perf_counter() - started)
                judge = answer.json().get("judge", "?")
                self.judges[judge] = self.judges.get(judge, 0) + 1

    def start(self) -> None:
        self._stop.clear()
        self._tasks = [asyncio.create_task(self._client()) for _ in range(self.in_flight)]

    async def stop(self) -> None:
        """No new estimate; the running ones end (the next round starts with the engine idle)."""
        self._stop.set()
        await asyncio.gather(*self._tasks)


async def wait_ready(base: str) -> dict[str, object]:
    deadline = time.monotonic() + READY_SECONDS
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        while time.monotonic() < deadline:
            katago = (await http.get("/healthz")).json()["engines"]["katago"]
            if katago["state"] == "ready":
                return dict(katago)
            if katago["state"] in ("failed", "missing", "off"):
                raise SystemExit(f"KataGo did not start: {json.dumps(katago)}")
            await asyncio.sleep(1.0)
    raise SystemExit(f"KataGo not ready after {READY_SECONDS:.0f} s")


async def run(args: argparse.Namespace, favoured: Favoured | None) -> int:
    rng = random.Random(args.seed)
    async with bench_run(favoured) as bench:
        with tempfile.TemporaryDirectory(prefix="tengen-bench-") as tmp:
            port = free_port()
            tengen = start_tengen(
                bench.database,
                port,
                Path(tmp),
                TENGEN_KATAGO="true",
                TENGEN_ENGINES_DIR=str(args.engines),
                TENGEN_KATAGO_BUFFERS="[19]",
                TENGEN_STUDY_ESTIMATES="1000000",  # one client asks for every estimate
                TENGEN_KATAGO_SCHED_IDLE="false" if args.nice_only else "true",
            )
            bench.servers.append(tengen)
            await wait_listening(tengen, port)
            base = f"http://127.0.0.1:{port}"
            try:
                katago = await wait_ready(base)
                print(f"machine: {os.cpu_count()} cores; KataGo: {json.dumps(katago['buffers'])}", flush=True)
                games, estimates = TengenGames(base, args, rng), Estimates(base, args.in_flight)
                await games.open()
                await bench.backends.join()
                await games.round(1)  # the warm-up, not counted
                pairs: list[Pair] = []
                done = 0
                for r in range(args.rounds):
                    moves = (args.moves - done) // (args.rounds - r)
                    done += moves
                    await bench.backends.join()
                    quiet_first = r % 2 == 1
                    if quiet_first:
                        quiet = await games.round(moves)
                    estimates.start()
                    await asyncio.sleep(1.0)  # the first questions reach KataGo
                    busy = await games.round(moves)
                    await estimates.stop()
                    if not quiet_first:
                        quiet = await games.round(moves)
                    pairs.append(Pair(busy, quiet))  # Pair's "tengen" is the busy round, its "floor" the quiet one
                await games.close()
            except Exception:
                print(tengen.tail(), file=sys.stderr)
                raise
            ratio, low, high, confidence = matched_ratio(pairs)
            busy_all = [r for p in pairs for r in p.tengen]
            quiet_all = [r for p in pairs for r in p.floor]
            print(f"busy  move round trip (send -> ack), {args.games} games: {ms(busy_all)}")
            print(f"quiet move round trip (send -> ack), same games: {ms(quiet_all)}")
            print(
                f"per pair (busy p50 / quiet p50), {len(pairs)} pairs: median {ratio:.2f} ({confidence:.1%} interval "
                f"{low:.2f}-{high:.2f}); pooled p50s: {percentile(busy_all, 50) / percentile(quiet_all, 50):.2f}; "
                + " ".join(f"{percentile(p.tengen, 50) * 1000:.2f}/{percentile(p.floor, 50) * 1000:.2f}" for p in pairs)
                + " ms"
            )
            answered = sum(estimates.judges.values())
            print(
                f"estimates during the busy rounds: {answered} ({estimates.judges}), {args.in_flight} in flight; "
                f"seconds each p50 {percentile(estimates.seconds, 50):.1f} p99 {percentile(estimates.seconds, 99):.1f}"
            )
            print(
                f"engine_busy_ratio={ratio:.2f} busy_p50_ms={percentile(busy_all, 50) * 1000:.2f} "
                f"quiet_p50_ms={percentile(quiet_all, 50) * 1000:.2f} estimates={answered}",
                flush=True,
            )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_game_options(parser, moves_help="moves per game in each of busy and quiet, shared among the pairs (default 24)")
    parser.set_defaults(games=20, spectators=2, moves=24)
    parser.add_argument("--rounds", type=int, default=6, help="matched pairs of a busy and a quiet round (default 6)")
    parser.add_argument("--in-flight", type=int, default=2, help="estimates asked at once in a busy round (default 2)")
    parser.add_argument("--engines", type=Path, default=None, help="KataGo's folder (default: TENGEN_ENGINES_DIR)")
    parser.add_argument(
        "--nice-only", action="store_true", help="KataGo at niceness 19 only, not under SCHED_IDLE (the server's default)"
    )
    parser.add_argument("--quick", action="store_true", help="a smoke run: 3 games, 1 spectator, 4 moves in 2 pairs")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.spectators, args.moves, args.interval, args.rounds = 3, 1, 4, 0.5, 2
    args.engines = (args.engines or engines_dir(Settings())).resolve()
    if Installed.read(Layout.under(args.engines)) is None:
        raise SystemExit(f"KataGo is not installed in {args.engines}: run `tengen engines install`")
    return run_favoured("engine-load-bench", lambda favoured: run(args, favoured))


if __name__ == "__main__":
    sys.exit(main())
