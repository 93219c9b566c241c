"""``bench/ratings_bench.py`` rates, rebuilds and computes the same games and prints the ratios last. Only the
shape of the output is checked."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAST = re.compile(r"^ratio live/arithmetic=[\d.]+ rebuild/arithmetic=[\d.]+$")


def test_a_short_run_prints_each_rate_and_the_ratios_last() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "ratings_bench.py"), "--players", "6", "--games", "20"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.strip().splitlines()
    assert LAST.match(lines[-1]), lines[-1]
    rates = dict(line.split("=") for line in lines[:-1])
    assert set(rates) == {"live_updates_per_s", "rebuild_games_per_s", "arithmetic_games_per_s"}
    assert all(int(v) > 0 for v in rates.values())
