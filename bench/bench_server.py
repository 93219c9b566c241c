"""What the benches that start Tengen servers share: the server's settings, its process, the run's database.

- ``server_env``: the product's default settings (limits included), but for what the bench's clients need
  because they all come from one address (``ONE_ADDRESS``) and what a bench raises for a reason of its own,
  which it passes, and says, itself;
- ``start_tengen`` / ``wait_listening``: one ``tengen serve`` process on a loopback port; ``histograms``
  reads its metrics;
- ``bench_run``: a PostgreSQL database of the run's own (created, then dropped once the run's servers are
  stopped), whose backends join the bench's CPU group on ``Backends.join()``; ``new_database_name`` and
  ``new_redis_prefix`` name a database and a Redis prefix;
- ``add_game_options`` and ``run_favoured``: the options of paced games (the room and attack benches) and
  running a bench inside its CPU group (``cpu_groups.Favoured``).

Used by ``room_bench.py``, ``attack_bench.py`` and ``scale_bench.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg
import httpx

from cpu_groups import Favoured

ROOT = Path(__file__).resolve().parent.parent
ADMIN_DSN = os.environ.get("TENGEN_BENCH_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")

# Every client of a bench connects from 127.0.0.1: the players and spectators of 100 games hold more sockets
# than the cap per address allows one household (100). The only limit every bench raises.
ONE_ADDRESS = {"TENGEN_SOCKETS_PER_ADDRESS": "0"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def dsn_for(database: str) -> str:
    base, _, _ = ADMIN_DSN.rpartition("/")
    return f"{base}/{database}"


def new_database_name() -> str:
    return f"tengen_bench_{uuid.uuid4().hex[:12]}"


def new_redis_prefix() -> str:
    return f"tengen-bench-{uuid.uuid4().hex[:12]}:"


def server_env(**extra: str) -> dict[str, str]:
    """The ``TENGEN_*`` settings of a bench's server: the product's defaults, ``ONE_ADDRESS``, then ``extra``."""
    return {"TENGEN_LOG_LEVEL": "warning", "TENGEN_REDIS_URL": "", **ONE_ADDRESS, **extra}


# ---------------------------------------------------------------- the server process


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    log: Path

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def tail(self) -> str:
        return self.log.read_text(errors="replace")[-3000:] if self.log.exists() else ""


def start_tengen(database: str, port: int, data_dir: Path, **extra: str) -> Server:
    """``tengen serve`` on ``database``, listening on 127.0.0.1:``port``, with ``server_env(**extra)``."""
    env = dict(os.environ)
    env.update(
        TENGEN_DATABASE_URL=dsn_for(database),
        TENGEN_PORT=str(port),
        TENGEN_HOST="127.0.0.1",
        TENGEN_DATA_DIR=str(data_dir),
        TENGEN_SECRET_KEY=uuid.uuid4().hex * 2,
    )
    env.update(server_env(**extra))
    log = data_dir / "tengen.log"
    process = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve"],
        cwd=ROOT,
        env=env,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )
    return Server(process, log)


async def wait_listening(server: Server, port: int, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"server exited early:\n{server.tail()}")
        with contextlib.suppress(OSError):
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            return
        await asyncio.sleep(0.1)
    raise RuntimeError(f"server did not listen on {port}:\n{server.tail()}")


def histograms(base: str, names: tuple[str, ...]) -> dict[str, dict[float, float]]:
    """Histograms from the server's ``/metrics``: name -> upper bound -> cumulative count."""
    out: dict[str, dict[float, float]] = {name: {} for name in names}
    for line in httpx.get(f"{base}/metrics", timeout=30).text.splitlines():
        name = line.split("_bucket{", 1)[0]
        if name in out and "_bucket{" in line:
            bound = line.split('le="', 1)[1].split('"', 1)[0]
            out[name][float("inf") if bound == "+Inf" else float(bound)] = float(line.rsplit(" ", 1)[1])
    return out


# ---------------------------------------------------------------- the run's database


class Backends:
    """The PostgreSQL backends serving the bench's database, moved into the bench's CPU group (if it has one)
    whenever ``join()`` is called: the servers open connections as they need them."""

    def __init__(self, favoured: Favoured | None, admin: asyncpg.Connection, database: str) -> None:
        self.favoured, self.admin, self.database = favoured, admin, database

    async def join(self) -> None:
        if self.favoured is None:
            return
        rows = await self.admin.fetch("SELECT pid FROM pg_stat_activity WHERE datname = $1", self.database)
        self.favoured.add([row["pid"] for row in rows])


@dataclass
class BenchRun:
    """The run's database (``backends.database``) and the servers started on it (``servers``)."""

    backends: Backends
    servers: list[Server]

    @property
    def database(self) -> str:
        return self.backends.database


@contextlib.asynccontextmanager
async def bench_run(favoured: Favoured | None) -> AsyncIterator[BenchRun]:
    """A new database on ``ADMIN_DSN``'s server for the run; at the end, every server the run lists in
    ``servers`` is stopped, then the database is dropped."""
    database = new_database_name()
    admin = await asyncpg.connect(ADMIN_DSN)
    run = BenchRun(Backends(favoured, admin, database), [])
    try:
        await admin.execute(f'CREATE DATABASE "{database}"')
        yield run
    finally:
        for server in run.servers:
            server.stop()
        with contextlib.suppress(Exception):
            await admin.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        await admin.close()


# ---------------------------------------------------------------- options and the CPU group


def add_game_options(parser: argparse.ArgumentParser, moves_help: str) -> None:
    """``--games``, ``--spectators``, ``--moves``, ``--interval`` and ``--seed`` of paced games."""
    parser.add_argument("--games", type=int, default=100, help="concurrent games (default 100)")
    parser.add_argument("--spectators", type=int, default=5, help="spectators per game (default 5)")
    parser.add_argument("--moves", type=int, default=20, help=moves_help)
    parser.add_argument("--interval", type=float, default=1.0, help="seconds between two moves of a game")
    parser.add_argument("--seed", type=int, default=1)


def run_favoured(label: str, run: Callable[[Favoured | None], Coroutine[Any, Any, int]]) -> int:
    """``run(favoured)`` on a new event loop, inside a CPU group of the bench's own (``cpu_groups.Favoured``)."""
    favoured = Favoured.enter(label)
    try:
        return asyncio.run(run(favoured))
    finally:
        if favoured is not None:
            favoured.close()
