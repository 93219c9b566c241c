"""``bench/room_bench.py --quick`` runs end to end against a real server and PostgreSQL and ends with its ratios.

Only the shape of the output is checked: timings are the benchmark's business, not the test suite's.
"""

from __future__ import annotations

import re

import pytest

from tests.bench.runs import BENCH_POSTGRES, bench_lines
from tests.support.services import need_postgres

LAST_LINE = re.compile(r"^rtt_ratio=\d+\.\d+ fanout_ratio=\d+\.\d+ idle_kb=-?\d+\.\d stall_ms=\d+$")


@pytest.mark.timeout(320)
def test_quick_run_prints_the_ratios_last() -> None:
    need_postgres()
    # a loaded machine: the side load adds setup
    lines = bench_lines("room_bench.py", "--quick", last=LAST_LINE, timeout=280, env=BENCH_POSTGRES)
    assert any(line.startswith("tengen move round trip") for line in lines)
    assert any(line.startswith("tengen memory per idle socket") for line in lines)
