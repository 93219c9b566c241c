"""Horizontal scaling with CPU quotas: 1, 2 and 4 Tengen instances, each held to the same share of a core.

On a small machine the clients, PostgreSQL and Redis share the cores with the servers, so comparing one
unlimited instance with two measures the machine. Here every server process is put in a control group of its
own (``bench/cpu_groups.py``: cgroup v1 ``cpu.cfs_quota_us`` or v2 ``cpu.max``) with the same quota
(``--quota`` of a core per ``--period-ms``; a short period, so throttling comes in small slices instead of
bursts), and the rest of the machine is left to everything else. The groups of the instances and of the
client processes weigh ``--weight`` times the default against the other processes, so that on a busy
machine a runnable instance gets its quota within each period (``quota_used`` shows whether it did).
The load grows with the instances:
``--games-per-instance`` concurrent games per instance (players and moves as in ``bench/scale_clients.py``),
enough that a quota'd instance is always busy (it is throttled in most periods) yet healthy. The default
quota is 0.15 core: at 0.1 a throttled instance spends about a quarter more CPU per move than an unthrottled
one even on a quiet machine (``eff`` 1.28 on 2026-12-01), which measures the throttling rather than Tengen.

Four instances are started once, on one PostgreSQL database (created for the run, dropped afterwards) and
one Redis prefix (deleted afterwards), each in a CPU group of its own. The phases:

    base    instance 1, no quota            the reference cost of a move
    q1      instance 1 at the quota
    q2, q4  instances 1-2 and 1-4 at the quota, each game on one instance (as nginx's hash on the game id)
    s2, s4  instances 1-2 and 1-4 at the quota, the two players of a game on different instances

run one after another, in ``--rounds`` rounds, so that every phase sees the busy machine as the others do
(the figures of a phase are those of its rounds together; ``rounds=[...]`` lists each round's moves per
second). Each window plays fresh games: every game is set up (users, challenge, sockets, a first move)
before the quota is applied, so setup cannot time out at low quotas; then ``--warmup`` seconds, then
``--seconds`` measured. For each phase it prints moves per second, round trips (send -> ack), the CPU split
over the window (``bench/proc_cpu.py``), the share of periods in which each instance ran out of quota
(``throttled``) and the share of the quota it used, the time its main thread was runnable but not running
(waiting for a core, or throttled), CPU per move, and room catch-up reads. Then:

    eff      server CPU per move of the quota'd instance (q1) / that of the unthrottled one (base)
    scale2   q2 / q1 moves per second;  scale4   q4 / q1;  spread4   s4 / q1

and last ``scale2=<x> scale4=<y> spread4=<z> eff=<e>``. Without a writable CPU controller it says so and
exits with status 2. ``--via-nginx`` puts Debian's nginx with ``deploy/nginx.conf`` in front of the
instances for the base and game-placement phases (the spread phases, which a proxy hashing the game id never
produces, still connect directly).

    nice -n 10 .venv/bin/python bench/scale_bench.py [--quota 0.15] [--period-ms 10]
        [--games-per-instance 16] [--seconds 5] [--rounds 3] [--warmup 2] [--client-procs 2] [--weight 4]
        [--via-nginx]
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cpu_groups
import httpx
from bench_server import ONE_ADDRESS, new_database_name, new_redis_prefix
import proc_cpu
import scale_clients

from tests.support.instances import Instances, delete_redis_prefix
from tests.support.services import POSTGRES_URL, REDIS_URL, pg_admin

if TYPE_CHECKING:
    from tests.support.nginx import Nginx

# Seconds an instance may take to start: under ``nice`` on a machine with a load of 10 it can take 30 and more.
START_TIMEOUT = 180.0


@dataclass(frozen=True)
class Phase:
    name: str
    instances: int
    placement: str
    quota: float | None


def phases(quota: float) -> list[Phase]:
    return [
        Phase("base", 1, "game", None),
        Phase("q1", 1, "game", quota),
        Phase("q2", 2, "game", quota),
        Phase("q4", 4, "game", quota),
        Phase("s2", 2, "spread", quota),
        Phase("s4", 4, "spread", quota),
    ]


def _metric(url: str, name: str) -> float:
    """One counter from an instance's ``/metrics`` (NaN when it cannot be read)."""
    try:
        text = httpx.get(f"{url}/metrics", timeout=10).text
    except httpx.HTTPError:
        return float("nan")
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    return float("nan")


class Rig:
    """Four instances started once for the whole run, each in a CPU group of its own (no quota until a phase
    sets one); the clients' group; with ``--via-nginx``, one nginx in front of the first 1, 2 and 4."""

    def __init__(
        self, group: Instances, controller: cpu_groups.Controller, opts: argparse.Namespace, workdir: Path, tag: str
    ) -> None:
        self.instances = group.start(4, timeout=START_TIMEOUT)
        self.limits: list[cpu_groups.CpuGroup] = []
        self.nginx: dict[int, Nginx] = {}
        # The clients, unlimited, with the same weight as the instances: on a busy machine they keep them fed.
        self.players = controller.group(f"tengen-bench-{tag}-clients", opts.period_ms * 1000)
        self.players.weigh(opts.weight)
        for n, instance in enumerate(self.instances):
            limit = controller.group(f"tengen-bench-{tag}-{n}", opts.period_ms * 1000)
            limit.weigh(opts.weight)
            limit.add(instance.process.pid)
            self.limits.append(limit)
        if opts.via_nginx:
            from tests.support.nginx import Nginx

            for count in (1, 2, 4):
                proxy = Nginx([i.url.removeprefix("http://") for i in self.instances[:count]], workdir / f"nginx-{count}")
                proxy.wait_ready()
                self.nginx[count] = proxy
                for pid, row in proc_cpu.processes().items():  # the master and its workers, with the clients
                    if proxy.process.pid in (pid, row[3]):
                        self.players.add(pid)

    def close(self) -> None:
        for proxy in self.nginx.values():
            proxy.stop()
        for instance in self.instances:
            instance.stop()
        for limit in [*self.limits, self.players]:
            limit.remove()


def run_window(phase: Phase, rig: Rig, opts: argparse.Namespace, database: str) -> dict:
    """One measured window of ``phase``: fresh games on its instances, set up unthrottled, then the quota."""
    started = rig.instances[: phase.instances]
    limits = rig.limits[: phase.instances]
    servers = [i.process.pid for i in started]
    proxy = rig.nginx.get(phase.instances) if phase.placement == "game" else None
    urls = [proxy.url] if proxy is not None else [i.url for i in started]
    reads_before = [_metric(i.url, "tengen_room_catchup_reads_total") for i in started]
    games = opts.games_per_instance * phase.instances
    shares = [list(range(p, games, opts.client_procs)) for p in range(opts.client_procs)]
    ctx = multiprocessing.get_context("spawn")
    ready, results = ctx.Queue(), ctx.Queue()
    gos = [ctx.Queue() for _ in shares]
    clients = [
        ctx.Process(target=scale_clients.client_process, args=((urls, share, phase.placement), ready, go, results))
        for share, go in zip(shares, gos)
    ]
    try:
        for process in clients:
            process.start()
            assert process.pid is not None  # started
            rig.players.add(process.pid)
        # Set up unthrottled (however long a cold server on a busy machine takes: ``setup_s``), then the quota.
        setup_s = max(ready.get(timeout=600) for _ in clients)
        for limit in limits:
            limit.limit(phase.quota)
        measure_from = time.time() + opts.warmup
        for go in gos:
            go.put((measure_from, measure_from + opts.seconds))
        time.sleep(max(0.0, measure_from - time.time()))
        before = proc_cpu.snapshot()
        waits_before = proc_cpu.runqueue_waits(servers)
        throttled_before = [limit.throttling() for limit in limits]
        time.sleep(max(0.0, measure_from + opts.seconds - time.time()))
        after = proc_cpu.snapshot()
        waits = [(b - a) / opts.seconds for a, b in zip(waits_before, proc_cpu.runqueue_waits(servers))]
        throttled = [limit.throttling().since(t) for limit, t in zip(limits, throttled_before)]
    finally:
        for limit in limits:
            limit.limit(None)  # the games wind down at full speed
    outcomes = [results.get(timeout=300) for _ in clients]
    for process in clients:
        process.join(30)
    reads = [_metric(i.url, "tengen_room_catchup_reads_total") - r for i, r in zip(started, reads_before)]
    acked = sorted([measure_from] + [a for result in outcomes for a in result["acked_at"]] + [measure_from + opts.seconds])
    cpu = proc_cpu.cpu_split(
        before,
        after,
        servers,
        database,
        sum(r["cpu"] for r in outcomes),
        opts.seconds,
        proxy.process.pid if proxy is not None else None,
    )
    return {
        "rtts": [r for result in outcomes for r in result["rtts"]],
        "games": games,
        # the longest stretch of the window in which no move at all was acknowledged
        "longest_gap_ms": max(b - a for a, b in zip(acked, acked[1:])) * 1000,
        "errors": sum(r["errors"] for r in outcomes),
        "timeouts": sum(r["timeouts"] for r in outcomes),
        "paced": sum(r["paced"] for r in outcomes),
        "setup_s": setup_s,
        "codes": {c: sum(r["codes"].get(c, 0) for r in outcomes) for r in outcomes for c in r["codes"]},
        "server_waits": waits,
        "catchup_reads": reads,
        "throttled": throttled,
        "cpu": cpu,
        "via": "nginx" if proxy is not None else "direct",
    }


def combine(windows: list[dict], seconds: float) -> dict:
    """A phase's windows (one per round) as one: counts summed, rates and shares averaged, all round trips."""
    n = len(windows)
    rtts = sorted(r for w in windows for r in w["rtts"])

    def p(q: float) -> float:
        return rtts[min(len(rtts) - 1, int(q * len(rtts)))] * 1000 if rtts else float("nan")

    def mean(values: list[float]) -> float:
        return sum(values) / len(values)

    first = windows[0]
    cpu: dict[str, Any] = {k: mean([w["cpu"][k] for w in windows]) for k in first["cpu"] if k != "servers"}
    cpu["servers"] = [mean([w["cpu"]["servers"][i] for w in windows]) for i in range(len(first["cpu"]["servers"]))]
    throttled = [
        cpu_groups.Throttling(
            sum(w["throttled"][i].periods for w in windows),
            sum(w["throttled"][i].throttled for w in windows),
            sum(w["throttled"][i].throttled_s for w in windows),
        )
        for i in range(len(first["throttled"]))
    ]
    codes: dict[str, int] = {}
    for w in windows:
        for code, count in w["codes"].items():
            codes[code] = codes.get(code, 0) + count
    return {
        "moves_per_s": len(rtts) / (seconds * n),
        "p50_ms": p(0.50),
        "p99_ms": p(0.99),
        "max_ms": p(1.0),
        "moves": len(rtts),
        "games": first["games"],
        "rounds": n,
        "rates": [len(w["rtts"]) / seconds for w in windows],
        "longest_gap_ms": max(w["longest_gap_ms"] for w in windows),
        "errors": sum(w["errors"] for w in windows),
        "timeouts": sum(w["timeouts"] for w in windows),
        "paced": sum(w["paced"] for w in windows),
        "setup_s": max(w["setup_s"] for w in windows),
        "codes": codes,
        "cpu": cpu,
        "throttled": throttled,
        "server_waits": [mean([w["server_waits"][i] for w in windows]) for i in range(len(first["server_waits"]))],
        "catchup_reads": [sum(w["catchup_reads"][i] for w in windows) for i in range(len(first["catchup_reads"]))],
        "via": first["via"],
    }


def server_ms_per_move(f: dict) -> float:
    return 1000 * sum(f["cpu"]["servers"]) / f["moves_per_s"] if f["moves_per_s"] else float("nan")


def report(phase: Phase, f: dict, opts: argparse.Namespace) -> None:
    cpu = f["cpu"]
    quota = "none" if phase.quota is None else f"{phase.quota:.2f}"
    rates = ",".join(f"{r:.0f}" for r in f["rates"])
    print(
        f"phase={phase.name} instances={phase.instances} placement={phase.placement} via={f['via']} "
        f"quota={quota} games={f['games']} moves_per_s={f['moves_per_s']:.1f} rounds=[{rates}] "
        f"p50_ms={f['p50_ms']:.1f} "
        f"p99_ms={f['p99_ms']:.1f} max_ms={f['max_ms']:.1f} longest_gap_ms={f['longest_gap_ms']:.1f} "
        f"moves={f['moves']} errors={f['errors']} timeouts={f['timeouts']} paced={f['paced']} "
        f"setup_s={f['setup_s']:.1f}" + "".join(f" error_{code}={n}" for code, n in sorted(f["codes"].items()))
    )
    servers = ",".join(f"{c:.3f}" for c in cpu["servers"])
    print(
        f"  cpu_cores servers=[{servers}] clients={cpu['clients']:.2f} postgres={cpu['postgres']:.2f} "
        f"redis={cpu['redis']:.2f} nginx={cpu['nginx']:.2f} other={cpu['other']:.2f} "
        f"machine={cpu['machine']:.2f}/{os.cpu_count()}"
    )
    throttled = ",".join(f"{t.share:.2f}" for t in f["throttled"])
    used = "-" if phase.quota is None else ",".join(f"{c / phase.quota:.2f}" for c in cpu["servers"])
    waits = ",".join(f"{w:.2f}" for w in f["server_waits"])
    reads = ",".join(f"{r:.0f}" for r in f["catchup_reads"])
    print(
        f"  throttled=[{throttled}] (share of {opts.period_ms} ms periods each instance ran out of quota) "
        f"quota_used=[{used}] server_runqueue_wait=[{waits}] room_catchup_reads=[{reads}]"
    )
    per_move = {
        k: 1000 * cpu[k] / f["moves_per_s"] if f["moves_per_s"] else float("nan")
        for k in ("clients", "postgres", "redis", "nginx")
    }
    core_rate = f["moves_per_s"] / sum(cpu["servers"]) if sum(cpu["servers"]) else float("nan")
    print(
        f"  moves_per_server_core_s={core_rate:.0f} cpu_ms_per_move servers={server_ms_per_move(f):.3f} "
        + " ".join(f"{k}={v:.3f}" for k, v in per_move.items())
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quota", type=float, default=0.15, help="cores per instance in the quota'd phases")
    parser.add_argument("--period-ms", type=int, default=10, help="quota enforcement period")
    parser.add_argument("--games-per-instance", type=int, default=16, help="concurrent games per instance")
    parser.add_argument("--seconds", type=float, default=5.0, help="measured seconds per phase and round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of all phases, one after another")
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds at the quota before measuring")
    parser.add_argument("--client-procs", type=int, default=2, help="client processes")
    parser.add_argument(
        "--weight",
        type=float,
        default=4.0,
        help="CPU weight of each instance's group and of the clients' group, in multiples of the "
        "default (so that a quota'd instance gets its quota on a busy machine)",
    )
    parser.add_argument(
        "--via-nginx", action="store_true", help="nginx (deploy/nginx.conf) in front of the instances in the base and game phases"
    )
    opts = parser.parse_args()

    try:
        controller = cpu_groups.find()
    except cpu_groups.NoCpuController as error:
        print(f"scale_bench needs a writable CPU controller to hold each instance to a quota: {error}", file=sys.stderr)
        return 2
    name = new_database_name()
    prefix = new_redis_prefix()
    tag = uuid.uuid4().hex[:8]  # this run's control groups are tengen-bench-<tag>-*
    pg_admin(f'CREATE DATABASE "{name}"')
    database_url = POSTGRES_URL.rpartition("/")[0] + "/" + name
    print(
        f"cpus={os.cpu_count()} {controller.describe()} groups=tengen-bench-{tag}-* "
        f"quota={opts.quota} period_ms={opts.period_ms} "
        f"weight={opts.weight} games_per_instance={opts.games_per_instance} seconds={opts.seconds} "
        f"rounds={opts.rounds} client_procs={opts.client_procs} "
        f"via_nginx={opts.via_nginx} load_average={os.getloadavg()[0]:.2f}"
    )
    figures: dict[str, dict] = {}
    windows: dict[str, list[dict]] = {phase.name: [] for phase in phases(opts.quota)}
    try:
        with tempfile.TemporaryDirectory(dir=os.environ.get("TENGEN_BENCH_WORKDIR")) as workdir:
            group = Instances(database_url, REDIS_URL, prefix, Path(workdir), secret_key=uuid.uuid4().hex)
            group.env.update(ONE_ADDRESS)
            # Every window starts fresh guests, all from 127.0.0.1: a run starts more than the hourly cap per
            # address (TENGEN_GUESTS_PER_ADDRESS, 300) allows one client.
            group.env["TENGEN_GUESTS_PER_ADDRESS"] = "0"
            try:
                group.start(1, timeout=START_TIMEOUT)[0].stop()  # migrate the new database once, before any timing
                rig = Rig(group, controller, opts, Path(workdir), tag)
                try:
                    # Round after round of every phase: each phase sees the machine as the others do.
                    for _ in range(opts.rounds):
                        for phase in phases(opts.quota):
                            windows[phase.name].append(run_window(phase, rig, opts, name))
                finally:
                    rig.close()
            finally:
                group.stop_all()
        for phase in phases(opts.quota):
            figures[phase.name] = combine(windows[phase.name], opts.seconds)
            report(phase, figures[phase.name], opts)
    finally:
        pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        delete_redis_prefix(prefix)

    rate = {k: f["moves_per_s"] for k, f in figures.items()}

    def ratio(a: float, b: float) -> float:
        return a / b if b else math.nan

    eff = ratio(server_ms_per_move(figures["q1"]), server_ms_per_move(figures["base"]))
    print(
        f"server_cpu_ms_per_move base={server_ms_per_move(figures['base']):.3f} "
        f"q1={server_ms_per_move(figures['q1']):.3f} q4={server_ms_per_move(figures['q4']):.3f} "
        f"s4={server_ms_per_move(figures['s4']):.3f}; spread2={ratio(rate['s2'], rate['q1']):.2f}"
    )
    print(
        f"scale2={ratio(rate['q2'], rate['q1']):.2f} scale4={ratio(rate['q4'], rate['q1']):.2f} "
        f"spread4={ratio(rate['s4'], rate['q1']):.2f} eff={eff:.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
