"""``bench/legality_bench.py`` replays random games with and without listing the illegal points and prints the
ratio last. Only the shape of the output is checked."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_short_run_prints_each_cost_and_the_ratio_last() -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "legality_bench.py"),
            "--games",
            "2",
            "--moves",
            "40",
            "--early",
            "8",
            "--rounds",
            "1",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.strip().splitlines()
    assert re.match(r"^legality_ratio=[\d.]+$", lines[-1]), lines[-1]
    assert [line.split(" ")[0] for line in lines[1:5]] == ["japanese", "chinese", "authority,", "authority,"]
