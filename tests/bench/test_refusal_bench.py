"""``bench/refusal_bench.py`` times a refused move, a refused chat line and a ping through the game socket's
handling and prints the ratio last. Only the shape of the output is checked."""

from __future__ import annotations

import re

from tests.bench.runs import bench_lines

LAST = re.compile(r"^refusal_ratio=[\d.]+$")


def test_a_short_run_prints_each_cost_and_the_ratio_last() -> None:
    lines = bench_lines("refusal_bench.py", "--frames", "50", "--repeats", "2", last=LAST, timeout=120)
    assert [line.split(":")[0] for line in lines[:3]] == ["refused move", "refused chat", "ping"]
