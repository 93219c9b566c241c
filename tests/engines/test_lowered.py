"""``app/engines/lowered.py``, the launcher KataGo is started through: the policy and niceness it sets are the ones
the program it runs, and every thread that program starts, run under (KataGo itself under it: ``test_app.py``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from app.engines.process import LOWERED

# A program that starts a thread and prints the policy and niceness of itself and of that thread.
REPORT = """
import json, os, threading
seen = {}
def look(): seen["thread"] = os.sched_getscheduler(threading.get_native_id())
thread = threading.Thread(target=look); thread.start(); thread.join()
print(json.dumps({"main": os.sched_getscheduler(0), "nice": os.getpriority(os.PRIO_PROCESS, 0), **seen}))
"""


def launched(niceness: int, mode: str) -> dict[str, int]:
    done = subprocess.run(
        [sys.executable, "-I", "-S", str(LOWERED), str(niceness), mode, sys.executable, "-c", REPORT],
        capture_output=True, text=True, timeout=30, check=True,
    )  # fmt: skip
    assert done.stderr == ""
    return dict(json.loads(done.stdout))


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="SCHED_IDLE is Linux's")
def test_idle_puts_the_program_and_its_threads_under_sched_idle() -> None:
    assert launched(19, "idle") == {"main": os.SCHED_IDLE, "thread": os.SCHED_IDLE, "nice": 19}


def test_nice_only_lowers_the_niceness() -> None:
    assert launched(19, "nice") == {"main": os.SCHED_OTHER, "thread": os.SCHED_OTHER, "nice": 19}
    assert launched(0, "nice")["nice"] == os.getpriority(os.PRIO_PROCESS, 0)
