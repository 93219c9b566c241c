"""The machine's own stalls, seen by a witness process that asks almost nothing of it.

A bench that runs on a shared virtual machine sees, now and then, every process stop together for 100 ms
or more: the hypervisor holds the virtual cores, or the disk holds every sync. A p99 of a few thousand
round trips rests on their slowest twenty, so one such stall decides it in whichever phase it falls. The
witness tells those stalls apart from the load a bench puts on the machine:

- it runs at real-time priority (``SCHED_FIFO``, as root; it leaves the bench's CPU group for the root one,
  where real-time time is granted), so no ordinary process, however busy, delays it by more than a
  scheduler tick: a wake-up later than ``--late`` means the machine ran nothing of its own;
- every ``--every`` it syncs one 512-byte block of a file on the disk it is given (``os.fdatasync``); on an
  idle disk that takes a fraction of a millisecond; a sync over ``--late`` means the disk held its writes.

Each stall is written as a line ``cpu|disk <start> <end>`` (``time.perf_counter``, the system-wide
``CLOCK_MONOTONIC`` on Linux, the clock the bench's clients read) to standard output as it ends; the last
line is ``summary {json}`` when the witness is stopped (SIGTERM). ``Witness`` starts one and reads its lines.

    .venv/bin/python bench/machine_stalls.py DIR [--every 0.01] [--late 0.02]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

clock = time.perf_counter
CPU_ROOTS = (Path("/sys/fs/cgroup/cpu"), Path("/sys/fs/cgroup/cpu,cpuacct"))


def real_time() -> str:
    """Take real-time priority if this process may: how it runs, in words."""
    for root in CPU_ROOTS:  # cgroup v1 grants real-time time to the root group only, unless told otherwise
        procs = root / "cgroup.procs"
        if procs.exists():
            try:
                procs.write_text(str(os.getpid()))
            except OSError:
                pass
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(50))
        return "real-time (SCHED_FIFO 50)"
    except (OSError, AttributeError) as error:
        return f"ordinary priority ({error})"


@dataclass
class Stall:
    kind: str  # "cpu": a real-time wake-up came late; "disk": a sync took long
    start: float
    end: float


def watch(directory: Path, every: float, late: float) -> int:
    how = real_time()
    stop = False

    def stopping(*_: object) -> None:
        nonlocal stop
        stop = True

    signal.signal(signal.SIGTERM, stopping)
    path = directory / f"witness-{os.getpid()}.block"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    block = b"\0" * 512
    syncs: list[float] = []
    stalls = {"cpu": 0.0, "disk": 0.0}
    print(f"started {how}", flush=True)
    due = clock()
    try:
        while not stop:
            due += every
            wait = due - clock()
            if wait > 0:
                time.sleep(wait)
            woke = clock()
            if woke - due > late:
                stalls["cpu"] += woke - due
                print(f"cpu {due:.6f} {woke:.6f}", flush=True)
            os.pwrite(fd, block, 0)
            os.fdatasync(fd)
            synced = clock()
            syncs.append(synced - woke)
            if synced - woke > late:
                stalls["disk"] += synced - woke
                print(f"disk {woke:.6f} {synced:.6f}", flush=True)
            due = max(due, synced - every)  # after a stall, go on from now rather than catching up
    finally:
        os.close(fd)
        path.unlink(missing_ok=True)
    syncs.sort()
    summary = {
        "how": how,
        "syncs": len(syncs),
        "sync_p50_ms": 1000 * syncs[len(syncs) // 2] if syncs else None,
        "sync_p99_ms": 1000 * syncs[int(len(syncs) * 0.99)] if syncs else None,
        "stalled_s": stalls,
    }
    print(f"summary {json.dumps(summary)}", flush=True)
    return 0


class Witness:
    """A witness process beside a bench: ``stalls()`` reads what it has seen so far, ``stop()`` ends it."""

    def __init__(self, directory: Path, log: Path, every: float = 0.01, late: float = 0.02) -> None:
        self.log = log
        command = [sys.executable, __file__, str(directory), "--every", str(every), "--late", str(late)]
        self.process = subprocess.Popen(command, stdout=log.open("wb"), stderr=subprocess.STDOUT)
        self.late = late

    def lines(self) -> list[str]:
        return self.log.read_text().splitlines() if self.log.exists() else []

    def how(self) -> str:
        return next((line.removeprefix("started ") for line in self.lines() if line.startswith("started ")), "not started")

    def stalls(self) -> list[Stall]:
        out = []
        for line in self.lines():
            kind, *times = line.split()
            if kind in ("cpu", "disk") and len(times) == 2:
                out.append(Stall(kind, float(times[0]), float(times[1])))
        return out

    def stop(self) -> dict:
        """End the witness; its summary (syncs, their p50 and p99, seconds stalled)."""
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        found = [line for line in self.lines() if line.startswith("summary ")]
        return json.loads(found[-1].removeprefix("summary ")) if found else {}


def overlapping(trips: list[tuple[float, float]], stalls: list[Stall]) -> list[bool]:
    """For each ``(sent, acked)`` trip, whether a stall overlapped it."""
    spans = sorted((s.start, s.end) for s in stalls)
    return [any(start < acked and end > sent for start, end in spans) for sent, acked in trips]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("directory", type=Path, help="a folder on the disk to watch (the database's)")
    parser.add_argument("--every", type=float, default=0.01, help="seconds between wake-ups (default 0.01)")
    parser.add_argument("--late", type=float, default=0.02, help="a wake-up or sync this late is a stall (default 0.02)")
    args = parser.parse_args(argv)
    return watch(args.directory, args.every, args.late)


if __name__ == "__main__":
    sys.exit(main())
