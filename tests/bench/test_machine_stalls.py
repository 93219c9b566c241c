"""``bench/machine_stalls.py``: the witness process notes a stall of the machine, here one made by stopping
it (SIGSTOP) for a moment, and tells which round trips a stall overlapped."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

from tests.bench.runs import ROOT

sys.path.insert(0, str(ROOT / "bench"))

from machine_stalls import Stall, Witness, clock, overlapping


def test_only_the_trips_a_stall_overlapped_are_marked() -> None:
    stalls = [Stall("disk", 10.0, 10.2), Stall("cpu", 20.0, 20.05)]
    trips = [(9.0, 9.5), (9.9, 10.1), (10.15, 10.3), (10.2, 10.4), (19.0, 21.0), (20.06, 20.07)]
    assert overlapping(trips, stalls) == [False, True, True, False, True, False]
    assert overlapping(trips, []) == [False] * len(trips)


def test_a_stopped_witness_reports_the_time_it_was_held_as_a_stall(tmp_path: Path) -> None:
    witness = Witness(tmp_path, tmp_path / "witness.log", every=0.01, late=0.05)
    deadline = time.monotonic() + 30
    while "started" not in witness.how() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.2)
    held_from = clock()
    os.kill(witness.process.pid, signal.SIGSTOP)  # as a hypervisor holding the core would
    time.sleep(0.3)
    os.kill(witness.process.pid, signal.SIGCONT)
    held_to = clock()
    time.sleep(0.2)
    summary = witness.stop()
    assert summary["syncs"] > 10, summary
    assert summary["sync_p50_ms"] is not None
    # held in its sleep, a wake-up came late; held in its sync, the sync took long: either is the stall
    held = [s for s in witness.stalls() if s.start < held_to and s.end > held_from]
    assert held, witness.lines()
    assert held[0].end - held[0].start >= 0.2, held
    assert not list(tmp_path.glob("witness-*.block"))  # its block file is removed when it stops
