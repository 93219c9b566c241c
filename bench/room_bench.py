"""Tengen's live rooms under load, against two floors measured in the same run on the same machine.

Over 400 lines because its parts (the bot tables, the floors' clients, the matched rounds, the report) serve
one measurement; the attack bench plays its games with the same tables (``TengenGames``), imported from here.

Starts one Tengen server process (``tengen serve`` on a fresh PostgreSQL database, in-process hub) and two
bare ``websockets`` floor servers (``floor_servers.py``), each in its own process.

1. Fan-out and memory: one Tengen game gets ``--fanout-listeners`` spectator sockets and the broadcast floor
   as many listeners; the server's RSS growth while they connect, per socket, is its memory per idle socket.
   Then ``--fanout-moves`` moves alternate between the two, each timed from its send to its delivery to the
   last listener.
2. Round trips: ``--games`` concurrent games of random legal 19x19 moves between bot clients, each watched
   by ``--spectators`` sockets and moving once per ``--interval`` seconds, against the persist-echo floor (a
   bare server committing one row per message to the same PostgreSQL before acking it) driven through the
   same number of sockets at the same message rate, in ``--rounds`` matched pairs of short rounds (ABBA ABBA
   ...: Tengen first in one pair, the floor first in the next).

Both round trips are mostly PostgreSQL's commit, whose time on a shared disk drifts by a factor of two within
minutes. A ratio of two figures taken minutes apart measures that drift; so each pair's ratio is taken within
the pair (Tengen's p50 over the floor's, the two rounds a few seconds apart), and ``rtt_ratio`` is the median
of the pairs' ratios, printed with an interval for it (a sign test: the k-th smallest to the k-th largest
ratio, at least 95% confidence with 6 pairs or more) and, beside it, the ratio of the pooled p50s.

Prints p50/p99 move round trip (send -> ack), the pairs, move -> last spectator delivery, memory and server
CPU per idle socket, server CPU per delivery of a move to one spectator, the longest event-loop stall, and as
its last line ``rtt_ratio=<median of the pairs' Tengen p50 / floor p50> fanout_ratio=<Tengen p50 / floor p50>
idle_kb=<memory per idle socket> stall_ms=<longest stall>``.

    .venv/bin/python bench/room_bench.py [--games 100] [--spectators 5] [--moves 32]
        [--interval 1.0] [--rounds 16] [--fanout-listeners 1000] [--fanout-moves 100] [--quick]

CPU: on a machine shared with other jobs, the bench moves itself (and so the servers and clients it starts) and
the PostgreSQL backends of its database into a cgroup of its own weighing 256 times the default
(``cpu.shares`` 262144, cgroup v1, or ``cpu.weight`` 10000 on v2; no quota), so that its processes get a core
before other jobs' and the figures measure the server, not the queue for a core. It needs root and a writable
``/sys/fs/cgroup``; without them, or with ``TENGEN_BENCH_CPU_GROUP=0``, it says so and runs as it is. The group
is deleted at the end. Tengen and the floors alternate within the run, so both see the same machine.

Needs PostgreSQL (``TENGEN_BENCH_POSTGRES``, default postgresql://postgres@127.0.0.1:5432/postgres); creates
the database ``tengen_bench_<hex>`` and drops it at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import httpx
from bench_server import (
    Backends,
    Server,
    add_game_options,
    bench_run,
    dsn_for,
    free_port,
    histograms,
    run_favoured,
    start_tengen,
    wait_listening,
)
from cpu_groups import Favoured
from proc_cpu import cpu_seconds
from room_side_load import SideLoad
from ws_clients import Probe, clock, open_many, percentile, settle, wait_delivered

from app.rules import Game

ROOT = Path(__file__).resolve().parent.parent

BOARD = 19
# The side load logs in twice a second from one address to one account: far over the limits per account and
# per address (10 and 30 per 600 s), under the global one (300 a minute), which stays as shipped.
SIDE_LOAD_LOGINS = {"TENGEN_LOGIN_LIMIT_ACCOUNT": "1000000", "TENGEN_LOGIN_LIMIT_ADDRESS": "1000000"}


# ---------------------------------------------------------------- processes


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def start_floor(kind: str, port: int, data_dir: Path, dsn: str = "") -> Server:
    log = data_dir / f"{kind}.log"
    args = [sys.executable, str(ROOT / "bench" / "floor_servers.py"), kind, "--port", str(port)]
    if dsn:
        args += ["--dsn", dsn]
    process = subprocess.Popen(args, cwd=ROOT, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    return Server(process, log)


# ---------------------------------------------------------------- Tengen bots


class Bot:
    """One player: a cookie jar over HTTP."""

    def __init__(self, base: str) -> None:
        self.http = httpx.AsyncClient(base_url=base, timeout=60)

    async def visit(self) -> "Bot":
        (await self.http.post("/api/guest")).raise_for_status()
        return self

    @property
    def cookie(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())


async def start_game(black: Bot, white: Bot) -> str:
    body = {"board_size": BOARD, "rules": "chinese", "color": "black", "time_control": {"kind": "none"}}
    response = await black.http.post("/api/challenges", json=body)
    response.raise_for_status()
    data = response.json()
    challenge_id = data.get("id") or data["challenge"]["id"]
    accepted = await white.http.post(f"/api/challenges/{challenge_id}/accept")
    accepted.raise_for_status()
    data = accepted.json()
    return data.get("game_id") or data["game"]["id"]


def choose_move(game: Game, rng: random.Random) -> tuple[int, int] | None:
    """A random legal point for the side to move that does not fill one of its own eyes."""
    colour = game.to_move
    empty = [(x, y) for x in range(game.size) for y in range(game.size) if game.stone_at((x, y)) is None]
    rng.shuffle(empty)
    for x, y in empty:
        around = [
            (x + dx, y + dy)
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
            if 0 <= x + dx < game.size and 0 <= y + dy < game.size
        ]
        if all(game.stone_at(p) == colour for p in around):
            continue
        if game.is_legal(colour, (x, y)):
            return (x, y)
    return None


@dataclass
class Table:
    """One game being played by two bots and watched by spectators."""

    base: str
    black: Bot
    white: Bot
    spectator_count: int
    game_id: str = ""
    game: Game = field(default_factory=lambda: Game(BOARD))
    sockets: dict[str, Probe] = field(default_factory=dict)
    spectators: list[Probe] = field(default_factory=list)
    sent: dict[int, float] = field(default_factory=dict)  # v -> send time of the move that made it
    delivered: list[float] = field(default_factory=list)  # move -> last spectator, per finished game
    trips: list[tuple[float, float]] = field(default_factory=list)  # (sent, acked) of each move played

    async def open(self) -> None:
        self.game_id = await start_game(self.black, self.white)
        self.game = Game(BOARD)
        self.sent = {}
        ws = self.base.replace("http://", "ws://") + f"/ws/games/{self.game_id}"
        self.sockets = {
            "B": await Probe.open(ws, self.black.cookie),
            "W": await Probe.open(ws, self.white.cookie),
        }
        self.spectators = await open_many(ws, self.spectator_count)

    async def move(self, rng: random.Random) -> float | None:
        """Play one random legal move; its round trip, or None when the board is full (a new game starts)."""
        point = choose_move(self.game, rng)
        if point is None:
            await self.sockets[self.game.to_move].request({"t": "resign"})
            await self.close()
            await self.open()
            return None
        colour = self.game.to_move
        answer, sent, acked = await self.sockets[colour].request({"t": "play", "p": list(point)})
        if answer.get("t") != "ack":
            raise RuntimeError(f"move refused: {answer}")
        self.game.play(colour, point)
        self.sent[answer["v"]] = sent
        self.trips.append((sent, acked))
        return acked - sent

    def collect(self) -> None:
        for v, sent in self.sent.items():
            times = [s.arrivals.get(v) for s in self.spectators]
            arrived = [t for t in times if t is not None]
            if times and len(arrived) == len(times):
                self.delivered.append(max(arrived) - sent)
        self.sent = {}

    async def close(self) -> None:
        self.collect()
        for probe in [*self.sockets.values(), *self.spectators]:
            await probe.close()
        self.sockets, self.spectators = {}, []


async def paced(count: int, interval: float, offset: float, step: Callable[[], Awaitable[float | None]]) -> list[float]:
    """Call ``step()`` ``count`` times, one per ``interval`` from ``offset``; its non-None results."""
    start = clock() + offset
    out = []
    for i in range(count):
        delay = start + i * interval - clock()
        if delay > 0:
            await asyncio.sleep(delay)
        result = await step()
        if result is not None:
            out.append(result)
    return out


class TengenGames:
    """``--games`` tables of two bots and ``--spectators`` spectators each, played in paced rounds."""

    def __init__(self, base: str, args: argparse.Namespace, rng: random.Random) -> None:
        self.base, self.args = base, args
        self.rngs = [random.Random(rng.random()) for _ in range(args.games)]
        self.bots: list[Bot] = []
        self.tables: list[Table] = []
        self.rtts: list[float] = []

    async def open(self) -> None:
        self.bots = [await Bot(self.base).visit() for _ in range(2 * self.args.games)]
        self.tables = [
            Table(self.base, self.bots[2 * i], self.bots[2 * i + 1], self.args.spectators) for i in range(self.args.games)
        ]
        for table in self.tables:
            await table.open()
        await settle([p for t in self.tables for p in (*t.spectators, *t.sockets.values())], quiet=0.5)

    async def round(self, moves: int) -> list[float]:
        """``moves`` moves of every game at the paced rate; their round trips (also added to ``rtts``)."""
        interval = self.args.interval
        results = await asyncio.gather(
            *(
                paced(moves, interval, interval * i / len(self.tables), partial(t.move, r))
                for i, (t, r) in enumerate(zip(self.tables, self.rngs))
            )
        )
        rtts = [r for rs in results for r in rs]
        self.rtts.extend(rtts)
        await asyncio.sleep(0.5)
        return rtts

    async def close(self) -> list[float]:
        for table in self.tables:
            await table.close()
        for bot in self.bots:
            await bot.http.aclose()
        return [d for t in self.tables for d in t.delivered]


class PersistFloor:
    """As many sockets as ``TengenGames`` on the persist-echo floor, pairs of them sending at the same rate."""

    def __init__(self, port: int, args: argparse.Namespace) -> None:
        self.url, self.args = f"ws://127.0.0.1:{port}/", args
        self.players: list[Probe] = []
        self.idle: list[Probe] = []
        self.rtts: list[float] = []
        self.n = 0

    async def open(self) -> None:
        self.players = await open_many(self.url, 2 * self.args.games)
        self.idle = await open_many(self.url, self.args.games * self.args.spectators)

    async def _step(self, pair: tuple[Probe, Probe]) -> float:
        self.n += 1
        x, y = divmod(self.n % (BOARD * BOARD), BOARD)
        answer, sent, acked = await pair[self.n % 2].request({"t": "play", "p": [x, y]})
        assert answer.get("t") == "ack", answer
        return acked - sent

    async def round(self, moves: int) -> list[float]:
        """``moves`` messages from every pair at the paced rate; their round trips (also added to ``rtts``)."""
        interval = self.args.interval
        pairs = [(self.players[2 * i], self.players[2 * i + 1]) for i in range(self.args.games)]
        results = await asyncio.gather(
            *(paced(moves, interval, interval * i / len(pairs), partial(self._step, p)) for i, p in enumerate(pairs))
        )
        rtts = [r for rs in results for r in rs]
        self.rtts.extend(rtts)
        await asyncio.sleep(0.5)
        return rtts

    async def close(self) -> None:
        for probe in self.players + self.idle:
            await probe.close()


@dataclass(frozen=True)
class Costs:
    """Server CPU for capacity planning: an open idle socket (CPU seconds per second), and one delivery of a
    move to one spectator (CPU seconds: the fan-out game's server CPU per move, shared by its listeners)."""

    idle_socket: float
    delivery: float


async def run_fanout(
    base: str, pid: int, floor_port: int, floor_pid: int, args: argparse.Namespace, rng: random.Random, backends: Backends
) -> tuple[list[float], list[float], float, float, Costs]:
    """One Tengen game and the broadcast floor, each with ``--fanout-listeners`` listeners, moves alternating.

    Also the memory per idle socket of both servers: RSS growth while the listeners connect, per listener;
    and the server's CPU per idle socket and per delivered move (``Costs``).
    """
    black, white = await Bot(base).visit(), await Bot(base).visit()
    table = Table(base, black, white, 0)
    await table.open()
    await settle(list(table.sockets.values()), quiet=0.5)
    before = rss_kb(pid)
    ws = base.replace("http://", "ws://") + f"/ws/games/{table.game_id}"
    listeners = await open_many(ws, args.fanout_listeners)
    await settle(listeners, quiet=1.0)
    per_socket = (rss_kb(pid) - before) * 1024 / args.fanout_listeners
    # What the open sockets cost the server while nothing happens (pings, presence, clocks).
    idle_from = cpu_seconds(pid)
    await asyncio.sleep(args.idle_seconds)
    idle_cpu = (cpu_seconds(pid) - idle_from) / args.idle_seconds / (args.fanout_listeners + 2)

    floor_url = f"ws://127.0.0.1:{floor_port}/"
    sender = await Probe.open(floor_url)
    await asyncio.sleep(0.2)
    floor_before = rss_kb(floor_pid)
    floor_listeners = await open_many(floor_url, args.fanout_listeners)
    await asyncio.sleep(1.0)
    floor_per_socket = (rss_kb(floor_pid) - floor_before) * 1024 / args.fanout_listeners
    # This process now holds 2000 sockets: keep its own garbage collector from pausing it for tens of
    # milliseconds in the middle of a timed delivery (either server's).
    gc.collect()
    gc.freeze()

    times, floor_times = [], []
    tengen_cpu = 0.0
    await backends.join()
    for i in range(args.fanout_moves):
        colour = table.game.to_move
        point = choose_move(table.game, rng)
        assert point is not None
        cpu_from = cpu_seconds(pid)
        answer, sent, _ = await table.sockets[colour].request({"t": "play", "p": list(point)})
        if answer.get("t") != "ack":
            raise RuntimeError(f"move refused: {answer}")
        table.game.play(colour, point)
        times.append(await wait_delivered(listeners, answer["v"]) - sent)
        tengen_cpu += cpu_seconds(pid) - cpu_from
        await asyncio.sleep(0.05)
        answer, sent, _ = await sender.request({"t": "play", "p": [i % BOARD, i // BOARD % BOARD]})
        floor_times.append(await wait_delivered(floor_listeners, answer["v"]) - sent)
        await asyncio.sleep(0.05)
    for probe in [*listeners, sender, *floor_listeners]:
        await probe.close()
    await table.close()
    await black.http.aclose()
    await white.http.aclose()
    costs = Costs(idle_cpu, tengen_cpu / args.fanout_moves / args.fanout_listeners)
    return times, floor_times, per_socket, floor_per_socket, costs


LAG_HISTOGRAMS = ("tengen_event_loop_busy_lag_seconds", "tengen_event_loop_lag_seconds")


def loop_lag(base: str) -> dict[str, dict[float, float]]:
    """The server's event-loop lag histograms (busy, and wall-clock): name -> upper bound -> cumulative count."""
    return histograms(base, LAG_HISTOGRAMS)


def longest_stall_ms(before: dict[float, float], after: dict[float, float]) -> float:
    """The upper bound of the highest bucket a heartbeat fell in between two readings, in ms."""
    bounds = sorted(after)
    late = [b for b in bounds if after[b] - before.get(b, 0.0) > 0]
    if not late:
        return 0.0
    # Cumulative buckets: the highest bucket with new beats is the first bound already counting all of them.
    total = after[float("inf")] - before.get(float("inf"), 0.0)
    first_full = next(b for b in bounds if after[b] - before.get(b, 0.0) >= total)
    return first_full * 1000


@dataclass(frozen=True)
class Pair:
    """One matched pair of rounds: Tengen's move round trips and the persist-echo floor's, played one right
    after the other at the same rate through the same number of sockets, so both met the same disk."""

    tengen: list[float]
    floor: list[float]

    @property
    def ratio(self) -> float:
        return percentile(self.tengen, 50) / percentile(self.floor, 50)


@dataclass(frozen=True)
class RoundTrips:
    pairs: list[Pair]
    delivered: list[float]  # move -> last of its game's spectators
    stall_ms: float
    side: dict[str, int]

    @property
    def tengen(self) -> list[float]:
        return [r for pair in self.pairs for r in pair.tengen]

    @property
    def floor(self) -> list[float]:
        return [r for pair in self.pairs for r in pair.floor]


async def run_round_trips(
    base: str,
    persist_port: int,
    args: argparse.Namespace,
    rng: random.Random,
    backends: Backends,
) -> RoundTrips:
    """Tengen's games and the persist-echo floor in ``--rounds`` matched pairs of rounds (see ``matched_ratio``).

    The order alternates from pair to pair (Tengen first, then the floor first: ABBA ABBA ...), so that a
    drift of the machine within a pair favours neither side overall. A first pair of one move per game is
    played and not counted: both sides' database connections open on their first commits.

    Throughout, the side load (``room_side_load.py``) plays 19x19 games into scoring and logs in on the
    Tengen server; its event-loop heartbeat is read before and after: the longest stall, in ms. The stall is
    the busy one (the heartbeat's lateness capped at the CPU the loop's thread used meanwhile, so that
    waiting for a core on a busy machine is left out); ``late_ms`` is the wall-clock one."""
    games, floor = TengenGames(base, args, rng), PersistFloor(persist_port, args)
    await games.open()
    await floor.open()
    side = SideLoad(base, random.Random(rng.random()), lambda: Bot(base).visit(), start_game, choose_move, lambda: Game(BOARD))
    lag_before = await asyncio.to_thread(loop_lag, base)  # busy: the stalls of the server's own making
    await side.start()
    await backends.join()
    await games.round(1)  # the warm-up pair, not counted
    await floor.round(1)
    pairs = []
    done = 0
    for r in range(args.rounds):
        moves = (args.moves - done) // (args.rounds - r)
        done += moves
        await backends.join()
        if r % 2 == 0:
            tengen_rtts = await games.round(moves)
            floor_rtts = await floor.round(moves)
        else:
            floor_rtts = await floor.round(moves)
            tengen_rtts = await games.round(moves)
        pairs.append(Pair(tengen_rtts, floor_rtts))
    side_done = await side.stop()
    lag_after = await asyncio.to_thread(loop_lag, base)
    stall, late = (longest_stall_ms(lag_before[name], lag_after[name]) for name in LAG_HISTOGRAMS)
    await floor.close()
    delivered = await games.close()
    return RoundTrips(pairs, delivered, stall, {**side_done, "late_ms": round(late)})


def matched_ratio(pairs: list[Pair]) -> tuple[float, float, float, float]:
    """The median of the pairs' ratios (Tengen's p50 / the floor's p50, each pair's own), and an interval for
    it with its confidence: the k-th smallest and k-th largest ratio, k the largest for which the median of
    independent pairs falls outside them with probability at most 5% (a sign test: at least 95%, 97.9% for
    16 pairs); with fewer than 6 pairs, the smallest and largest, at the confidence they give.

    Each pair's two rounds ran one after the other, so the ratio of a pair compares the two servers on the
    same disk; the median of the ratios neither lets one pair with a slow disk decide the figure nor weighs
    rounds by how fast the disk happened to be, as a ratio of pooled percentiles would.
    """
    ratios = sorted(pair.ratio for pair in pairs)
    n = len(ratios)

    def outside(k: int) -> float:  # the chance that the median is below the k-th smallest or above the k-th largest
        return min(1.0, 2 * sum(math.comb(n, i) for i in range(k)) / 2**n)

    k = 1
    while k < n // 2 and outside(k + 1) <= 0.05:
        k += 1
    return statistics.median(ratios), ratios[k - 1], ratios[n - k], 1 - outside(k)


# ---------------------------------------------------------------- report


def ms(values: list[float]) -> str:
    return f"p50={percentile(values, 50) * 1000:.2f} ms p99={percentile(values, 99) * 1000:.2f} ms (n={len(values)})"


async def run(args: argparse.Namespace, favoured: Favoured | None) -> int:
    rng = random.Random(args.seed)
    async with bench_run(favoured) as bench:
        backends, database = bench.backends, bench.database
        with tempfile.TemporaryDirectory(prefix="tengen-bench-") as tmp:
            data_dir = Path(tmp)
            port, persist_port, broadcast_port = free_port(), free_port(), free_port()
            tengen = start_tengen(database, port, data_dir, **SIDE_LOAD_LOGINS)
            persist = start_floor("persist-echo", persist_port, data_dir, dsn_for(database))
            broadcast = start_floor("broadcast", broadcast_port, data_dir)
            bench.servers += [tengen, persist, broadcast]
            for server, p in zip(bench.servers, (port, persist_port, broadcast_port)):
                await wait_listening(server, p)
            base = f"http://127.0.0.1:{port}"
            print(
                f"machine: {os.cpu_count()} cores; games={args.games} spectators={args.spectators} "
                f"moves={args.moves} interval={args.interval}s fanout_listeners={args.fanout_listeners} "
                f"fanout_moves={args.fanout_moves}",
                flush=True,
            )
            try:
                fanout, floor_fanout, tengen_mem, floor_mem, costs = await run_fanout(
                    base, tengen.process.pid, broadcast_port, broadcast.process.pid, args, rng, backends
                )
                trips = await run_round_trips(base, persist_port, args, rng, backends)
            except Exception:
                print(tengen.tail(), file=sys.stderr)
                raise
            rate = args.games / args.interval
            side, stall_ms = trips.side, trips.stall_ms
            print(f"tengen move round trip (send -> ack), {args.games} games at {rate:.0f} moves/s: {ms(trips.tengen)}")
            print(f"floor  persist-echo round trip, same sockets and rate: {ms(trips.floor)}")
            rtt_ratio, low, high, confidence = matched_ratio(trips.pairs)
            pooled = percentile(trips.tengen, 50) / percentile(trips.floor, 50)
            print(
                f"round trip per pair of rounds (tengen p50 / floor p50), {len(trips.pairs)} pairs: median {rtt_ratio:.2f} "
                f"({confidence:.1%} interval {low:.2f}-{high:.2f}); pooled p50s: {pooled:.2f}; "
                + " ".join(f"{percentile(p.tengen, 50) * 1000:.2f}/{percentile(p.floor, 50) * 1000:.2f}" for p in trips.pairs)
                + " ms"
            )
            print(f"tengen move -> last of {args.spectators} spectators, same games: {ms(trips.delivered)}")
            print(f"tengen move -> last of {args.fanout_listeners} spectators: {ms(fanout)}")
            print(f"floor  broadcast() -> last of {args.fanout_listeners} listeners: {ms(floor_fanout)}")
            print(
                f"tengen memory per idle socket: {tengen_mem / 1024:.1f} KB (bare websockets server: {floor_mem / 1024:.1f} KB)"
            )
            print(
                f"tengen cpu per idle socket: {costs.idle_socket * 1e6:.1f} us/s; per delivery of a move to "
                f"one of {args.fanout_listeners} spectators: {costs.delivery * 1e6:.1f} us"
            )
            print(
                f"side load during the round trips: {side['scored_games']} 19x19 games scored "
                f"({side['scoring_failures']} failed), {side['logins']} log-ins ({side['logins_refused']} refused); "
                f"longest event-loop stall (10 ms heartbeat, bucket bound): {stall_ms:.0f} ms of the server's own "
                f"work, {side['late_ms']} ms counting the time it waited for a core"
            )
            fanout_ratio = percentile(fanout, 50) / percentile(floor_fanout, 50)
            print(
                f"rtt_ratio={rtt_ratio:.2f} fanout_ratio={fanout_ratio:.2f} idle_kb={tengen_mem / 1024:.1f} "
                f"stall_ms={stall_ms:.0f}",
                flush=True,
            )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_game_options(parser, moves_help="moves per game measured, shared among the pairs of rounds (default 32)")
    parser.set_defaults(moves=32)
    parser.add_argument("--fanout-listeners", type=int, default=1000, help="spectators of the fan-out game")
    parser.add_argument(
        "--fanout-moves",
        type=int,
        default=100,
        help="moves timed in the fan-out game (default 100: the median of 30 moved by 10%% between runs)",
    )
    parser.add_argument(
        "--rounds", type=int, default=16, help="matched pairs of a Tengen round and a persist-echo round (default 16)"
    )
    parser.add_argument(
        "--idle-seconds",
        type=float,
        default=5.0,
        help="seconds the fan-out game's sockets sit idle while the server's CPU is read",
    )
    parser.add_argument("--quick", action="store_true", help="a smoke run: 4 games, 2 spectators, 4 moves in 2 pairs")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.spectators, args.moves, args.interval, args.rounds = 4, 2, 4, 0.2, 2
        args.fanout_listeners, args.fanout_moves, args.idle_seconds = 50, 5, 1.0
    gc.set_threshold(50_000, 20, 20)  # the clients' own collector: see run_fanout
    return run_favoured("room-bench", lambda favoured: run(args, favoured))


if __name__ == "__main__":
    sys.exit(main())
