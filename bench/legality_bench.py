"""What listing the illegal points adds to a move: the same random legal 19x19 games replayed through
``Game.play`` alone and through ``Game.play`` followed by ``Game.illegal_points`` (what the server does once
per move, for the move event every viewer receives), under positional superko (Chinese rules) and simple ko
(Japanese rules). Prints each figure in microseconds per move, then ``legality_ratio=<with/without>`` last
(Chinese rules). Times are this process's CPU time; the two take turns over several rounds, each keeping its
best.

    .venv/bin/python bench/legality_bench.py [--games 20] [--moves 300] [--seed 1] [--rounds 5]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from app.rules import Game, RuleSet, rules_for
from bench.rules_bench import random_game


def run(games: list[list[tuple[str, tuple[int, int]]]], rules: RuleSet, listing: bool) -> float:
    """Microseconds of CPU time per move."""
    start = time.process_time()
    n = 0
    for moves in games:
        g = Game(19, rules)
        play = g.play
        if listing:
            illegal = g.illegal_points
            for colour, p in moves:
                play(colour, p)
                illegal()
        else:
            for colour, p in moves:
                play(colour, p)
        n += len(moves)
    return (time.process_time() - start) / n * 1e6


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--moves", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=5, help="alternating rounds; the best of each counts")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    games = [random_game(rng, 19, args.moves) for _ in range(args.games)]
    print(f"games={len(games)} moves={sum(len(g) for g in games)} (19x19, random legal)")
    ratios = {}
    for name in ("japanese", "chinese"):
        rules = rules_for(name)
        bare = listed = float("inf")
        for _ in range(args.rounds):
            bare = min(bare, run(games, rules, False))
            listed = min(listed, run(games, rules, True))
        ratios[name] = listed / bare
        print(f"{name} ({rules.ko} ko): play {bare:.2f} us/move, play + illegal_points {listed:.2f} us/move")
    print(f"legality_ratio={ratios['chinese']:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
