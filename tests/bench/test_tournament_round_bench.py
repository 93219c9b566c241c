"""``bench/tournament_round_bench.py`` pairs and starts two rounds of an event through the scheduler and pairs
the same inputs with the core alone; only the shape of the output is checked."""

from __future__ import annotations

import re

from tests.bench.runs import bench_lines

LAST = re.compile(r"^ratio round1_pair/core=[\d.]+ round2_pair/core=[\d.]+$")


def test_a_short_run_prints_each_step_and_the_ratios_last() -> None:
    lines = bench_lines("tournament_round_bench.py", "--players", "10", last=LAST)
    figures = dict(line.split("=") for line in lines[:-1])
    assert set(figures) == {f"round{n}_{k}" for n in (1, 2) for k in ("pair_s", "core_s", "start_s", "games")}
    assert figures["round1_games"] == figures["round2_games"] == "5"
    assert all(float(v) > 0 for k, v in figures.items() if k.endswith(("pair_s", "start_s")))  # the core's may print 0.000
