"""CPU accounting from ``/proc``: who used this machine's cores during a measured window.

Per process (all its threads) from ``/proc/<pid>/stat``, the whole machine from ``/proc/stat``, and how long
a process's main thread was ready to run but waited for a core from ``/proc/<pid>/schedstat``.
"""

from __future__ import annotations

import asyncio
import os
import time

TICKS = os.sysconf("SC_CLK_TCK")


def processes() -> dict[int, tuple[str, str, float, int]]:
    """pid -> (command name, command line, CPU seconds so far, parent pid) for every process on the machine."""
    out = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmdline = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        close = stat.rindex(")")
        fields = stat[close + 2 :].split()
        out[int(entry)] = (
            stat[stat.index("(") + 1 : close],
            cmdline,
            (int(fields[11]) + int(fields[12])) / TICKS,
            int(fields[1]),
        )
    return out


async def own_cpu(start: float, end: float) -> float:
    """This process's CPU seconds over the window from ``start`` to ``end`` (``time.time()``), awaited while the
    process's own work goes on: a client process's share of a measured window."""
    await asyncio.sleep(max(0.0, start - time.time()))
    begun = time.process_time()
    await asyncio.sleep(max(0.0, end - time.time()))
    return time.process_time() - begun


def cpu_seconds(pid: int) -> float:
    """CPU seconds one process (all its threads) has used so far."""
    with open(f"/proc/{pid}/stat") as f:
        stat = f.read()
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def machine_busy() -> float:
    """CPU seconds all cores spent on anything but idle and iowait, since boot."""
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    return (sum(values) - values[3] - values[4]) / TICKS


def runqueue_waits(pids: list[int]) -> list[float]:
    """Seconds each process's main thread has spent runnable but waiting for a core (``/proc/<pid>/schedstat``)."""
    out = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/schedstat") as f:
                out.append(int(f.read().split()[1]) / 1e9)
        except (OSError, IndexError, ValueError):
            out.append(float("nan"))
    return out


def snapshot() -> tuple[dict[int, tuple[str, str, float, int]], float]:
    """Every process's CPU and the machine's busy time, now: the ``before`` or ``after`` of ``cpu_split``."""
    return processes(), machine_busy()


def cpu_split(
    before: tuple, after: tuple, servers: list[int], database: str, clients_cpu: float, seconds: float, nginx: int | None = None
) -> dict[str, object]:
    """Cores used over the window: each server, the clients, PostgreSQL for this database, Redis, nginx (the
    master ``nginx`` and its workers, when there is one), and the rest of the machine."""
    (procs0, busy0), (procs1, busy1) = before, after

    def used(pid: int) -> float:
        if pid not in procs1:
            return 0.0  # ended inside the window: its last share is lost (a pooled connection rarely ends)
        return procs1[pid][2] - (procs0[pid][2] if pid in procs0 else 0.0)

    postgres = sum(used(pid) for pid, (name, cmd, _, _) in procs1.items() if name == "postgres" and database in cmd)
    redis = sum(used(pid) for pid, (name, _, _, _) in procs1.items() if name == "redis-server")
    proxy = 0.0 if nginx is None else sum(used(pid) for pid, row in procs1.items() if nginx in (pid, row[3]))
    per_server = [used(pid) / seconds for pid in servers]
    machine = (busy1 - busy0) / seconds
    ours = sum(per_server) + (clients_cpu + postgres + redis + proxy) / seconds
    return {
        "servers": per_server,
        "clients": clients_cpu / seconds,
        "postgres": postgres / seconds,
        "redis": redis / seconds,
        "nginx": proxy / seconds,
        "other": max(0.0, machine - ours),
        "machine": machine,
    }


def threads(pid: int) -> dict[int, tuple[str, float, float]]:
    """tid -> (thread name, CPU seconds, seconds runnable but waiting for a core) for each thread of ``pid``."""
    out: dict[int, tuple[str, float, float]] = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/comm") as f:
                name = f.read().strip()
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                ran, waited = (int(v) / 1e9 for v in f.read().split()[:2])
        except (OSError, ValueError):
            continue
        out[int(tid)] = (name, ran, waited)
    return out
