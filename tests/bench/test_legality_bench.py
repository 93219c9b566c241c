"""``bench/legality_bench.py`` replays random games with and without listing the illegal points and prints the
ratio last. Only the shape of the output is checked."""

from __future__ import annotations

import re

from tests.bench.runs import bench_lines

LAST = re.compile(r"^legality_ratio=[\d.]+$")


def test_a_short_run_prints_each_cost_and_the_ratio_last() -> None:
    lines = bench_lines(
        "legality_bench.py", "--games", "2", "--moves", "40", "--early", "8", "--rounds", "1", last=LAST, timeout=120
    )
    assert [line.split(" ")[0] for line in lines[1:5]] == ["japanese", "chinese", "authority,", "authority,"]
