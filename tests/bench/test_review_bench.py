"""``bench/review_bench.py`` times a review's changes reaching its followers and a game's moves reaching its
spectators on one real server, and prints the ratios last. Only the shape of the output is checked."""

from __future__ import annotations

import re

from tests.bench.runs import bench_lines

LAST = re.compile(r"^ratio review/game p50=[\d.]+ p90=[\d.]+$")


def test_a_short_run_prints_the_delays_and_the_ratios_last() -> None:
    lines = bench_lines("review_bench.py", "--followers", "3", "--actions", "6", last=LAST)
    figures = dict(line.split("=") for line in lines[:-1])
    assert set(figures) == {"review_p50_ms", "review_p90_ms", "game_p50_ms", "game_p90_ms"}
    assert all(float(v) > 0 for v in figures.values())
