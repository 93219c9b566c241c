"""Players under attack: the room bench's games, with and without attackers, in one run on one machine.

Starts one Tengen server process (``tengen serve`` on a fresh PostgreSQL database, in-process hub; with
``--redis`` the Redis hub, so the limits are counted in Redis) with the product's default limits but one: the
players' sockets all come from one address, more than the cap per address allows (``bench_server.ONE_ADDRESS``).
It plays ``--games`` games of random legal moves, one move per game every ``--interval`` seconds, watched by
``--spectators`` sockets each (the room bench's tables, ``room_bench.TengenGames``). Rounds alternate: quiet,
then under attack. During an attack round a separate attacker process (``attackers.py``) pushes wrong
passwords, refused moves and chat lines from spectators' sockets, and lobby pings, as fast as the caps let it,
each client from client addresses of its own: the attack is bounded by the limits for everyone and per account
and user, not by those of one address.

The machine's own stalls: a shared virtual machine now and then stops every process together for 100 ms or
more (the hypervisor holds the cores, or the disk holds every sync), in quiet rounds as often as in attacked
ones, and the few moves such a stall catches decide a p99 in whichever phase it falls. A witness process
(``machine_stalls.py``) runs beside the bench at real-time priority, which the attackers' load cannot delay,
and syncs a block on the database's disk every 10 ms; each wake-up or sync over 20 ms late is a stall of the
machine. Moves whose round trip a stall overlapped are counted apart, in both phases alike.

Prints, for each phase, what the server spent (its event loop's thread, and how long it waited for a core;
its other threads, password hashing among them; its worker processes) and what the attacker process spent, in
cores, with the longest stall of the server's own making (``tengen_event_loop_busy_lag_seconds``); the
players' move round trip (send -> ack) p50/p99 quiet and under attack; what the attackers got through; how far
the ratio moves when each phase's moves are resampled (a p99 of 720 moves is their 8th slowest, so a ratio of
two such figures is noisy: ``--moves`` more per round narrows it); the machine's stalls per phase and the
moves they touched; the ratio over all moves; and as its last line ``attack_ratio=<p99 under attack / p99
quiet>`` over the moves no stall of the machine touched.

CPU: like ``room_bench.py``, the bench moves itself, and with it the server, the players' clients and the
attacker process it starts, and the PostgreSQL backends of its database, into a cgroup of its own weighing 256
times the default (``cpu.shares`` 262144 on cgroup v1, ``cpu.weight`` 10000 on v2; no quota): other jobs on a
shared machine then wait for a core behind the bench, while the attackers still compete with the server
inside it, as they would on one host. Needs root and a writable ``/sys/fs/cgroup``; without, or with
``TENGEN_BENCH_CPU_GROUP=0``, it says so and runs as it is. Quiet and attacked rounds alternate in one run.

    .venv/bin/python bench/attack_bench.py [--games 100] [--spectators 5] [--moves 20]
        [--interval 1.0] [--rounds 4] [--redis] [--quick] [--server-log FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import shutil
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import attackers
import httpx
import proc_cpu
from bench_server import (
    add_game_options,
    bench_run,
    free_port,
    histograms,
    new_redis_prefix,
    run_favoured,
    start_tengen,
    wait_listening,
)
from cpu_groups import Favoured
from machine_stalls import Stall, Witness, overlapping
from room_bench import LAG_HISTOGRAMS, TengenGames, longest_stall_ms, ms
from ws_clients import clock, percentile

from tests.support.instances import delete_redis_prefix

ROOT = Path(__file__).resolve().parent.parent

REDIS_URL = os.environ.get("TENGEN_BENCH_REDIS", "redis://127.0.0.1:6379/0")
PASSWORD = "the right password"
MOVE_LATENCY = "tengen_move_latency_seconds"  # the server's own receive -> ack time of a move
READ = (*LAG_HISTOGRAMS, MOVE_LATENCY)
# The server runs with the product's default limits. It believes X-Forwarded-For from the bench, as from a
# proxy in front of it: each attacking client then comes from addresses of its own, so that what bounds the
# attack is the limits for everyone (300 password checks a minute, the hashing queue), not those of one
# address. The players send no such header: they all come from 127.0.0.1 (bench_server.ONE_ADDRESS).
ATTACKERS_BEHIND_A_PROXY = {"TENGEN_TRUSTED_PROXIES": '["127.0.0.1"]'}


# ---------------------------------------------------------------- the run


@dataclass
class Use:
    """What the server spent over a phase's rounds, in seconds: its event loop's thread running and waiting
    for a core, its other threads (ended ones included), its child processes (the password hashing and study
    workers); the PostgreSQL backends of the bench's database; the players' process (this one) running and
    waiting for a core, and the attacker process; the phase's wall-clock seconds."""

    loop: float = 0.0
    loop_waited: float = 0.0
    threads: float = 0.0
    children: float = 0.0
    postgres: float = 0.0
    postgres_waited: float = 0.0
    players: float = 0.0
    players_waited: float = 0.0
    attacker: float = 0.0
    wall: float = 0.0

    def add(self, other: "Use") -> None:
        for name in vars(self):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def describe(self) -> str:
        cores = {k: max(0.0, v) / self.wall if self.wall else float("nan") for k, v in vars(self).items() if k != "wall"}
        return (
            f"server loop {cores['loop']:.2f} cores (waited for one {cores['loop_waited']:.2f}), other threads "
            f"{cores['threads']:.2f}, workers {cores['children']:.2f}; postgres {cores['postgres']:.2f} (waited "
            f"{cores['postgres_waited']:.2f}); players "
            f"{cores['players']:.2f} (waited {cores['players_waited']:.2f}); attacker {cores['attacker']:.2f}"
        )


class Meter:
    """Reads ``Use`` from ``/proc`` before and after a round (``proc_cpu``)."""

    def __init__(self, server: int, database: str) -> None:
        self.server, self.database = server, database

    def read(self, attacker: int | None) -> Use:
        loop = proc_cpu.threads(self.server).get(self.server, ("", 0.0, 0.0))
        me = os.getpid()
        players = proc_cpu.threads(me).get(me, ("", 0.0, 0.0))
        everyone = proc_cpu.processes()
        children = sum(row[2] for row in everyone.values() if row[3] == self.server)
        backends = [pid for pid, row in everyone.items() if row[0] == "postgres" and self.database in row[1]]
        postgres = sum(everyone[pid][2] for pid in backends)
        postgres_waited = sum(proc_cpu.runqueue_waits(backends))
        attacking = everyone[attacker][2] if attacker in everyone else 0.0
        threads = proc_cpu.cpu_seconds(self.server) - loop[1]
        return Use(
            loop[1], loop[2], threads, children, postgres, postgres_waited, players[1], players[2], attacking, time.monotonic()
        )

    @staticmethod
    def spent(before: Use, after: Use) -> Use:
        return Use(*(b - a for a, b in zip(vars(before).values(), vars(after).values())))


def slower(histogram: dict[float, float]) -> str:
    """How many moves took longer than each of a few bounds, from a cumulative histogram's counts."""
    total = histogram.get(float("inf"), 0.0)
    return ", ".join(f"{total - histogram.get(b, 0.0):.0f} over {b * 1000:.0f} ms" for b in (0.025, 0.05, 0.1, 0.25)) + (
        f" (of {total:.0f})"
    )


def ratio_interval(quiet: list[float], attacked: list[float], rng: random.Random, draws: int = 1000) -> tuple[float, float]:
    """How far the ratio of p99s moves with the sample: the 5th and 95th percentiles of the ratio over
    ``draws`` resamplings (with replacement) of each phase's round trips. A p99 of a few hundred moves rests on
    the few slowest of them, so a narrow interval needs thousands (more ``--moves``)."""
    if not quiet or not attacked:
        return float("nan"), float("nan")
    ratios = sorted(
        percentile(rng.choices(attacked, k=len(attacked)), 99) / percentile(rng.choices(quiet, k=len(quiet)), 99)
        for _ in range(draws)
    )
    return ratios[draws // 20], ratios[draws - 1 - draws // 20]


@dataclass
class Phase:
    """One phase's rounds: the players' moves as (sent, acked), what the server and the others spent, the
    server's longest busy stall and its own receive -> ack histogram, and when the rounds ran."""

    name: str
    trips: list[tuple[float, float]] = field(default_factory=list)
    use: Use = field(default_factory=Use)
    busy_stall_ms: float = 0.0
    served: dict[float, float] = field(default_factory=dict)
    windows: list[tuple[float, float]] = field(default_factory=list)

    async def measure(self, games: TengenGames, moves: int, meter: Meter, attacker: int | None) -> None:
        """One paced round of the games; its moves and what it cost are added to this phase."""
        for table in games.tables:
            table.trips = []
        before, started = meter.read(attacker), clock()
        await games.round(moves)
        self.use.add(Meter.spent(before, meter.read(attacker)))
        self.windows.append((started, clock()))
        self.trips += [trip for table in games.tables for trip in table.trips]

    def count(self, before: dict[str, dict[float, float]], after: dict[str, dict[float, float]]) -> None:
        """Add the server's histograms' growth between two readings around one of this phase's rounds."""
        stall = longest_stall_ms(before[LAG_HISTOGRAMS[0]], after[LAG_HISTOGRAMS[0]])
        self.busy_stall_ms = max(self.busy_stall_ms, stall)
        for bound, n in after[MOVE_LATENCY].items():
            self.served[bound] = self.served.get(bound, 0.0) + n - before[MOVE_LATENCY].get(bound, 0.0)

    def stalls_in(self, stalls: list[Stall]) -> list[Stall]:
        return [s for s in stalls if any(s.start < end and s.end > start for start, end in self.windows)]

    def rtts(self, apart: list[Stall] | None = None) -> list[float]:
        """The round trips, but those of the moves a stall in ``apart`` overlapped."""
        touched = overlapping(self.trips, apart or [])
        return [acked - sent for (sent, acked), hit in zip(self.trips, touched) if not hit]


def ratio_lines(quiet: list[float], attacked: list[float], seed: int, which: str) -> list[str]:
    """Both phases' round trips, the 90% interval of their p99s' ratio, and the ratio itself, for ``which``
    moves."""
    low, high = ratio_interval(quiet, attacked, random.Random(seed))
    beyond = max(0, len(quiet) - 1 - round(0.99 * (len(quiet) - 1)))
    ratio = percentile(attacked, 99) / percentile(quiet, 99) if quiet and attacked else float("nan")
    return [
        f"move round trip, {which}, quiet:        {ms(quiet)}",
        f"move round trip, {which}, under attack: {ms(attacked)}",
        f"attack_ratio, {which}: {ratio:.2f}, 90% interval {low:.2f}-{high:.2f} (resampling the moves of each "
        f"phase; each p99 has {beyond} moves of {len(quiet)} above it)",
    ]


def disk_of(directory: Path, database_directory: str | None) -> str:
    """Whether the witness's folder is on the database's disk, in words."""
    try:
        same = database_directory is not None and os.stat(directory).st_dev == os.stat(database_directory).st_dev
    except OSError:
        same = False
    return "the database's disk" if same else "not the database's disk (or the database's is not readable here)"


def verdict(quiet: Phase, attacked: Phase, stalls: list[Stall], witness: dict, where: str, seed: int) -> None:
    """The run's figures; the last line is ``attack_ratio=`` over the moves no stall of the machine touched."""
    for phase in (quiet, attacked):
        seen = phase.stalls_in(stalls)
        kinds = Counter(s.kind for s in seen)
        hit = sum(overlapping(phase.trips, seen))
        print(f"{phase.name}: {phase.use.describe()}; longest busy stall {phase.busy_stall_ms:.0f} ms")
        print(f"{phase.name}: the server's own receive -> ack: {slower(phase.served)}")
        print(
            f"{phase.name}: the machine stalled {len(seen)} times ({kinds['cpu']} cpu, {kinds['disk']} disk; "
            f"{sum(s.end - s.start for s in seen) * 1000:.0f} ms in all), touching {hit} of {len(phase.trips)} moves"
        )
    wall = time.time() - clock()
    for stall in sorted(stalls, key=lambda s: s.start)[:20]:
        during = next((p.name for p in (quiet, attacked) if p.stalls_in([stall])), "between rounds")
        at = time.strftime("%H:%M:%S", time.gmtime(stall.start + wall)) + f".{(stall.start + wall) % 1 * 1000:03.0f}"
        print(f"stall: {stall.kind} at {at} UTC, {(stall.end - stall.start) * 1000:.0f} ms ({during})")
    p50, p99 = witness.get("sync_p50_ms"), witness.get("sync_p99_ms")
    print(
        f"witness: {witness.get('how', 'no summary')}, {witness.get('syncs', 0)} syncs on {where} "
        f"(p50 {p50 or float('nan'):.2f} ms, p99 {p99 or float('nan'):.2f} ms)"
    )
    for line in ratio_lines(quiet.rtts(), attacked.rtts(), seed, "all moves"):
        print(line)
    spared = (quiet.rtts(stalls), attacked.rtts(stalls))
    for line in ratio_lines(*spared, seed, "outside the machine's stalls"):
        print(line)
    print(f"attack_ratio={percentile(spared[1], 99) / percentile(spared[0], 99):.2f}", flush=True)


async def run(args: argparse.Namespace, favoured: Favoured | None) -> int:
    rng = random.Random(args.seed)
    prefix = new_redis_prefix()
    async with bench_run(favoured) as bench:
        with tempfile.TemporaryDirectory(prefix="tengen-attack-") as tmp:
            data_dir = Path(tmp)
            witness = Witness(data_dir, data_dir / "witness.log")
            database_directory = None
            with contextlib.suppress(Exception):  # a superuser's setting; the server may be on another host
                database_directory = await bench.backends.admin.fetchval("SHOW data_directory")
            where = disk_of(data_dir, database_directory)
            port = free_port()
            extra = {"TENGEN_REDIS_URL": REDIS_URL, "TENGEN_REDIS_PREFIX": prefix} if args.redis else {}
            server = start_tengen(bench.database, port, data_dir, **ATTACKERS_BEHIND_A_PROXY, **extra)
            bench.servers.append(server)
            await wait_listening(server, port)
            base = f"http://127.0.0.1:{port}"
            async with httpx.AsyncClient(base_url=base) as victim:
                (await victim.post("/api/auth/register", json={"username": "victim", "password": PASSWORD})).raise_for_status()
            print(
                f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; games={args.games} "
                f"spectators={args.spectators} moves={args.moves} interval={args.interval}s rounds={args.rounds} "
                f"hub={'redis' if args.redis else 'memory'}; attackers: {args.login_workers} log-in clients, "
                f"{args.refusers} refused-action/chat sockets, {args.lobby_sockets} lobby sockets",
                flush=True,
            )
            games = TengenGames(base, args, rng)
            await games.open()
            meter = Meter(server.process.pid, bench.database)
            quiet, attacked = Phase("quiet"), Phase("attack")
            per_round = max(1, args.moves // args.rounds)
            try:
                for r in range(args.rounds):
                    await bench.backends.join()
                    lag = await asyncio.to_thread(histograms, base, READ)
                    await quiet.measure(games, per_round, meter, None)
                    seconds = per_round * args.interval + 3
                    log = data_dir / f"attacker-{r}.log"
                    attacker = attackers.launch(base, [t.game_id for t in games.tables], seconds, args, log)
                    while attacker.poll() is None and "ready" not in log.read_text():
                        await asyncio.sleep(0.2)  # the attackers connect first, then all start at once
                    lag_between = await asyncio.to_thread(histograms, base, READ)
                    await asyncio.sleep(1)  # ... and are at full rate
                    await attacked.measure(games, per_round, meter, attacker.pid)
                    lag_after = await asyncio.to_thread(histograms, base, READ)
                    await asyncio.get_running_loop().run_in_executor(None, attacker.wait)
                    quiet.count(lag, lag_between)
                    attacked.count(lag_between, lag_after)
                    report = log.read_text().strip().splitlines()
                    print(f"round {r + 1}: attackers got {report[-1] if report else '(nothing)'}", flush=True)
            except Exception:
                print(server.tail(), file=sys.stderr)
                raise
            finally:
                await games.close()
                summary = witness.stop()
                if args.redis:
                    delete_redis_prefix(prefix)
                if args.server_log:
                    shutil.copyfile(server.log, args.server_log)
            verdict(quiet, attacked, witness.stalls(), summary, where, args.seed)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_game_options(parser, moves_help="moves per game in each phase (default 20)")
    parser.add_argument("--rounds", type=int, default=4, help="alternating quiet and attacked rounds (default 4)")
    attackers.add_options(parser)
    parser.add_argument("--redis", action="store_true", help="the Redis hub (limits counted in Redis)")
    parser.add_argument("--server-log", type=Path, help="keep the server's log (its warnings and errors) in this file")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 4 games, 2 spectators, few moves")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.spectators, args.moves, args.interval, args.rounds = 4, 2, 8, 0.25, 2
        args.login_workers, args.refusers, args.lobby_sockets = 2, 4, 2
    return run_favoured("attack-bench", lambda favoured: run(args, favoured))


if __name__ == "__main__":
    sys.exit(main())
