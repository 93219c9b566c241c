"""``bench/mail_bench.py`` sends the same messages with one and two mail workers and with bare smtplib, and
prints the ratios last. Only the shape of the output is checked (and, by the bench itself, that every message
arrived once)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAST = re.compile(r"^ratio worker/smtplib=[\d.]+ two_workers/smtplib=[\d.]+$")


def test_a_short_run_prints_each_rate_and_the_ratios_last() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "mail_bench.py"), "--messages", "20"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.strip().splitlines()
    assert LAST.match(lines[-1]), lines[-1]
    rates = dict(line.split("=") for line in lines[:-1])
    assert set(rates) == {"worker_messages_per_s", "two_workers_messages_per_s", "smtplib_messages_per_s"}
    assert all(int(v) > 0 for v in rates.values())
