"""``bench/pg_append_bench.py`` appends moves through the application's own commit path on a real PostgreSQL
and ends with the ceiling it measured. Only the shape of the output is checked."""

from __future__ import annotations

import re

from tests.bench.runs import bench_lines
from tests.support.services import need_postgres

STEP = re.compile(r"^in_flight=(\d+) appends_per_s=(\d+) p50_ms=[\d.]+ p99_ms=[\d.]+ cpu_cores postgres=[\d.]+ ")
LAST = re.compile(r"^pg_ms_per_append=([\d.]+|nan) appends_per_pg_core=(\d+|nan) best_appends_per_s=\d+$")


def test_a_short_run_appends_at_each_step_and_prints_the_ceiling_last() -> None:
    need_postgres()
    lines = bench_lines("pg_append_bench.py", "--steps", "1,3", "--seconds", "1", "--warmup", "0", last=LAST)
    steps = [m for m in map(STEP.match, lines) if m]
    assert [int(m.group(1)) for m in steps] == [1, 3], lines
    assert all(int(m.group(2)) > 0 for m in steps), lines  # every step committed moves
