"""Measure how often our dead-stone proposal equals GNU Go's ``final_status_list dead``.

Two steps. ``generate`` lets GNU Go play itself (after four random opening moves, so games differ)
to two passes at the given levels, in turn, and appends each finished position with GNU Go's dead
and seki lists to ``tests/rules/data/dead_<size>.txt``. ``measure`` (the default) runs our proposal
on the stored positions, without GNU Go, prints every difference and the share of identical dead
sets per size::

    python -m tests.rules.gnugo_dead_agreement generate --size 19 --games 60 --levels 1,2,3
    python -m tests.rules.gnugo_dead_agreement measure --size 9 --size 13 --size 19
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from app.rules import Game
from app.rules.board import BLACK, WHITE
from app.rules.dead import propose_dead_on_board
from tests.rules.dead_positions import DATA, Position, load
from tests.rules.gtp import Gtp, vertices
from tests.rules.test_gnugo_oracle import self_play

MAX_MOVES = {9: 200, 13: 400, 19: 700}


def generate(size: int, games: int, levels: list[int], seed: int) -> None:
    gtp = Gtp("--chinese-rules", "--positional-superko")
    rng = random.Random(seed * 1000 + size)
    path = DATA / f"dead_{size}.txt"
    made = 0
    try:
        while made < games:
            level = levels[made % len(levels)]
            gtp.one(f"level {level}")
            g: Game | None = self_play(gtp, rng, size, max_moves=MAX_MOVES.get(size, 3 * size * size))
            if g is None:
                continue
            pos = Position(
                rows=g.board_rows(),
                to_move=g.to_move,
                dead=vertices(gtp.one("final_status_list dead"), size),
                seki=vertices(gtp.one("final_status_list seki"), size),
                note=f"level {level} seed {seed} game {made} moves {len(g.moves)} score {gtp.one('final_score')}",
            )
            with path.open("a") as f:
                f.write(pos.to_text())
            made += 1
            print(f"{size}x{size} game {made}/{games}: {pos.note}", flush=True)
    finally:
        gtp.close()


def measure(size: int, verbose: bool, data: Path = DATA) -> tuple[int, int]:
    positions = load(size, data)
    same = 0
    spent = worst = 0.0
    for i, pos in enumerate(positions):
        board = pos.board()
        t = time.process_time()
        ours = propose_dead_on_board(board, BLACK if pos.to_move == "B" else WHITE)
        took = time.process_time() - t
        spent += took
        worst = max(worst, took)
        if ours == pos.dead:
            same += 1
        elif verbose:
            print(f"{size}x{size} #{i} ({pos.note}): ours-only={sorted(ours - pos.dead)} gnugo-only={sorted(pos.dead - ours)}")
            print("\n".join(pos.rows))
    n = len(positions)
    with_dead = sum(1 for p in positions if p.dead)
    print(
        f"size={size} positions={n} with_dead_stones={with_dead} identical={same} "
        f"agreement={same / max(n, 1):.1%} cpu_mean={spent / max(n, 1):.3f}s cpu_max={worst:.3f}s",
        flush=True,
    )
    return same, n


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("step", nargs="?", choices=("generate", "measure"), default="measure")
    ap.add_argument("--size", type=int, action="append")
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--levels", default="1")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--data", type=Path, default=DATA, help="measure: the directory of dead_<size>.txt")
    ap.add_argument("--quiet", action="store_true", help="measure: only the per-size figures")
    args = ap.parse_args()
    sizes = args.size or [9, 13, 19]
    if args.step == "generate":
        for size in sizes:
            generate(size, args.games, [int(v) for v in args.levels.split(",")], args.seed)
        return 0
    for size in sizes:
        measure(size, not args.quiet, args.data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
