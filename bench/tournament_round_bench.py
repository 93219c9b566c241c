"""The cost of a tournament round in the runtime: the scheduler's pairing step (the round's input read from the
store, paired by the core, boards and seats written) and its start step (a game for every board by the lobby's
path, in one transaction), against the core's pairing of the same input alone in the same run.

A fresh SQLite (or ``--database`` PostgreSQL) database gets ``--players`` registered players, a Swiss (or
``--format mcmahon``) event they all enter, and round 1 then round 2 (after round 1's results) are paired and
started by ``TournamentService.tick`` on a clock the bench moves. Prints the seconds of each step, then the
ratios last:

    .venv/bin/python bench/tournament_round_bench.py [--players 500] [--format swiss] [--database URL]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from app.lobby.live.broadcaster import MemoryLobbyBroadcaster
from app.store.db import create_engine, create_sessionmaker
from app.store.migrations import upgrade_to_head
from app.store.repositories import tournaments as repo
from app.store.repositories import users
from app.tournaments.pairing import pair_round
from app.tournaments.schemas import CreateTournament
from app.tournaments.service import TournamentService, input_from_json
from app.transport.memory_hub import MemoryHub
from tests.ratings.finished_games import player

STRENGTHS = ["new", "casual", "club", "strong", "12k", "3k", "1d"]


async def no_end(_game_id: str, _user_id: int) -> None:
    return None


async def run(url: str, players: int, fmt: str, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    engine = create_engine(url)
    sessionmaker = create_sessionmaker(engine)
    hub = MemoryHub()
    await hub.start()
    start = datetime.now(UTC) + timedelta(hours=1)
    now = [datetime.now(UTC)]
    service = TournamentService(
        sessionmaker,
        hub,
        MemoryLobbyBroadcaster(),
        no_end,
        max_players=players,
        max_rounds=5,
        per_director=1,
        clock=lambda: now[0],
    )
    figures: dict[str, float] = {}
    try:
        ids = [await player(sessionmaker, rng.choice(STRENGTHS)) for _ in range(players + 1)]
        async with sessionmaker() as session:
            people = [await users.get(session, i) for i in ids]
        director, *entrants = [p for p in people if p is not None]
        body = CreateTournament.model_validate(
            {
                "name": "Bench open",
                "format": fmt,
                "rounds": 2,
                "max_players": players,
                "game": {"board_size": 19, "time_control": {"kind": "absolute", "main": 1800}, "rated": False},
                "schedule": {
                    "first_round_at": start.isoformat(),
                    "round_seconds": 7200,
                    "pairing_lead_seconds": 60,
                    "deadline_seconds": 7000,
                },
                **({"top_bar": "3d", "bottom_bar": "20k"} if fmt == "mcmahon" else {}),
            }
        )
        tid = (await service.create(director, body))["id"]
        for person in entrants:
            await service.register(person, tid)
        for number in (1, 2):
            pairing_at = start + timedelta(seconds=7200 * (number - 1) - 60)
            now[0] = pairing_at
            if number == 1:
                await service.tick()  # registration -> running: the round is paired by the next tick
            began = time.perf_counter()
            await service.tick()
            figures[f"round{number}_pair_s"] = time.perf_counter() - began
            async with sessionmaker() as session:
                rnd = await repo.get_round(session, tid, number)
            assert rnd is not None and rnd.status == "paired" and rnd.inputs is not None, rnd and rnd.status
            inp = input_from_json(rnd.inputs)
            began = time.perf_counter()
            pair_round(inp)
            figures[f"round{number}_core_s"] = time.perf_counter() - began
            now[0] = pairing_at + timedelta(seconds=60)
            began = time.perf_counter()
            await service.tick()
            figures[f"round{number}_start_s"] = time.perf_counter() - began
            async with sessionmaker() as session:
                boards = await repo.pairings(session, tid, number)
                assert all(b.game_id for b in boards), "every board has its game"
                for b in boards:  # results, so that round 2 is paired by score
                    await repo.set_outcome(session, b.id, rng.choice(["B", "W", "W", "jigo"]), "director")
                await session.commit()
            figures[f"round{number}_games"] = len(boards)
    finally:
        await hub.close()
        await engine.dispose()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--format", choices=["swiss", "mcmahon"], default="swiss")
    parser.add_argument("--database", default=None, help="a PostgreSQL URL (default: a fresh SQLite file)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database or f"sqlite+aiosqlite:///{tmp}/bench.sqlite3"
        upgrade_to_head(url)
        figures = asyncio.run(run(url, args.players, args.format, args.seed))
    for name, value in figures.items():
        print(f"{name}={value:.3f}" if name.endswith("_s") else f"{name}={int(value)}")
    ratios = " ".join(
        f"round{n}_pair/core={figures[f'round{n}_pair_s'] / max(figures[f'round{n}_core_s'], 1e-6):.1f}" for n in (1, 2)
    )
    print(f"ratio {ratios}")


if __name__ == "__main__":
    main()
