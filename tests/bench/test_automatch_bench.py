"""``bench/automatch_bench.py`` runs end to end on two server processes, PostgreSQL and Redis.

Only the shape of the output is checked: timings are the benchmark's business, not the test suite's.
"""

from __future__ import annotations

import re

from tests.bench.runs import bench_lines
from tests.support.services import need_postgres, need_redis

LAST = re.compile(r"^pair_p99_ms=[\d.]+ ratio_p99=[\d.]+$")
LINE = re.compile(
    r"^(pair_all|pair_cross_instance|pair_same_instance|baseline_ping) n=(\d+) p50_ms=[\d.]+ "
    r"p99_ms=[\d.]+ max_ms=[\d.]+$"
)


def test_a_short_run_pairs_every_trial_and_prints_the_p99_last() -> None:
    need_postgres()
    need_redis()
    lines = bench_lines("automatch_bench.py", "--trials", "4", last=LAST)
    counts = {m.group(1): int(m.group(2)) for m in map(LINE.match, lines) if m}
    assert counts == {"pair_all": 4, "pair_cross_instance": 2, "pair_same_instance": 2, "baseline_ping": 4}, lines
