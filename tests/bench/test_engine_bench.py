"""``bench/engine_bench.py`` runs the engine service and ``katago benchmark`` in turn and prints the ratio last.
Only the shape of the output is checked (a short run on the tests' KataGo)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.bench.runs import bench_lines
from tests.support.katago import katago_dir

__all__ = ["katago_dir"]

LAST = re.compile(r"^ratio service/benchmark=[\d.]+$")


@pytest.mark.katago
def test_a_short_run_prints_both_rates_and_the_ratio_last(katago_dir: Path) -> None:
    args = ("--positions", "1", "--visits", "2", "--rounds", "1", "--engines", str(katago_dir))
    lines = bench_lines("engine_bench.py", *args, last=LAST, timeout=600)
    rates = dict(line.split("=") for line in lines[-3:-1])
    assert set(rates) == {"service_visits_per_s", "benchmark_visits_per_s"}
    assert all(float(value) > 0 for value in rates.values())
