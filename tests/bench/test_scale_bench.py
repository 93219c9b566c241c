"""``bench/scale_bench.py`` runs end to end on real server processes, PostgreSQL and Redis, and ends with its ratio.

Only the shape of the output and the absence of refused or lost moves are checked: timings are the
benchmark's business, not the test suite's.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.support.services import need_postgres, need_redis

ROOT = Path(__file__).resolve().parents[2]
PHASE = re.compile(r"^instances=(\d) moves_per_s=\d+\.\d .* moves=(\d+) errors=(\d+) timeouts=(\d+) ")
CPU = re.compile(r"^  cpu_cores servers=\[[\d.,]+\] clients=\d+\.\d\d postgres=\d+\.\d\d redis=\d+\.\d\d "
                 r"other=\d+\.\d\d machine=\d+\.\d\d/\d+$")


def test_a_short_run_measures_both_phases_and_prints_the_ratio_last() -> None:
    need_postgres()
    need_redis()
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "scale_bench.py"), "--games", "2", "--seconds", "1", "--warmup", "0",
         "--client-procs", "1", "--placement", "spread"],
        cwd=ROOT, capture_output=True, text=True, timeout=240,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.strip().splitlines()
    assert re.match(r"^scale_ratio=\d+\.\d\d$", lines[-1]), lines[-1]
    phases = [PHASE.match(line) for line in lines if line.startswith("instances=")]
    assert [int(m.group(1)) for m in phases if m] == [1, 2], lines
    for m in phases:
        assert int(m.group(2)) > 0 and m.group(3) == "0" and m.group(4) == "0", lines
    assert sum(1 for line in lines if CPU.match(line)) == 2, lines
    servers = [line.split("servers=[")[1].split("]")[0].split(",") for line in lines if CPU.match(line)]
    assert [len(s) for s in servers] == [1, 2], servers  # one CPU figure per server in each phase
    # Every move of the two-instance phase crossed the hub, and no room had to read it back from the database.
    reads = [line.split("room_catchup_reads=[")[1].split("]")[0].split(",") for line in lines if "room_catchup_reads=" in line]
    assert reads == [["0"], ["0", "0"]], lines
    assert re.match(r"^ceiling: .* ratio <= \d+\.\d\d$", lines[-2]), lines[-2]
