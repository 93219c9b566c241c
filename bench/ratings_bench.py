"""The cost of rating games: the live update (one transaction per game, locks and all) and the full rebuild,
against the bare Glicko-2 arithmetic for the same games in the same run.

A fresh SQLite (or ``--database`` PostgreSQL) database gets ``--players`` registered players and ``--games``
finished rated games between them (mixed board sizes, handicaps, results). The sweep then rates them one
transaction each, ``tengen ratings rebuild``'s code replays them, and the pure arithmetic computes them
alone. Prints games per second for each, then the ratios last:

    .venv/bin/python bench/ratings_bench.py [--players 60] [--games 1000] [--database URL]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from datetime import UTC, datetime

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from app.ratings import service
from app.ratings.glicko2 import Rating
from app.ratings.rate import GameFacts, black_score, categories_for, rate_game
from app.store.db import create_engine, create_sessionmaker
from app.store.migrations import upgrade_to_head
from tests.ratings.finished_games import finished_game, player

PLAYED_AT = datetime(2026, 1, 1, tzinfo=UTC)  # the rating arithmetic does not read when a game was played

RESULTS = ["B+R", "W+R", "B+3.5", "W+0.5", "B+T", "Draw"]


async def run(url: str, players: int, games: int, seed: int) -> tuple[float, float, float]:
    rng = random.Random(seed)
    engine = create_engine(url)
    sessionmaker = create_sessionmaker(engine)
    try:
        ids = [await player(sessionmaker, rng.choice(["new", "casual", "club", "strong", "12k"])) for _ in range(players)]
        specs = []
        for _ in range(games):
            black, white = rng.sample(ids, 2)
            handicap = rng.choice([0, 0, 0, 2, 3])
            specs.append((black, white, rng.choice(RESULTS), rng.choice([9, 13, 19]), handicap, 0.5 if handicap else 7.5))
        for black, white, result, size, handicap, komi in specs:
            await finished_game(sessionmaker, black, white, result, size=size, handicap=handicap, komi=komi)

        started = time.perf_counter()
        rated = await service.sweep(sessionmaker)
        live = rated / (time.perf_counter() - started)

        started = time.perf_counter()
        replayed = await service.rebuild(sessionmaker)
        rebuild = replayed / (time.perf_counter() - started)

        figures: dict[tuple[int, str], Rating] = {}
        facts = [
            GameFacts(str(n), b, w, size, h, k, black_score(result) or 0.0, PLAYED_AT)
            for n, (b, w, result, size, h, k) in enumerate(specs)
        ]
        for f in facts:
            for uid in (f.black_id, f.white_id):
                for cat in categories_for(f.size):
                    figures.setdefault((uid, cat), Rating())
        started = time.perf_counter()
        for f in facts:
            for c in rate_game(f, figures, 0.5):
                figures[(c.user_id, c.category)] = c.after
        arithmetic = len(facts) / (time.perf_counter() - started)
        return live, rebuild, arithmetic
    finally:
        await engine.dispose()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=60)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", default="", help="a migrated, empty database URL (default: a new SQLite file)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database or f"sqlite+aiosqlite:///{tmp}/bench.sqlite3"
        if not args.database:
            upgrade_to_head(url)
        live, rebuild, arithmetic = asyncio.run(run(url, args.players, args.games, args.seed))
    print(f"live_updates_per_s={live:.0f}")
    print(f"rebuild_games_per_s={rebuild:.0f}")
    print(f"arithmetic_games_per_s={arithmetic:.0f}")
    print(f"ratio live/arithmetic={live / arithmetic:.4f} rebuild/arithmetic={rebuild / arithmetic:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
