"""The AI review's waste around the engine: the wall time of a whole review against the evaluations KataGo made for
it times the engine's measured seconds per evaluation (issue 34, "Measured": goal <= 1.2).

A finished game of random legal moves (``--moves``, on ``--size``) is written to a fresh SQLite database, its review
queued as ``POST /api/games/{id}/review`` queues it, and worked by the analyst ``tengen serve`` runs in process (the
in-memory procrastinate queue, the real ``Analyst`` and ``ReviewQueue``, one KataGo process for the size, one search
thread, niceness 19, its speed measured at its start as the server's is). The clock runs from the request to the
state ``done``. The evaluations are the visits KataGo reports for every position (the stored figures' ``visits``);
the expected time is their sum over the speed measured at the start.

Prints the figures, then last::

    positions=<n> visits=<v> evals_per_second=<x> wall_s=<x> expected_s=<x> ratio=<x>

    .venv/bin/python bench/ai_review_bench.py [--size 9] [--moves 40] [--depth quick] [--quick-seconds 0.5]
        [--engines DIR] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine_latency_bench import random_line

from app.ai_review.analyst import Analyst, Budget
from app.ai_review.jobs import ReviewQueue
from app.engines.lane import Lane
from app.engines.layout import Installed, Layout, engines_dir
from app.engines.process import Launch
from app.engines.service import EngineService
from app.settings import Settings
from app.store.db import create_engine, create_sessionmaker
from app.store.migrations import upgrade_to_head
from app.store.repositories import ai_reviews
from tests.ratings.finished_games import finished_game, player

NICENESS = 19
MEASURE_VISITS = 4  # the server's default (TENGEN_KATAGO_MEASURE_VISITS)


async def run(layout: Layout, args: argparse.Namespace, folder: Path) -> None:
    url = f"sqlite:///{folder / 'bench.db'}"
    await asyncio.to_thread(upgrade_to_head, url)
    database = create_engine(url)
    sessionmaker = create_sessionmaker(database)
    black, white = await player(sessionmaker), await player(sessionmaker)
    moves = random_line(args.size, args.seed, args.moves)
    game_id = await finished_game(sessionmaker, black, white, "B+R", size=args.size, rated=False, moves=moves)

    lane = Lane(args.size, Launch.katago(layout, args.size, 1, 1, NICENESS), measure_visits=MEASURE_VISITS)
    engines = EngineService([lane])
    engines.start()
    queue = ReviewQueue(url, sessionmaker)
    try:
        await lane.started.wait()
        if lane.state != "ready" or not lane.evals_per_second:
            raise SystemExit(f"KataGo did not start for {args.size}x{args.size}: {lane.error}")
        speed = lane.evals_per_second
        print(
            f"machine: {os.cpu_count()} cores; KataGo {args.size}x{args.size} measured at start: {speed:.3f} evals/s", flush=True
        )
        analyst = Analyst(sessionmaker, engines, None, Budget(args.quick_seconds, args.deep_seconds))
        queue.start_worker(analyst)
        started = time.perf_counter()
        async with sessionmaker() as session:
            await ai_reviews.request(session, game_id, args.depth, len(moves) + 1)
        await queue.defer(game_id, args.depth)
        while True:
            async with sessionmaker() as session:
                review = await ai_reviews.get(session, game_id)
            assert review is not None
            if review.state in ("done", "failed"):
                break
            await asyncio.sleep(0.05)
        wall = time.perf_counter() - started
        if review.state != "done":
            raise SystemExit(f"the review failed: {review.error}")
        async with sessionmaker() as session:
            figures = [f for f in await ai_reviews.figures(session, game_id, len(moves) + 1) if f is not None]
        visits = sum(f["visits"] for f in figures)
        expected = visits / speed
        print(
            f"review ({args.depth}) of {len(moves)} moves on {args.size}x{args.size}: {len(figures)} positions,"
            f" {visits} evaluations ({visits / len(figures):.1f} a position), wall {wall:.2f} s,"
            f" expected {expected:.2f} s at the measured speed",
            flush=True,
        )
        print(
            f"positions={len(figures)} visits={visits} evals_per_second={speed:.3f} wall_s={wall:.2f}"
            f" expected_s={expected:.2f} ratio={wall / expected:.2f}",
            flush=True,
        )
    finally:
        await queue.close()
        await engines.close()
        await database.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--depth", choices=("quick", "deep"), default="quick")
    parser.add_argument("--quick-seconds", type=float, default=Settings().ai_review_quick_seconds)
    parser.add_argument("--deep-seconds", type=float, default=Settings().ai_review_deep_seconds)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--engines", type=Path, default=None, help="KataGo's folder (default: the server's)")
    args = parser.parse_args()
    layout = Layout.under(args.engines or engines_dir(Settings()))
    if Installed.read(layout) is None:
        raise SystemExit(f"KataGo is not installed in {layout.root} (tengen engines install)")
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(run(layout, args, Path(folder)))


if __name__ == "__main__":
    main()
