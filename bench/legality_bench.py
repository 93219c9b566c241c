"""What listing the illegal points adds to a move: the same random legal 19x19 games replayed through
``Game.play`` alone and through ``Game.play`` followed by ``Game.illegal_points`` (what the server does once
per move, for the move event every viewer receives), under positional superko (Chinese rules) and simple ko
(Japanese rules); then, for the first ``--early`` moves and for whole games, a game authority's whole ``apply``
of each move (clock, event, the list among them) beside what the list costs at the same positions. Prints each
figure in microseconds per move, then ``legality_ratio=<with/without>`` last (Chinese rules, whole games).
Times are this process's CPU time; each figure is the best of several rounds, taken in turns.

    .venv/bin/python bench/legality_bench.py [--games 20] [--moves 300] [--early 32] [--seed 1] [--rounds 5]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable
from functools import partial

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from rules_bench import random_game

from app.games.authority import GameAuthority
from app.rules import Game, RuleSet, rules_for

Games = list[list[tuple[str, tuple[int, int]]]]


def run(games: Games, rules: RuleSet, listing: bool) -> float:
    """Microseconds of CPU time per move for the engine alone, with or without the list after each move."""
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


def run_authority(games: Games) -> float:
    """Microseconds of CPU time per move for a game authority's ``apply`` (Chinese rules, Fischer clock)."""
    start = time.process_time()
    n = 0
    for moves in games:
        auth = GameAuthority({"size": 19, "time_control": {"kind": "fischer", "main": 600, "increment": 5}}, 0.0)
        for i, (colour, p) in enumerate(moves):
            auth.apply(colour, {"t": "play", "p": list(p)}, 1.0 + i * 0.01, {"lag": 0.0})
        n += len(moves)
    return (time.process_time() - start) / n * 1e6


def best(rounds: int, *figures: Callable[[], float]) -> list[float]:
    """The least of each figure over ``rounds`` rounds, the figures taken in turns within a round."""
    out = [float("inf")] * len(figures)
    for _ in range(rounds):
        for i, figure in enumerate(figures):
            out[i] = min(out[i], figure())
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--moves", type=int, default=300)
    ap.add_argument("--early", type=int, default=32, help="the opening moves measured on their own in the authority")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=5, help="alternating rounds; the best of each counts")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    games = [random_game(rng, 19, args.moves) for _ in range(args.games)]
    print(f"games={len(games)} moves={sum(len(g) for g in games)} (19x19, random legal)")
    ratio = 0.0
    for name in ("japanese", "chinese"):
        rules = rules_for(name)
        bare, listed = best(args.rounds, partial(run, games, rules, False), partial(run, games, rules, True))
        ratio = listed / bare
        print(f"{name} ({rules.ko} ko): play {bare:.2f} us/move, play + illegal_points {listed:.2f} us/move")
    chinese = rules_for("chinese")
    for label, part in (("first moves", [g[: args.early] for g in games]), ("whole games", games)):
        applied, bare, listed = best(
            args.rounds, partial(run_authority, part), partial(run, part, chinese, False), partial(run, part, chinese, True)
        )
        print(f"authority, {label}: apply(play) {applied:.1f} us/move, of which the list {listed - bare:.1f} us")
    print(f"legality_ratio={ratio:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
