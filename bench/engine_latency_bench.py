"""How long a person waits for KataGo on this machine, through the engine service, as the server asks it:

- **a counting proposal on 9x9 and on 19x19**: ``dead_stones.ask`` as the server's proposer runs it (the two
  readings, the side to move's deeper one when a chain is disputed, the rules engine's playouts in the proposer's
  worker processes when a disputed chain leans dead) on the stored finished positions
  (tests/rules/data/dead_<size>.txt), within the counting budget (``proposals.BUDGET_SECONDS``, 5 s) and with the
  visits the service's measured speed gives it (``dead_stones.visits_for``), at counting's priority. A proposal
  over the budget is a fallback (the server counts with the rules engine's proposal instead): counted, and its
  time taken as the budget;
- **a score estimate** on 9x9 and 19x19: ``judge.estimate`` (what ``POST /api/study/estimate`` runs: the line
  replayed, KataGo asked at the estimate priority with the visits of its 10 s share, the count from its
  ownership) on positions after random legal lines of a quarter of the board's points, one after another. An
  estimate KataGo did not give in its time (the server answers with the rules engine's) is a fallback.

The study worker of the server is a thread here (the replay and the count take milliseconds). One KataGo process
per size (9 and 19 buffers), one search thread, niceness 19, measured at its start as the server's are.
Prints p50 and p99 of each, the fallbacks, and last::

    counting9_p50_s=<x> counting9_p99_s=<x> counting9_fallbacks=<k>/<n> counting19_p50_s=<x> counting19_p99_s=<x>
    counting19_fallbacks=<k>/<n> estimate9_p50_s=<x>
    estimate9_p99_s=<x> estimate19_p50_s=<x> estimate19_p99_s=<x> estimate_fallbacks=<k>/<n>

    .venv/bin/python bench/engine_latency_bench.py [--counting 30] [--estimates 10] [--engines DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from dead_stone_oracle import game_of

from app.engines import dead_stones
from app.engines.lane import Lane
from app.engines.layout import Installed, Layout, engines_dir
from app.engines.process import Launch
from app.engines.service import EngineService
from app.games.live.proposals import BUDGET_SECONDS, DeadStoneProposer
from app.rules import Game
from app.settings import Settings
from app.study import judge
from app.study.jobs import Line
from tests.rules.dead_positions import load

NICENESS = 19
MEASURE_VISITS = 4  # the server's default (TENGEN_KATAGO_MEASURE_VISITS)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q / 100))]


def random_line(size: int, seed: int, length: int | None = None) -> Line:
    """Random legal moves, a quarter of the board's points unless ``length`` says how many."""
    rng = random.Random(seed)
    game = Game(size)
    line: Line = []
    while len(line) < (size * size // 4 if length is None else length):
        point = (rng.randrange(size), rng.randrange(size))
        colour = game.to_move
        if game.is_legal(colour, point):
            line.append((colour, point))
            game.play(colour, point)
    return line


async def in_thread(fn: Any, *args: Any) -> Any:
    """The study worker's part, in a thread: ``judge``'s ``run``."""
    return await asyncio.to_thread(fn, *args)


async def counting(service: EngineService, size: int, count: int) -> tuple[list[float], int, int, int]:
    """The times to a proposal, the fallbacks, the proposals with a deeper reading, those that asked the playouts."""
    times: list[float] = []
    fallbacks = deeper = settled = 0
    proposer = DeadStoneProposer(engines=service)
    try:
        for position in load(size)[:count]:
            game = game_of(position.rows, position.to_move)
            started = time.perf_counter()
            try:
                judgement = await dead_stones.ask(service, game, BUDGET_SECONDS, settle=proposer.playouts)
                times.append(time.perf_counter() - started)
                deeper += judgement.deeper_visits > 0
                settled += judgement.settled
            except TimeoutError:
                fallbacks += 1
                times.append(BUDGET_SECONDS)
    finally:
        proposer.close()
    return times, fallbacks, deeper, settled


async def estimates(service: EngineService, size: int, count: int) -> tuple[list[float], int]:
    times: list[float] = []
    fallbacks = 0
    setup = {"size": size, "rules": "chinese", "komi": 7.5}
    for seed in range(count):
        line = random_line(size, 100 * size + seed)
        started = time.perf_counter()
        answer = await judge.estimate(service, in_thread, setup, line)
        times.append(time.perf_counter() - started)
        fallbacks += answer is None
    return times, fallbacks


def seconds(name: str, values: list[float]) -> str:
    return f"{name}_p50_s={percentile(values, 50):.2f} {name}_p99_s={percentile(values, 99):.2f}"


async def run(layout: Layout, args: argparse.Namespace) -> None:
    lanes = [Lane(size, Launch.katago(layout, size, 1, 1, NICENESS), measure_visits=MEASURE_VISITS) for size in (9, 19)]
    service = EngineService(lanes)
    service.start()
    try:
        for lane in lanes:
            await lane.started.wait()
            if lane.state != "ready":
                raise SystemExit(f"KataGo did not start for {lane.buffer}x{lane.buffer}: {lane.error}")
        speeds = {lane.buffer: lane.evals_per_second or 0.0 for lane in lanes}
        print(f"machine: {os.cpu_count()} cores; measured at start (evals/s): {speeds}", flush=True)
        count_times: dict[int, list[float]] = {}
        count_fallbacks: dict[int, int] = {}
        for size in (9, 19):
            visits = dead_stones.visits_for(speeds[size], BUDGET_SECONDS)
            count_times[size], count_fallbacks[size], deeper, settled = await counting(service, size, args.counting)
            print(
                f"counting proposal, {size}x{size}, {len(count_times[size])} positions, {visits} visits per reading,"
                f" {BUDGET_SECONDS:g} s budget: p50 {percentile(count_times[size], 50):.2f} s, p99"
                f" {percentile(count_times[size], 99):.2f} s, over the budget (the rules engine's proposal instead)"
                f" {count_fallbacks[size]}; a deeper reading on {deeper}, the playouts asked on {settled}",
                flush=True,
            )
        est: dict[int, list[float]] = {}
        est_fallbacks = 0
        for size in (9, 19):
            est[size], fallbacks = await estimates(service, size, args.estimates)
            est_fallbacks += fallbacks
            print(
                f"score estimate, {size}x{size}, {len(est[size])} positions: p50 {percentile(est[size], 50):.2f} s,"
                f" p99 {percentile(est[size], 99):.2f} s, KataGo over its"
                f" {judge.ESTIMATE_SECONDS:g} s (the rules engine's instead) {fallbacks}",
                flush=True,
            )
        print(
            f"{seconds('counting9', count_times[9])} counting9_fallbacks={count_fallbacks[9]}/{len(count_times[9])} "
            f"{seconds('counting19', count_times[19])} counting19_fallbacks={count_fallbacks[19]}/{len(count_times[19])} "
            f"{seconds('estimate9', est[9])} {seconds('estimate19', est[19])} "
            f"estimate_fallbacks={est_fallbacks}/{len(est[9]) + len(est[19])}",
            flush=True,
        )
    finally:
        await service.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--counting", type=int, default=30, help="stored positions proposed, each size (default 30)")
    parser.add_argument("--estimates", type=int, default=10, help="estimates on each of 9x9 and 19x19 (default 10)")
    parser.add_argument("--engines", type=Path, default=None)
    args = parser.parse_args()
    layout = Layout.under(args.engines or engines_dir(Settings()))
    if Installed.read(layout) is None:
        raise SystemExit(f"KataGo is not installed in {layout.root}: run `tengen engines install`")
    asyncio.run(run(layout, args))


if __name__ == "__main__":
    main()
