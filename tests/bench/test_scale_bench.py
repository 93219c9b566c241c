"""``bench/scale_bench.py`` runs end to end on real server processes held to CPU quotas, PostgreSQL and Redis,
and ends with its ratios; without a writable CPU controller it says so and fails.

Only the shape of the output and the absence of refused or lost moves are checked: timings are the
benchmark's business, not the test suite's.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from tests.bench.runs import bench_lines, run_bench
from tests.support.services import need, need_postgres, need_redis

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import cpu_groups

ROOT = Path(__file__).resolve().parents[2]

PHASE = re.compile(
    r"^phase=(\w+) instances=(\d) placement=(game|spread) via=direct quota=(none|\d\.\d\d) games=(\d+) "
    r"moves_per_s=\d+\.\d .* moves=(\d+) errors=(\d+) timeouts=(\d+) "
)
THROTTLED = re.compile(r"^  throttled=\[([\d.,]+)\] .* quota_used=\[([\d.,]+|-)\] ")
LAST = re.compile(r"^scale2=\d+\.\d\d scale4=\d+\.\d\d spread4=\d+\.\d\d eff=\d+\.\d\d$")


def _writable_controller() -> bool:
    try:
        cpu_groups.find()
        return True
    except cpu_groups.NoCpuController:
        return False


def test_without_a_cpu_controller_it_says_so_and_exits_non_zero(tmp_path: Path) -> None:
    done = run_bench("scale_bench.py", timeout=60, env={cpu_groups.CGROUP_ROOT_ENV: str(tmp_path)})
    assert done.returncode == 2, done.stdout + done.stderr
    assert "needs a writable CPU controller" in done.stderr and "no CPU controller" in done.stderr
    assert "scale2=" not in done.stdout


@pytest.mark.timeout(300)
def test_a_short_run_measures_every_phase_and_prints_the_ratios_last() -> None:
    need_postgres()
    need_redis()
    need(_writable_controller(), "a writable cgroup CPU controller (root, cgroup v1 cpu or v2 cpu.max)")
    args = ("--games-per-instance", "2", "--seconds", "2", "--warmup", "0", "--client-procs", "1", "--rounds", "1")
    lines = bench_lines("scale_bench.py", *args, last=LAST, timeout=280)
    phases = [m for m in map(PHASE.match, lines) if m]
    assert [(m.group(1), int(m.group(2)), m.group(3)) for m in phases] == [
        ("base", 1, "game"),
        ("q1", 1, "game"),
        ("q2", 2, "game"),
        ("q4", 4, "game"),
        ("s2", 2, "spread"),
        ("s4", 4, "spread"),
    ], lines
    for m in phases:
        assert (m.group(4) == "none") == (m.group(1) == "base"), m.group(0)
        assert int(m.group(5)) == 2 * int(m.group(2))  # two games per instance
        assert int(m.group(6)) > 0 and m.group(7) == "0" and m.group(8) == "0", m.group(0)
    throttled = [m for m in map(THROTTLED.match, lines) if m]
    # One figure per instance in every phase, read from each instance's own control group.
    assert [len(m.group(1).split(",")) for m in throttled] == [1, 1, 2, 4, 2, 4], lines
    assert throttled[0].group(1) == "0.00" and throttled[0].group(2) == "-", lines
    # Every group this run made is gone (other runs may have theirs at the same time).
    pattern = re.search(r" groups=(tengen-bench-\w+-\*) ", lines[0])
    assert pattern is not None, lines[0]
    assert not list(cpu_groups.find().root.glob(pattern.group(1)))
