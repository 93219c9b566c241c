"""``bench/review_bench.py`` times a review's changes reaching its followers and a game's moves reaching its
spectators on one real server, and prints the ratios last. Only the shape of the output is checked."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAST = re.compile(r"^ratio review/game p50=[\d.]+ p90=[\d.]+$")


def test_a_short_run_prints_the_delays_and_the_ratios_last() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "review_bench.py"), "--followers", "3", "--actions", "6"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.strip().splitlines()
    assert LAST.match(lines[-1]), lines[-1]
    figures = dict(line.split("=") for line in lines[:-1])
    assert set(figures) == {"review_p50_ms", "review_p90_ms", "game_p50_ms", "game_p90_ms"}
    assert all(float(v) > 0 for v in figures.values())
