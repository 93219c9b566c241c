"""``bench/tournament_pairing.py`` pairs McMahon and Swiss rounds, runs an arena, and pairs the last McMahon round
again by the textbook matcher (failing if the totals differ), its ratio last. A small run checks the shape."""

from __future__ import annotations

import re

from tests.bench.runs import bench_lines

LAST = re.compile(r"^textbook_ratio=[\d.]+$")


def test_a_short_run_prints_each_pairing_and_the_ratio_last() -> None:
    args = ("--players", "41", "--rounds", "3", "--arena", "30", "--arena-minutes", "20")
    lines = bench_lines("tournament_pairing.py", *args, last=LAST, timeout=120)
    assert [line.split(" ")[0] for line in lines] == ["mcmahon", "swiss", "arena", "baseline,", lines[-1]]
    assert re.match(r"^mcmahon 41 players: r1 [\d.]+s r2 [\d.]+s r3 [\d.]+s  max [\d.]+s$", lines[0])
