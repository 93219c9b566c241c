"""``bench/ai_review_bench.py`` reviews a short 9x9 game with the real analyst and KataGo and prints the wall time
against the evaluations made last. Only the shape of the output is checked (a short run on the tests' KataGo)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.bench.runs import bench_lines
from tests.support.katago import katago_dir

__all__ = ["katago_dir"]

LAST = re.compile(r"^positions=5 visits=\d+ evals_per_second=\d+\.\d{3} wall_s=\d+\.\d\d expected_s=\d+\.\d\d ratio=\d+\.\d\d$")


@pytest.mark.katago
@pytest.mark.timeout(320)
def test_a_short_run_prints_the_ratio_last(katago_dir: Path) -> None:
    lines = bench_lines("ai_review_bench.py", "--moves", "4", "--engines", str(katago_dir), last=LAST, timeout=300)
    assert any(line.startswith("review (quick) of 4 moves on 9x9") for line in lines)
