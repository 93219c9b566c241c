"""``bench/bot_bench.py`` with two small games runs end to end (a real server, a real bridge, GNU Go).

Only the shape of the output is checked: timings are the benchmark's business, not the test suite's.
"""

from __future__ import annotations

import re

from tests.bench.runs import run_bench
from tests.support.services import need_gnugo

PHASE = re.compile(
    r"^(base|load): games=\d+ endings=\{.*\} bot_lost_on_time=\d+ bot_moves=\d+ "
    r"response_s p50=[\d.]+ p95=[\d.]+ max=[\d.]+ wall_s=\d+$"
)


def test_a_small_run_reports_both_phases_and_the_ratios() -> None:
    need_gnugo()
    done = run_bench("bot_bench.py", "--games", "2", "--moves", "3", "--think", "0", timeout=600)
    lines = done.stdout.strip().splitlines()
    assert [line.split(":")[0] for line in lines if PHASE.match(line)] == ["base", "load"], done.stdout + done.stderr
    assert re.match(r"^ratios load/base: p50=[\d.]+ p95=[\d.]+ max=[\d.]+$", lines[-2]), lines
    assert lines[-1] == "bridge exit code after SIGTERM: 0"
