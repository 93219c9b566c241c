"""``bench/chat_filter_bench.py`` sends one game's stream unfiltered and through two chat filters and prints the
ratio last. Only the shape of the output is checked."""

from __future__ import annotations

import re

from tests.bench.runs import bench_lines

LAST = re.compile(r"^filter_ratio=[\d.]+$")


def test_a_short_run_prints_each_cost_and_the_ratio_last() -> None:
    lines = bench_lines("chat_filter_bench.py", "--moves", "20", "--rounds", "5", last=LAST, timeout=120)
    assert [line.split(":")[0] for line in lines[:3]] == ["unfiltered", "no_blocks", "with_blocks"]
