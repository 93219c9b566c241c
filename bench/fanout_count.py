"""The fan-out path's cost counted, not timed: one move broadcast to a game's spectators, on one or more trees.

The room bench times a move to the last of its fan-out game's spectators against a broadcast floor; on a
shared machine that ratio moves by 10 % between runs, too much to tell two commits apart by a few percent.
This counts instead. For each source tree given (e.g. a worktree at an older commit and this one), it starts
``tengen serve`` from that tree on a fresh PostgreSQL database (in-process hub, ``PYTHONHASHSEED=0``), opens
one 19x19 game between two guests with ``--listeners`` anonymous spectator sockets, plays ``--warmup`` moves,
then measures ``--moves`` random legal moves (the same seeded moves on every tree), each sent once the
opponent and the last spectator received the one before. ``--redis`` serves with the Redis hub (a prefix of
the run's own, deleted afterwards), as the scale bench's instances do; ``--listeners 0`` counts a move's round
trip alone.

- ``--tool callgrind`` (default): the server runs under ``valgrind --tool=callgrind`` with instrumentation off
  until the measured moves start (``callgrind_control -i on``) and is dumped after them: the instructions the
  server executed (``Ir``, all its threads) over the moves' window. What the server does by the clock (a ping
  to every socket of the game every 5 s, the clock ticks, the heartbeat) falls in that window as often as the
  window lasts, and under valgrind how long it lasts depends on how busy the machine is; so the server is
  then counted as long again with nothing played (``idle``), and a move's instructions are the window's less
  that idle rate times its length (``net_per_move``). Then the ten C functions with the most inclusive
  instructions over the moves' window.
- ``--tool perf``: the server runs as it is and ``perf stat`` reads its system calls and its CPU time (user and
  kernel: what callgrind does not count) over the moves and over as long an idle window, taken off as above
  (timed, so as noisy as the machine, but with the kernel's share).
- ``--tool cprofile``: the server's event-loop thread under ``cProfile``, switched on and off by signals
  around the measured moves: the Python functions by calls and by own time per move, for finding where a
  difference between two trees lies (own times are the profiler's, not the machine's: compare calls first).

Prints one block per tree and last ``per_move=<first tree's>[,<second's> ratio=<second / first>]``: the net
instructions per move (callgrind), the net CPU microseconds per move (perf) or the Python calls per move (cprofile).

    .venv/bin/python bench/fanout_count.py [ROOT ...] [--listeners 300] [--moves 20] [--warmup 5]
        [--tool callgrind|perf|cprofile] [--redis] [--top 25] [--keep DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import pstats
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_server import Server, bench_run, dsn_for, free_port, new_redis_prefix, server_env, wait_listening
from room_bench import Bot, Table, choose_move
from ws_clients import open_many, settle, wait_delivered

from tests.support.instances import delete_redis_prefix
from tests.support.services import REDIS_URL

ROOT = Path(__file__).resolve().parent.parent

# The server under cProfile: the profiler follows the thread that enables it, so the signal handlers (which
# Python runs in the main thread, the event loop's) switch it on and off there, and dump it when switched off.
PROFILED_SERVE = """
import cProfile, runpy, signal, sys
profile = cProfile.Profile()
def start(*_):
    profile.enable()
out = sys.argv[1]
def stop(*_):
    profile.disable()
    profile.dump_stats(out)
signal.signal(signal.SIGUSR1, start)
signal.signal(signal.SIGUSR2, stop)
sys.argv = ["app.cli", "serve"]
runpy.run_module("app.cli", run_name="__main__", alter_sys=True)
"""


def start_server(root: Path, database: str, port: int, data_dir: Path, tool: str, redis: dict[str, str]) -> tuple[Server, Path]:
    """``tengen serve`` from ``root``, under ``tool``, with the ``redis`` settings; its process and the file its
    counts go to."""
    env = dict(os.environ)
    env.update(
        PYTHONPATH=str(root),
        PYTHONHASHSEED="0",
        TENGEN_DATABASE_URL=dsn_for(database),
        TENGEN_PORT=str(port),
        TENGEN_HOST="127.0.0.1",
        TENGEN_DATA_DIR=str(data_dir),
        TENGEN_SECRET_KEY=uuid.uuid4().hex * 2,
    )
    env.update(server_env(**redis))
    if tool == "callgrind":
        out = data_dir / "callgrind.out"
        command = [
            "valgrind",
            "--tool=callgrind",
            "--instr-atstart=no",
            f"--callgrind-out-file={out}",
            sys.executable,
            "-m",
            "app.cli",
            "serve",
        ]
    elif tool == "perf":
        out = data_dir / "perf.txt"
        command = [sys.executable, "-m", "app.cli", "serve"]
    else:
        out = data_dir / "profile.out"
        command = [sys.executable, "-c", PROFILED_SERVE, str(out)]
    log = data_dir / "tengen.log"
    process = subprocess.Popen(command, cwd=root, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    return Server(process, log), out


def callgrind_control(*args: str) -> None:
    subprocess.run(["callgrind_control", *args], check=True, capture_output=True)


@dataclass(frozen=True)
class Measured:
    """One tree's counts: the file of the moves' window and its wall-clock seconds; under callgrind also the
    file of as long a window with nothing played and its seconds."""

    moves: Path
    moves_seconds: float
    idle: Path | None = None
    idle_seconds: float = 0.0


# The least time between two moves: each player's socket then sends under the server's 10 messages a second.
MOVE_INTERVAL = 0.06
PERF_EVENTS = "raw_syscalls:sys_enter,task-clock"
PERF_ATTACH = 0.5  # seconds given ``perf stat`` to attach before a window's work starts (counted in the window)


async def perf_window(pid: str, out: Path, window: Callable[[], Awaitable[None]]) -> float:
    """``perf stat`` of the process ``pid`` (all its threads) while ``window()`` runs, into ``out``; its seconds."""
    started = time.monotonic()
    perf = subprocess.Popen(["perf", "stat", "-x,", "-e", PERF_EVENTS, "-p", pid, "-o", str(out)])
    await asyncio.sleep(PERF_ATTACH)
    await window()
    seconds = time.monotonic() - started
    perf.send_signal(signal.SIGINT)
    perf.wait(30)
    return seconds


def newest_dump(data_dir: Path) -> Path:
    return max((d for d in data_dir.glob("callgrind.out.*")), key=lambda p: p.stat().st_mtime_ns)


async def measure(root: Path, args: argparse.Namespace) -> Measured:
    """One tree's measured moves and their counts."""
    rng = random.Random(args.seed)
    prefix = new_redis_prefix()
    redis = {"TENGEN_REDIS_URL": REDIS_URL, "TENGEN_REDIS_PREFIX": prefix} if args.redis else {}
    try:
        return await measure_on(root, args, rng, redis)
    finally:
        if args.redis:
            delete_redis_prefix(prefix)


async def measure_on(root: Path, args: argparse.Namespace, rng: random.Random, redis: dict[str, str]) -> Measured:
    async with bench_run(None) as bench:
        data_dir = Path(tempfile.mkdtemp(prefix="tengen-fanout-"))
        port = free_port()
        server, out = start_server(root, bench.database, port, data_dir, args.tool, redis)
        bench.servers.append(server)
        await wait_listening(server, port, timeout=600)
        pid = str(server.process.pid)
        base = f"http://127.0.0.1:{port}"
        black, white = await Bot(base).visit(), await Bot(base).visit()
        table = Table(base, black, white, 0)
        await table.open()
        listeners = await open_many(base.replace("http://", "ws://") + f"/ws/games/{table.game_id}", args.listeners)
        await settle([*table.sockets.values(), *listeners], quiet=2.0, limit=300)
        opponent = {"B": table.sockets["W"], "W": table.sockets["B"]}

        paced = [0.0]  # when the last move was sent

        async def play() -> None:
            await asyncio.sleep(paced[0] + MOVE_INTERVAL - time.monotonic())
            paced[0] = time.monotonic()
            colour = table.game.to_move
            point = choose_move(table.game, rng)
            assert point is not None
            answer, _, _ = await table.sockets[colour].request({"t": "play", "p": list(point)}, timeout=120)
            if answer.get("t") != "ack":
                raise RuntimeError(f"move refused: {answer}")
            table.game.play(colour, point)
            await wait_delivered([opponent[colour], *listeners], answer["v"], timeout=120)

        async def moves() -> None:
            for _ in range(args.moves):
                await play()

        for _ in range(args.warmup):
            await play()
        await settle(listeners, quiet=1.0, limit=300)
        if args.tool == "perf":
            moves_seconds = await perf_window(pid, data_dir / "perf-moves.txt", moves)
            idle_seconds = await perf_window(pid, data_dir / "perf-idle.txt", partial(asyncio.sleep, moves_seconds - PERF_ATTACH))
            measured = Measured(data_dir / "perf-moves.txt", moves_seconds, data_dir / "perf-idle.txt", idle_seconds)
        elif args.tool == "callgrind":
            callgrind_control("-i", "on", pid)
            callgrind_control("-z", pid)
        else:
            os.kill(server.process.pid, signal.SIGUSR1)
        started = time.monotonic()
        if args.tool != "perf":
            await moves()
        if args.tool == "cprofile":
            os.kill(server.process.pid, signal.SIGUSR2)
            measured = Measured(out, time.monotonic() - started)
            await asyncio.sleep(2)  # the dump is written by the server's main thread between two of its bytecodes
        elif args.tool == "callgrind":
            callgrind_control("-d", pid)
            moves_seconds = time.monotonic() - started
            moves_dump = newest_dump(data_dir)
            started = time.monotonic()
            callgrind_control("-z", pid)
            await asyncio.sleep(moves_seconds)
            callgrind_control("-d", pid)
            measured = Measured(moves_dump, moves_seconds, newest_dump(data_dir), time.monotonic() - started)
            callgrind_control("-i", "off", pid)
        for probe in [*listeners, *table.sockets.values()]:
            await probe.close()
        await black.http.aclose()
        await white.http.aclose()
    return measured


def instructions(dump: Path) -> int:
    totals = re.search(r"^(?:totals|summary): (\d+)", dump.read_text(errors="replace"), re.M)
    assert totals, f"no totals in {dump}"
    return int(totals.group(1))


def callgrind_report(measured: Measured, moves: int) -> float:
    """Print the instructions of the moves' window and of the idle one, the net per move and the top functions;
    return the net per move."""
    assert measured.idle is not None
    window, idle = instructions(measured.moves), instructions(measured.idle)
    idle_rate = idle / measured.idle_seconds
    net = (window - idle_rate * measured.moves_seconds) / moves
    print(
        f"  moves: Ir={window} in {measured.moves_seconds:.1f} s; idle: Ir={idle} in {measured.idle_seconds:.1f} s "
        f"({idle_rate:.0f}/s); per_move={window / moves:.0f} net_per_move={net:.0f}"
    )
    annotate = subprocess.run(
        ["callgrind_annotate", "--inclusive=yes", "--threshold=100", str(measured.moves)], capture_output=True, text=True
    ).stdout
    rows = [line for line in annotate.splitlines() if re.match(r"^\s*[\d,]+ \(", line)]
    for line in rows[:10]:
        print("   ", line.strip()[:150])
    return net


def perf_counts(path: Path) -> dict[str, float]:
    """Event -> value from ``perf stat -x,`` output."""
    counts = {}
    for line in path.read_text().splitlines():
        fields = line.split(",")
        if len(fields) > 2 and fields[2] in PERF_EVENTS.split(","):
            counts[fields[2]] = float(fields[0])
    return counts


def perf_report(measured: Measured, moves: int) -> float:
    """Print the system calls and CPU ms of the moves' window, of the idle one, and net per move; return the net
    CPU microseconds per move."""
    assert measured.idle is not None
    window, idle = perf_counts(measured.moves), perf_counts(measured.idle)
    scale = measured.moves_seconds / measured.idle_seconds
    net = {event: (window[event] - idle[event] * scale) / moves for event in window}
    syscalls, cpu_ms = "raw_syscalls:sys_enter", "task-clock"
    print(
        f"  moves: {window[syscalls]:.0f} syscalls, {window[cpu_ms]:.1f} CPU ms in {measured.moves_seconds:.1f} s; "
        f"idle: {idle[syscalls]:.0f} syscalls, {idle[cpu_ms]:.1f} CPU ms in {measured.idle_seconds:.1f} s; "
        f"net_per_move: {net[syscalls]:.1f} syscalls, {net[cpu_ms] * 1000:.0f} CPU us"
    )
    return net[cpu_ms] * 1000


def profile_report(path: Path, moves: int, top: int) -> float:
    """Print the Python functions by calls and own time per move; return the number of calls."""
    stats = pstats.Stats(str(path))
    entries = stats.stats  # type: ignore[attr-defined]  # pstats keeps its table in an undocumented attribute
    rows = [(key, value[1], value[2]) for key, value in entries.items()]  # (function, calls, own time)
    calls = sum(c for _, c, _ in rows)
    own = sum(t for _, _, t in rows)
    print(f"  calls_per_move={calls / moves:.0f} own_ms_per_move={own / moves * 1000:.2f}")

    def name(key: tuple[str, int, str]) -> str:
        file, line, function = key
        return f"{Path(file).name}:{line}({function})" if line else function

    print("  by calls per move:")
    for key, c, t in sorted(rows, key=lambda r: -r[1])[:top]:
        print(f"    {c / moves:10.1f} {t / moves * 1e6:9.1f} us  {name(key)}")
    print("  by own time per move:")
    for key, c, t in sorted(rows, key=lambda r: -r[2])[:top]:
        print(f"    {c / moves:10.1f} {t / moves * 1e6:9.1f} us  {name(key)}")
    return calls


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("roots", nargs="*", type=Path, help="source trees to serve from (default: this one)")
    parser.add_argument("--listeners", type=int, default=300, help="spectator sockets of the game")
    parser.add_argument("--moves", type=int, default=20, help="moves measured")
    parser.add_argument("--warmup", type=int, default=5, help="moves played before measuring")
    parser.add_argument("--tool", choices=("callgrind", "perf", "cprofile"), default="callgrind")
    parser.add_argument("--redis", action="store_true", help="the Redis hub (the scale bench's instances use it)")
    parser.add_argument("--top", type=int, default=25, help="functions listed (cprofile)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path, help="copy each tree's counts into this directory")
    args = parser.parse_args(argv)
    if args.tool == "callgrind" and not shutil.which("valgrind"):
        print("valgrind is not installed", file=sys.stderr)
        return 2
    roots = [root.resolve() for root in args.roots] or [ROOT]
    print(
        f"listeners={args.listeners} moves={args.moves} warmup={args.warmup} tool={args.tool} redis={args.redis} seed={args.seed}"
    )
    totals = []
    for root in roots:
        commit = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
        ).stdout.strip()
        print(f"{root} ({commit}):", flush=True)
        measured = asyncio.run(measure(root, args))
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=True)
            shutil.copy(measured.moves, args.keep / f"{args.tool}-{commit}.out")
            if measured.idle is not None:
                shutil.copy(measured.idle, args.keep / f"{args.tool}-{commit}-idle.out")
        if args.tool == "callgrind":
            totals.append(callgrind_report(measured, args.moves))
        elif args.tool == "perf":
            totals.append(perf_report(measured, args.moves))
        else:
            totals.append(profile_report(measured.moves, args.moves, args.top) / args.moves)
    last = "per_move=" + ",".join(f"{total:.0f}" for total in totals)
    if len(totals) == 2:
        last += f" ratio={totals[1] / totals[0]:.4f}"
    print(last)
    return 0


if __name__ == "__main__":
    sys.exit(main())
