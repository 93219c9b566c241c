"""``bench/fanout_count.py`` plays a game watched by spectators on a real server from each tree it is given and
prints the counts per move of each, last with their ratio. Only the shape of the output is checked (the cProfile
form: the callgrind form runs the server under valgrind, minutes for a start)."""

from __future__ import annotations

import re

import pytest

from tests.bench.runs import BENCH_POSTGRES, ROOT, bench_lines
from tests.support.services import need_postgres

LAST = re.compile(r"^per_move=\d+,\d+ ratio=\d+\.\d{4}$")


@pytest.mark.timeout(320)
def test_two_trees_print_their_calls_per_move_and_the_ratio_last() -> None:
    need_postgres()
    args = ("--tool", "cprofile", "--listeners", "5", "--moves", "2", "--warmup", "1", "--top", "3")
    lines = bench_lines("fanout_count.py", str(ROOT), str(ROOT), *args, last=LAST, timeout=300, env=BENCH_POSTGRES)
    blocks = [line for line in lines if line.startswith("  calls_per_move=")]
    assert len(blocks) == 2, lines
    assert any(line.strip() == "by calls per move:" for line in lines)
