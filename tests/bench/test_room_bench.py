"""``bench/room_bench.py --quick`` runs end to end against a real server and PostgreSQL and ends with its ratios.

Only the shape of the output is checked: timings are the benchmark's business, not the test suite's.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.services import POSTGRES_URL, need_postgres

ROOT = Path(__file__).resolve().parents[2]
LAST_LINE = re.compile(r"^rtt_ratio=\d+\.\d+ fanout_ratio=\d+\.\d+ idle_kb=-?\d+\.\d stall_ms=\d+$")


@pytest.mark.timeout(320)
def test_quick_run_prints_the_ratios_last() -> None:
    need_postgres()
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "room_bench.py"), "--quick"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=280,  # a loaded machine: the side load adds setup
        env={**os.environ, "TENGEN_BENCH_POSTGRES": POSTGRES_URL.replace("postgresql+asyncpg://", "postgresql://")},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.strip().splitlines()
    assert LAST_LINE.match(lines[-1]), lines[-1]
    assert any(line.startswith("tengen move round trip") for line in lines)
    assert any(line.startswith("tengen memory per idle socket") for line in lines)
