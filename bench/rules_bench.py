"""Replay the same random legal 19x19 games through Tengen's engine and through sgfmill's Board.play.

Ours runs with positional superko and suicide checks (Chinese rules) through the public Game.play;
sgfmill checks neither. Prints both moves-per-second figures, then ``ratio=<ours/sgfmill>`` last.
Times are this process's CPU time (other jobs on the machine then matter less), and the engines take
turns over several rounds, each keeping its best.

    .venv/bin/python bench/rules_bench.py [--games 40] [--moves 300] [--seed 1] [--rounds 7]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from sgfmill import boards

from app.rules import Game, IllegalMove


def random_game(rng: random.Random, size: int, moves: int) -> list[tuple[str, tuple[int, int]]]:
    g = Game(size)
    out: list[tuple[str, tuple[int, int]]] = []
    points = [(x, y) for x in range(size) for y in range(size)]
    while len(out) < moves:
        rng.shuffle(points)
        for p in points:
            if g.stone_at(p) is None:
                try:
                    colour = g.to_move
                    g.play(colour, p)
                except IllegalMove:
                    continue
                out.append((colour, p))
                break
        else:
            break
    return out


def run_ours(games, size):
    start = time.process_time()
    n = 0
    for moves in games:
        g = Game(size)
        play = g.play
        for colour, p in moves:
            play(colour, p)
        n += len(moves)
    return n / (time.process_time() - start)


def run_sgfmill(games, size):
    start = time.process_time()
    n = 0
    for moves in games:
        b = boards.Board(size)
        play = b.play
        for colour, (x, y) in moves:
            play(size - 1 - y, x, colour.lower())
        n += len(moves)
    return n / (time.process_time() - start)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--moves", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=7, help="alternating rounds; the best of each engine counts")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    games = [random_game(rng, 19, args.moves) for _ in range(args.games)]
    total = sum(len(g) for g in games)
    # alternate the two engines so that load from other processes hits both alike; keep each one's best
    ours = theirs = 0.0
    for _ in range(args.rounds):
        ours = max(ours, run_ours(games, 19))
        theirs = max(theirs, run_sgfmill(games, 19))
    print(f"games={len(games)} moves={total} (19x19, random legal)")
    print(f"tengen moves/s={ours:.0f} (Game.play, positional superko + suicide checks)")
    print(f"sgfmill moves/s={theirs:.0f} (Board.play, no ko or suicide checks)")
    print(f"ratio={ours / theirs:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
