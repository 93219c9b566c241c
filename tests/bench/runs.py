"""Running a bench as its tests do: ``bench/<script>`` in a process of its own from the repository's root, its
output read back; a run that should succeed exits 0 and ends with the line of its ratios."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.support.services import POSTGRES_URL

ROOT = Path(__file__).resolve().parents[2]
# The PostgreSQL server the benches that create their own database use (as a libpq address).
BENCH_POSTGRES = {"TENGEN_BENCH_POSTGRES": POSTGRES_URL.replace("postgresql+asyncpg://", "postgresql://")}


def run_bench(
    script: str, *args: str, timeout: float = 240, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``bench/<script> args`` run to its end (``env``: settings added to this process's environment)."""
    return subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=None if env is None else {**os.environ, **env},
    )


def bench_lines(
    script: str, *args: str, last: re.Pattern[str], timeout: float = 240, env: dict[str, str] | None = None
) -> list[str]:
    """The output lines of a run of ``bench/<script>`` that exited 0 and whose last line matches ``last``."""
    done = run_bench(script, *args, timeout=timeout, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.strip().splitlines()
    assert last.match(lines[-1]), lines[-1]
    return lines
