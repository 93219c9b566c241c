"""Measure how often our dead-stone proposal equals GNU Go's ``final_status_list dead``.

GNU Go plays itself (after a few random opening moves, so games differ) to two passes; both
engines then judge the final position. Prints the share of positions with identical dead sets.

    /work/main/.venv/bin/python -m tests.rules.gnugo_dead_agreement --games 60 --size 9 --level 1
"""

from __future__ import annotations

import argparse
import random
import sys

from tests.rules.gtp import Gtp, vertices
from tests.rules.test_gnugo_oracle import self_play


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--level", type=int, default=1)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()
    gtp = Gtp("--chinese-rules", "--positional-superko", "--level", str(args.level))
    rng = random.Random(args.seed)
    same = total = with_dead = 0
    try:
        while total < args.games:
            g = self_play(gtp, rng, args.size)
            if g is None:
                continue
            theirs = vertices(gtp.one("final_status_list dead"), args.size)
            ours = g.propose_dead()
            total += 1
            with_dead += bool(theirs)
            if ours == theirs:
                same += 1
            else:
                print(f"position {total}: ours-only={sorted(ours - theirs)} gnugo-only={sorted(theirs - ours)}")
                print("\n".join(g.board_rows()))
    finally:
        gtp.close()
    print(f"positions={total} with_dead_stones={with_dead} identical={same} agreement={same / total:.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
