"""Opening the lobby with many correspondence games: the socket's snapshot for a player with ``--games``
unfinished correspondence games against the same snapshot for a player with none, on one real server
(uvicorn in this process, SQLite and the in-process hub, a database created for the run).

Each trial opens ``/ws/lobby`` with the player's cookie and times the wait for the ``snapshot`` message (which
carries every one of the player's games: no request per game). Trials alternate between the two players.

Prints p50/p99 of both and ``snapshot_p50_ms=<..> ratio_p50=<with games / without>`` last.

    .venv/bin/python bench/lobby_bench.py [--games 50] [--trials 200]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("TENGEN_ENV", "test")

import orjson

from tests.support.players import Player, start_game
from sqlite_server import sqlite_server
from ws_clients import percentile

CORRESPONDENCE = {"kind": "simple", "per_move": 3 * 86400, "correspondence": True}


async def snapshot_ms(player: Player) -> tuple[float, int]:
    lobby = await player.lobby()
    started = time.perf_counter()
    while True:
        message = orjson.loads(await lobby.connection.recv())
        if message.get("t") == "snapshot":
            elapsed = (time.perf_counter() - started) * 1000
            await lobby.close()
            return elapsed, len(message["my_games"])


async def run(url: str, games: int, trials: int) -> None:
    busy, idle, opponent = await Player(url).visit(), await Player(url).visit(), await Player(url).visit()
    for _ in range(games):
        await start_game(busy, opponent, time_control=CORRESPONDENCE)
    with_games: list[float] = []
    without: list[float] = []
    for trial in range(trials):
        who, into = (busy, with_games) if trial % 2 == 0 else (idle, without)
        ms, listed = await snapshot_ms(who)
        assert listed == (games if who is busy else 0), listed
        into.append(ms)
    for name, values in (("with games", with_games), ("without", without)):
        print(f"{name}: p50={percentile(values, 50):.2f} ms p99={percentile(values, 99):.2f} ms (n={len(values)})")
    p50 = percentile(with_games, 50)
    print(f"snapshot_p50_ms={p50:.2f} ratio_p50={p50 / percentile(without, 50):.2f}")
    for person in (busy, idle, opponent):
        await person.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--trials", type=int, default=200)
    args = parser.parse_args()
    with sqlite_server(max_open_challenges=1000) as server:
        asyncio.run(run(server.url, args.games, args.trials))


if __name__ == "__main__":
    main()
