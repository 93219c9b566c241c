"""``bench/dead_stone_oracle.py`` judges stored positions with KataGo, the playouts and GNU Go's stored judgement,
and plays them out with GNU Go (the play-out oracle), and prints the agreements last. Only the shape of the output
is checked (two positions on the tests' KataGo, GNU Go at level 1)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.bench.runs import bench_lines
from tests.support.katago import katago_dir
from tests.support.services import need_gnugo

__all__ = ["katago_dir"]

LAST = re.compile(
    r"^positions=2 katago_gnugo=[0-2] playouts_gnugo=[0-2] katago_playouts=[0-2] katago_uncertain=[0-2]"
    r" katago_truth=[0-2] playouts_truth=[0-2] gnugo_truth=[0-2] deeper=[0-2] settled=[0-2] over_budget=[0-2]"
    r" proposal_p50_s=\d+\.\d\d proposal_p99_s=\d+\.\d\d$"
)


@pytest.mark.katago
@pytest.mark.timeout(620)
def test_two_positions_print_the_three_judges_against_the_play_out_last(katago_dir: Path) -> None:
    need_gnugo()
    args = ("--size", "9", "--visits", "1", "--limit", "2", "--playout-level", "1", "--engines", str(katago_dir))
    lines = bench_lines("dead_stone_oracle.py", *args, last=LAST, timeout=600)
    assert any(line.startswith("9x9: 2 positions") for line in lines)
    assert any(line.startswith("identical with the play-out") for line in lines)
