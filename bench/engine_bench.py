"""Evaluations a second through the engine service against ``katago benchmark``, in one run, on this machine.

Both use the installed KataGo, the same network, the same analysis config (the ``--size`` buffer, its tuning
file) and the same search threads, under the same CPU policy (``SCHED_IDLE``, as the server runs KataGo).
``katago benchmark`` searches its own built-in
positions for that board size; the service is asked as the server asks it: one question after another, each
``--visits`` visits on a position after 12 random legal moves (``--positions`` of them, each from a line of its
own, so that no search finds another's positions in KataGo's cache, as ``katago benchmark`` clears it between
positions). The two are run in turn, ``--rounds`` times, so that a machine busy
with something else slows both alike. Prints each round's rates, then the totals and the ratio last:

    .venv/bin/python bench/engine_bench.py [--size 9] [--visits 16] [--positions 4] [--threads 1] [--rounds 2]

KataGo comes from ``TENGEN_ENGINES_DIR`` (as ``tengen engines install`` put it there) or ``--engines``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from app.engines.analysis import Colour, Point, Position, Question
from app.engines.lane import Lane, Priority
from app.engines.layout import Installed, Layout, engines_dir
from app.engines.opencl import library_path
from app.engines.process import Launch, lowered
from app.engines.service import EngineService
from app.rules import Game
from app.settings import Settings

NICENESS = 19
OPENING = 12  # random moves before each position the service is asked about
RATE = re.compile(r"numSearchThreads = +\d+: (\d+) / \1 positions, visits/s = ([\d.]+)")


def random_line(size: int, moves: int, seed: int) -> list[tuple[Colour, Point | None]]:
    rng = random.Random(seed)
    game = Game(size)
    line: list[tuple[Colour, Point | None]] = []
    while len(line) < moves:
        point = (rng.randrange(size), rng.randrange(size))
        colour = game.to_move
        if game.is_legal(colour, point):
            line.append(("B" if colour == "B" else "W", point))
            game.play(colour, point)
    return line


def benchmark(layout: Layout, size: int, visits: int, positions: int, threads: int) -> float:
    """``katago benchmark``'s visits a second (one thread count, no extra tests)."""
    command = [*lowered(NICENESS, True), str(layout.katago), "benchmark", "-config", str(layout.config(size))]
    command += ["-model", str(layout.model), "-v", str(visits), "-n", str(positions), "-t", str(threads)]
    command += ["-boardsize", str(size), "-no-server-thread-test", "-no-half-batch-size-test"]
    command += ["-override-config", f"numSearchThreads={threads}"]
    env = {**os.environ, "LD_LIBRARY_PATH": library_path(layout.lib_dir)}
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=3600)
    found = RATE.findall(done.stdout + done.stderr)
    if done.returncode != 0 or not found:
        raise SystemExit(f"katago benchmark failed: {(done.stdout + done.stderr)[-1000:]}")
    return float(found[-1][1])


async def service_rate(layout: Layout, size: int, visits: int, positions: int, threads: int, seed: int) -> float:
    """The service's visits a second over ``positions`` questions asked one after another."""
    lane = Lane(size, Launch.katago(layout, size, 1, threads, NICENESS), measure_visits=0)
    service = EngineService([lane])
    service.start()
    try:
        await lane.started.wait()
        if lane.state != "ready":
            raise SystemExit(f"KataGo did not start: {lane.error}")
        lines = [random_line(size, OPENING, 1000 * seed + i) for i in range(positions + 1)]
        await service.analyze(Question(Position(size, moves=tuple(lines[0])), visits=1), Priority.ESTIMATE)  # warm up
        total = 0
        started = time.perf_counter()
        for line in lines[1:]:
            total += (await service.analyze(Question(Position(size, moves=tuple(line)), visits=visits), Priority.ESTIMATE)).visits
        return total / (time.perf_counter() - started)
    finally:
        await service.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=9, choices=(9, 13, 19))
    parser.add_argument("--visits", type=int, default=16)
    parser.add_argument("--positions", type=int, default=4)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--engines", type=Path, default=None)
    args = parser.parse_args()
    layout = Layout.under(args.engines or engines_dir(Settings()))
    if Installed.read(layout) is None:
        raise SystemExit(f"KataGo is not installed in {layout.root}: run `tengen engines install`")
    served: list[float] = []
    benched: list[float] = []
    for round_ in range(args.rounds):
        served.append(asyncio.run(service_rate(layout, args.size, args.visits, args.positions, args.threads, round_)))
        benched.append(benchmark(layout, args.size, args.visits, args.positions, args.threads))
        print(f"round {round_ + 1}: service_visits_per_s={served[-1]:.3f} benchmark_visits_per_s={benched[-1]:.3f}")
    service, bench = sum(served) / len(served), sum(benched) / len(benched)
    print(f"service_visits_per_s={service:.3f}")
    print(f"benchmark_visits_per_s={bench:.3f}")
    print(f"ratio service/benchmark={service / bench:.2f}")


if __name__ == "__main__":
    main()
