"""``bench/attack_bench.py --quick`` runs end to end against a real server and PostgreSQL, attackers included,
and ends with its ratio. Only the shape of the output is checked: timings are the benchmark's business."""

from __future__ import annotations

import re

import pytest

from tests.bench.runs import BENCH_POSTGRES, bench_lines
from tests.support.services import need_postgres

LAST_LINE = re.compile(r"^attack_ratio=\d+\.\d+$")


@pytest.mark.timeout(320)
def test_quick_run_prints_the_attack_ratio_last() -> None:
    need_postgres()
    lines = bench_lines("attack_bench.py", "--quick", last=LAST_LINE, timeout=280, env=BENCH_POSTGRES)
    assert any(line.startswith("move round trip, all moves, under attack") for line in lines)
    for which in ("all moves", "outside the machine's stalls"):
        interval = rf"^attack_ratio, {which}: \d+\.\d+, 90% interval \d+\.\d+-\d+\.\d+ "
        assert any(re.match(interval, line) for line in lines), lines
    assert any(line.startswith("witness: ") and " syncs on " in line for line in lines), lines
    for phase in ("quiet", "attack"):  # each phase says how often the machine stalled and which moves it touched
        assert any(re.match(rf"^{phase}: the machine stalled \d+ times .* of \d+ moves$", line) for line in lines), lines
    attacked = [line for line in lines if line.startswith("round ")]
    assert attacked and all("not_a_player" in line for line in attacked), attacked  # the attackers did attack
