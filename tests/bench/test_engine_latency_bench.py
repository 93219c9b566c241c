"""``bench/engine_latency_bench.py`` times a 9x9 and a 19x19 counting proposal and 9x9 and 19x19 score estimates through the
engine service and prints them last. Only the shape of the output is checked (a short run on the tests' KataGo)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.bench.runs import bench_lines
from tests.support.katago import katago_dir

__all__ = ["katago_dir"]

S = r"\d+\.\d\d"
LAST = re.compile(
    rf"^counting9_p50_s={S} counting9_p99_s={S} counting9_fallbacks=\d/1"
    rf" counting19_p50_s={S} counting19_p99_s={S} counting19_fallbacks=\d/1 estimate9_p50_s={S} estimate9_p99_s={S}"
    rf" estimate19_p50_s={S} estimate19_p99_s={S} estimate_fallbacks=\d/2$"
)


@pytest.mark.katago
@pytest.mark.timeout(620)
def test_a_short_run_prints_the_waits_last(katago_dir: Path) -> None:
    lines = bench_lines(
        "engine_latency_bench.py", "--counting", "1", "--estimates", "1", "--engines", str(katago_dir), last=LAST, timeout=600
    )
    assert any(line.startswith("counting proposal, 19x19") for line in lines)
    assert any(line.startswith("counting proposal, 9x9") for line in lines)
