"""CPU quotas for benchmark processes: one control group per process, through the kernel's CPU controller.

cgroup v1 (``<mount>/cpu/<group>/cpu.cfs_quota_us`` and ``cpu.cfs_period_us``) or v2 (``cpu.max`` under a
cgroup2 mount whose root offers the ``cpu`` controller), whichever this machine has writable: ``find()`` says
which, or why neither (not root, a read-only ``/sys/fs/cgroup``, the controller bound elsewhere).

A group is created without a limit, processes are moved into it, and ``limit()`` sets or lifts the quota at
any time: a benchmark can set up unthrottled and then measure throttled. ``weigh()`` sets its weight against
everything else on the machine. ``throttling()`` reads the controller's
own account (periods, throttled periods, throttled time); ``remove()`` deletes the group once its process has
ended.
"""

from __future__ import annotations

import os
import uuid
from dataclasses import dataclass
from pathlib import Path

# Where to look: the usual place, where a cgroup2 mount may also sit elsewhere (``/proc/mounts``), or only
# the folder this variable names.
CGROUP_ROOT_ENV = "TENGEN_BENCH_CGROUP_ROOT"


class NoCpuController(RuntimeError):
    """This machine gives this process no writable CPU controller."""


@dataclass(frozen=True)
class Throttling:
    periods: int
    throttled: int
    throttled_s: float

    def since(self, before: Throttling) -> Throttling:
        return Throttling(self.periods - before.periods, self.throttled - before.throttled, self.throttled_s - before.throttled_s)

    @property
    def share(self) -> float:
        """The share of enforcement periods in which the group ran out of quota."""
        return self.throttled / self.periods if self.periods else 0.0


class CpuGroup:
    """One control group (v1 or v2) holding one process."""

    def __init__(self, path: Path, version: int, period_us: int) -> None:
        self.path = path
        self.version = version
        self.period_us = period_us
        path.mkdir()
        self.limit(None)

    def add(self, pid: int) -> None:
        (self.path / "cgroup.procs").write_text(str(pid))

    def limit(self, cores: float | None) -> None:
        """At most ``cores`` of CPU time per period (``None``: no limit)."""
        quota = -1 if cores is None else max(1000, round(cores * self.period_us))
        if self.version == 1:
            (self.path / "cpu.cfs_period_us").write_text(str(self.period_us))
            (self.path / "cpu.cfs_quota_us").write_text(str(quota))
        else:
            (self.path / "cpu.max").write_text(f"{'max' if quota < 0 else quota} {self.period_us}")

    def weigh(self, factor: float) -> None:
        """``factor`` times the default weight (v1 ``cpu.shares`` 1024, v2 ``cpu.weight`` 100) against the
        other groups and the processes outside any: on a busy machine a group with a larger weight is run
        sooner when it is runnable, so that it can use its quota; the quota stays the limit."""
        if self.version == 1:
            (self.path / "cpu.shares").write_text(str(max(2, round(1024 * factor))))
        else:
            (self.path / "cpu.weight").write_text(str(min(10000, max(1, round(100 * factor)))))

    def throttling(self) -> Throttling:
        stat = dict(line.split() for line in (self.path / "cpu.stat").read_text().splitlines() if line.strip())
        if self.version == 1:
            return Throttling(int(stat["nr_periods"]), int(stat["nr_throttled"]), int(stat["throttled_time"]) / 1e9)
        return Throttling(int(stat["nr_periods"]), int(stat["nr_throttled"]), int(stat["throttled_usec"]) / 1e6)

    def remove(self) -> None:
        """Delete the group (its processes must have ended; a leftover one is moved back to the root)."""
        root = self.path.parent
        try:
            for pid in (self.path / "cgroup.procs").read_text().split():
                try:
                    (root / "cgroup.procs").write_text(pid)
                except OSError:
                    pass
            self.path.rmdir()
        except OSError:
            pass


@dataclass(frozen=True)
class Controller:
    """Where groups are made: the hierarchy's root folder and its cgroup version."""

    root: Path
    version: int

    def group(self, name: str, period_us: int) -> CpuGroup:
        return CpuGroup(self.root / name, self.version, period_us)

    def describe(self) -> str:
        return f"cgroup v{self.version} CPU controller at {self.root}"


def _v2_root(only: Path | None) -> Path | None:
    """The mount point of a cgroup2 hierarchy that offers the ``cpu`` controller, if any."""
    if only is not None:
        roots = [only]
    else:
        try:
            mounts = Path("/proc/mounts").read_text().splitlines()
        except OSError:
            return None
        roots = [Path(f[1]) for f in (line.split() for line in mounts) if len(f) > 2 and f[2] == "cgroup2"]
    for root in roots:
        try:
            if "cpu" in (root / "cgroup.controllers").read_text().split():
                return root
        except OSError:
            continue
    return None


def _probe(controller: Controller) -> None:
    """Make a group, set a quota on it and remove it: raises OSError when any step is refused."""
    if controller.version == 2:
        control = controller.root / "cgroup.subtree_control"
        if "cpu" not in control.read_text().split():
            control.write_text("+cpu")
    group = controller.group(f"tengen-probe-{uuid.uuid4().hex[:12]}", 10_000)
    try:
        group.limit(0.5)
        group.throttling()
    finally:
        group.remove()


def find() -> Controller:
    """The writable CPU controller of this machine; ``NoCpuController`` says why there is none."""
    only = Path(os.environ[CGROUP_ROOT_ENV]) if os.environ.get(CGROUP_ROOT_ENV) else None
    candidates = []
    v1 = (only or Path("/sys/fs/cgroup")) / "cpu"
    if (v1 / "cpu.cfs_quota_us").exists():
        candidates.append(Controller(v1, 1))
    v2 = _v2_root(only)
    if v2 is not None:
        candidates.append(Controller(v2, 2))
    if not candidates:
        raise NoCpuController(f"no CPU controller: neither {v1}/cpu.cfs_quota_us (cgroup v1) nor a cgroup2 mount offering 'cpu'")
    reasons = []
    for controller in candidates:
        try:
            _probe(controller)
            return controller
        except OSError as error:
            reasons.append(f"{controller.describe()} is not writable ({error.strerror or error})")
    raise NoCpuController("; ".join(reasons) + " (quotas need root and a writable /sys/fs/cgroup)")


# The largest weight cgroup v1 accepts (``cpu.shares``); v2's ``cpu.weight`` stops at 10000 (100x).
FAVOURED_SHARES = 262144
FAVOURED_ENV = "TENGEN_BENCH_CPU_GROUP"  # "0": run where started, in no group of the bench's own


class Favoured:
    """The bench, its servers and its clients in one group weighing ``FAVOURED_SHARES`` against the rest.

    On a machine shared with other people's jobs, a process of the bench that is ready to run then gets a
    core before theirs (the kernel's fair scheduler divides the CPU between groups by weight), so what the
    bench measures is its own work, not the queue for a core. Nothing is limited: no quota is set. The bench
    moves itself in before starting anything (children start in their parent's group) and may add other
    processes that work for it (``add``: the PostgreSQL backends serving its database). ``close()`` moves
    everything left back to the root and deletes the group. ``enter()`` returns None, and says why, where the
    machine has no writable CPU controller or ``TENGEN_BENCH_CPU_GROUP=0``: the bench then runs as before.
    """

    def __init__(self, group: CpuGroup) -> None:
        self.group = group

    @classmethod
    def enter(cls, label: str) -> Favoured | None:
        if os.environ.get(FAVOURED_ENV, "1") == "0":
            print(f"cpu group: none ({FAVOURED_ENV}=0)", flush=True)
            return None
        try:
            controller = find()
        except NoCpuController as error:
            print(f"cpu group: none ({error})", flush=True)
            return None
        group = controller.group(f"tengen-{label}-{uuid.uuid4().hex[:12]}", 100_000)
        group.weigh(FAVOURED_SHARES / 1024)
        group.add(os.getpid())
        print(
            f"cpu group: {group.path} (weight {FAVOURED_SHARES / 1024:g}x the default, no quota; {controller.describe()})",
            flush=True,
        )
        return cls(group)

    def add(self, pids: list[int]) -> None:
        """Move more processes in (ones that have ended meanwhile are skipped)."""
        for pid in pids:
            try:
                self.group.add(pid)
            except OSError:
                pass

    def close(self) -> None:
        try:
            (self.group.path.parent / "cgroup.procs").write_text(str(os.getpid()))
        except OSError:
            pass
        self.group.remove()
