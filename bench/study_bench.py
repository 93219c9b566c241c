"""The cost of an analysis board's requests through a real server, against the same work done in-process in
the same run: a position (a line of ``--moves`` moves replayed by the rules engine) and a score estimate
(the dead-stone playouts) on 19x19.

A real uvicorn serves the app on a fresh SQLite database; one client sends ``--requests`` position requests
one after another, then ``--estimates`` estimate requests. The same jobs then run in this process alone.
Prints each rate, then the ratios (server over in-process; the difference is HTTP, validation, the
per-user limit and the trip to a worker process) last:

    .venv/bin/python bench/study_bench.py [--moves 200] [--requests 200] [--estimates 10]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import httpx

from app.rules import Game
from app.study import jobs
from sqlite_server import sqlite_server

SETUP = {"size": 19, "rules": "chinese", "komi": 7.5}


def random_line(moves: int, seed: int) -> list[tuple[str, tuple[int, int] | None]]:
    """A legal line of ``moves`` random moves on 19x19 (the rules engine picks out the illegal tries)."""
    rng = random.Random(seed)
    game = Game(19)
    line: list[tuple[str, tuple[int, int] | None]] = []
    while len(line) < moves:
        point = (rng.randrange(19), rng.randrange(19))
        if game.is_legal(game.to_move, point):
            line.append((game.to_move, point))
            game.play(game.to_move, point)
    return line


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--estimates", type=int, default=10)
    args = parser.parse_args()
    line = random_line(args.moves, 7)
    body = {"setup": SETUP, "line": [{"color": c, "point": list(p) if p else None} for c, p in line]}
    with sqlite_server(study_requests=0, study_estimates=0) as server:
        with httpx.Client(base_url=server.url, timeout=120) as client:
            client.post("/api/guest").raise_for_status()
            client.post("/api/study/position", json=body).raise_for_status()  # the workers start
            started = time.perf_counter()
            for _ in range(args.requests):
                client.post("/api/study/position", json=body).raise_for_status()
            served_positions = args.requests / (time.perf_counter() - started)
            started = time.perf_counter()
            for _ in range(args.estimates):
                client.post("/api/study/estimate", json=body).raise_for_status()
            served_estimates = args.estimates / (time.perf_counter() - started)
    started = time.perf_counter()
    for _ in range(args.requests):
        jobs.position(SETUP, line)
    local_positions = args.requests / (time.perf_counter() - started)
    started = time.perf_counter()
    for _ in range(args.estimates):
        jobs.estimate(SETUP, line)
    local_estimates = args.estimates / (time.perf_counter() - started)
    print(f"served_positions_per_s={served_positions:.1f}")
    print(f"local_positions_per_s={local_positions:.1f}")
    print(f"served_estimates_per_s={served_estimates:.2f}")
    print(f"local_estimates_per_s={local_estimates:.2f}")
    print(
        f"ratio position served/local={served_positions / local_positions:.2f} "
        f"estimate served/local={served_estimates / local_estimates:.2f}"
    )


if __name__ == "__main__":
    main()
