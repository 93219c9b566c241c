"""``bench/attack_bench.py --quick`` runs end to end against a real server and PostgreSQL, attackers included,
and ends with its ratio. Only the shape of the output is checked: timings are the benchmark's business."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.services import POSTGRES_URL, need_postgres

ROOT = Path(__file__).resolve().parents[2]
LAST_LINE = re.compile(r"^attack_ratio=\d+\.\d+$")


@pytest.mark.timeout(320)
def test_quick_run_prints_the_attack_ratio_last() -> None:
    need_postgres()
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "attack_bench.py"), "--quick"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=280,
        env={**os.environ, "TENGEN_BENCH_POSTGRES": POSTGRES_URL.replace("postgresql+asyncpg://", "postgresql://")},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.strip().splitlines()
    assert LAST_LINE.match(lines[-1]), lines[-1]
    assert any(line.startswith("move round trip, under attack") for line in lines)
    attacked = [line for line in lines if line.startswith("round ")]
    assert attacked and all("not_a_player" in line for line in attacked), attacked  # the attackers did attack
