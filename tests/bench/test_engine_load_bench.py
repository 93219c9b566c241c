"""``bench/engine_load_bench.py --quick`` plays games on a real server with KataGo, busy and quiet in turn, and ends
with the ratio of their round trips. Only the shape of the output is checked (timings are the bench's business)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.bench.runs import BENCH_POSTGRES, bench_lines
from tests.support.katago import katago_dir
from tests.support.services import need_postgres

__all__ = ["katago_dir"]

LAST = re.compile(r"^engine_busy_ratio=\d+\.\d+ busy_p50_ms=\d+\.\d+ quiet_p50_ms=\d+\.\d+ estimates=[1-9]\d*$")


@pytest.mark.katago
@pytest.mark.timeout(620)
def test_a_quick_run_prints_the_busy_over_quiet_ratio_last(katago_dir: Path) -> None:
    need_postgres()
    args = ("--quick", "--engines", str(katago_dir))
    lines = bench_lines("engine_load_bench.py", *args, last=LAST, timeout=600, env=BENCH_POSTGRES)
    assert any(line.startswith("estimates during the busy rounds") for line in lines)
    assert any(re.match(r'machine: .*KataGo: .*"scheduling": "SCHED_IDLE"', line) for line in lines)  # as the server runs it
