"""``bench/mail_bench.py`` sends the same messages with one and two mail workers and with bare smtplib, and
prints the ratios last. Only the shape of the output is checked (and, by the bench itself, that every message
arrived once)."""

from __future__ import annotations

import re

from tests.bench.runs import bench_lines

LAST = re.compile(r"^ratio worker/smtplib=[\d.]+ two_workers/smtplib=[\d.]+$")


def test_a_short_run_prints_each_rate_and_the_ratios_last() -> None:
    lines = bench_lines("mail_bench.py", "--messages", "20", last=LAST)
    rates = dict(line.split("=") for line in lines[:-1])
    assert set(rates) == {"worker_messages_per_s", "two_workers_messages_per_s", "smtplib_messages_per_s"}
    assert all(int(v) > 0 for v in rates.values())
