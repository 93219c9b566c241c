"""How long a review's change takes to reach its followers, against a game move reaching its spectators in the
same run on the same server: both go through the same hub, but a review's change also rewrites its row (the
leader's node, or the whole tree) where a move appends an event.

A real uvicorn serves the app on a fresh SQLite database (the in-process hub). A review of a finished game
has ``--followers`` sockets; its leader sends ``--actions`` changes one after another (alternately a step
through the game and a new variation with a comment, so the tree is rewritten half the time), each timed
from sending to the moment the last follower holds it. Then a game with as many spectators: ``--actions``
moves, timed the same way. Prints each median and 90th percentile, then the ratios (review over game) last:

    .venv/bin/python bench/review_bench.py [--followers 20] [--actions 40]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time

import httpx

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from sqlite_server import sqlite_server
from tests.support.players import GameSocket, Player, start_game
from tests.support.reviews import finished_game, make_review

PACE = 0.15  # seconds between a socket's messages, under its rate limit (10 a second), not timed
POINTS = [[x, y] for y in range(9) for x in range(9) if (x, y) not in {(2, 2), (6, 6), (2, 6), (6, 2)}]


async def _person(url: str) -> Player:
    person = Player(url)
    person.http.timeout = httpx.Timeout(60.0)  # a loaded machine: the bench measures, it does not give up
    return await person.visit()


async def _timed(sender: GameSocket, message: dict, watchers: list[GameSocket]) -> float:
    started = time.perf_counter()
    ack = await sender.act(message, timeout=60)
    assert ack["t"] == "ack", ack
    await asyncio.gather(*(w.event(ack["v"], timeout=60) for w in watchers))
    return time.perf_counter() - started


async def _review(url: str, followers: int, actions: int) -> list[float]:
    owner, other = await _person(url), await _person(url)
    crowd = [await _person(url) for _ in range(followers)]
    try:
        review = await make_review(owner, await finished_game(owner, other))
        lead = await owner.review(review["id"])
        watchers = [await person.review(review["id"]) for person in crowd]
        for sock in (lead, *watchers):
            await sock.of_type("snapshot")
        times = []
        for n in range(actions):
            if n % 2 == 0:
                times.append(await _timed(lead, {"t": "goto", "node": 1 + (n // 2) % 4}, watchers))
            else:
                await lead.act({"t": "goto", "node": 0})
                await asyncio.sleep(PACE)
                times.append(await _timed(lead, {"t": "play", "p": POINTS[n // 2 % len(POINTS)]}, watchers))
                await asyncio.sleep(PACE)
                await lead.act({"t": "comment", "text": f"variation {n}"})
            await asyncio.sleep(PACE)
        for sock in (lead, *watchers):
            await sock.close()
        return times
    finally:
        for person in (owner, other, *crowd):
            await person.close()


async def _game(url: str, spectators: int, moves: int) -> list[float]:
    black, white = await _person(url), await _person(url)
    crowd = [await _person(url) for _ in range(spectators)]
    try:
        game_id = await start_game(black, white, board_size=19)
        sides = [await black.socket(game_id), await white.socket(game_id)]
        watchers = [await person.socket(game_id) for person in crowd]
        for sock in (*sides, *watchers):
            await sock.of_type("snapshot")
        # Black fills the top rows, White the bottom ones: every move legal, nothing captured.
        points = {0: [[x, y] for y in range(4) for x in range(19)], 1: [[x, 18 - y] for y in range(4) for x in range(19)]}
        times = []
        for n in range(moves):
            times.append(await _timed(sides[n % 2], {"t": "play", "p": points[n % 2][n // 2]}, watchers))
            await asyncio.sleep(PACE)
        for sock in (*sides, *watchers):
            await sock.close()
        return times
    finally:
        for person in (black, white, *crowd):
            await person.close()


def _p(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=10)[int(q * 10) - 1] if len(values) > 1 else values[0]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--followers", type=int, default=20)
    parser.add_argument("--actions", type=int, default=40)
    args = parser.parse_args()
    with sqlite_server(sockets_per_address=0, review_max_participants=1000) as server:
        review = asyncio.run(_review(server.url, args.followers, args.actions))
        game = asyncio.run(_game(server.url, args.followers, args.actions))
    for name, times in (("review", review), ("game", game)):
        print(f"{name}_p50_ms={statistics.median(times) * 1000:.1f}")
        print(f"{name}_p90_ms={_p(times, 0.9) * 1000:.1f}")
    print(
        f"ratio review/game p50={statistics.median(review) / statistics.median(game):.2f} "
        f"p90={_p(review, 0.9) / _p(game, 0.9):.2f}"
    )


if __name__ == "__main__":
    main()
