"""``bench/lobby_bench.py`` times the lobby snapshot of a player with correspondence games against one without,
and prints the ratio last. Only the shape of the output is checked (the bench itself asserts that each
snapshot listed every game)."""

from __future__ import annotations

import re

from tests.bench.runs import bench_lines

LAST = re.compile(r"^snapshot_p50_ms=[\d.]+ ratio_p50=[\d.]+$")


def test_a_short_run_prints_both_snapshots_and_the_ratio_last() -> None:
    lines = bench_lines("lobby_bench.py", "--games", "3", "--trials", "6", last=LAST)
    assert lines[0].startswith("with games: p50=") and lines[1].startswith("without: p50=")
