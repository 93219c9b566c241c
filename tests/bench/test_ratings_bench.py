"""``bench/ratings_bench.py`` rates, rebuilds and computes the same games and prints the ratios last. Only the
shape of the output is checked."""

from __future__ import annotations

import re

from tests.bench.runs import bench_lines

LAST = re.compile(r"^ratio live/arithmetic=[\d.]+ rebuild/arithmetic=[\d.]+$")


def test_a_short_run_prints_each_rate_and_the_ratios_last() -> None:
    lines = bench_lines("ratings_bench.py", "--players", "6", "--games", "20", last=LAST)
    rates = dict(line.split("=") for line in lines[:-1])
    assert set(rates) == {"live_updates_per_s", "rebuild_games_per_s", "arithmetic_games_per_s"}
    assert all(int(v) > 0 for v in rates.values())
