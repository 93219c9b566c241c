"""``bench/study_bench.py`` sends positions and estimates through a real server, runs the same jobs
in-process, and prints the ratios last. Only the shape of the output is checked."""

from __future__ import annotations

import re

from tests.bench.runs import bench_lines


LAST = re.compile(r"^ratio position served/local=[\d.]+ estimate served/local=[\d.]+$")


def test_a_short_run_prints_each_rate_and_the_ratios_last() -> None:
    lines = bench_lines("study_bench.py", "--moves", "40", "--requests", "5", "--estimates", "1", last=LAST)
    rates = dict(line.split("=") for line in lines[:-1])
    assert set(rates) == {"served_positions_per_s", "local_positions_per_s", "served_estimates_per_s", "local_estimates_per_s"}
    assert all(float(v) > 0 for v in rates.values())
