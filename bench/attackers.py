"""The attacker process of ``attack_bench.py``: clients that push at a Tengen server, as fast as its caps let
them, for a set number of seconds, while the bench's players play.

- wrong passwords at one account (``victim``) and at made-up names (``--login-workers`` clients), answered
  401, then 429;
- refused actions: ``--refusers`` spectator sockets, each a guest of its own, sending moves at the socket
  rate (10/s), all refused (``not_a_player``), and as many chat lines, refused past the chat limit per user;
- lobby pings from ``--lobby-sockets`` sockets at the lobby rate.

Every attacking client sends client addresses of its own in ``X-Forwarded-For`` (a new one for each log-in
attempt), believed by a server told to trust the bench as a proxy. All clients connect first, then start
together; the process prints ``ready`` at the start and, at the end, one line of JSON: the answers counted
by kind and the first errors.

    .venv/bin/python bench/attackers.py BASE_URL GAME_ID... [--seconds 10] [--login-workers 8]
        [--refusers 40] [--lobby-sockets 20]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import httpx
import orjson
import websockets


class Start:
    """Every attacker connects first; the attack starts for all at once, and lasts ``seconds`` from then."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.go = asyncio.Event()
        self.stop = 0.0
        self.waiting = 0

    async def wait(self) -> float:
        self.waiting += 1
        await self.go.wait()
        return self.stop


class Addresses:
    """Made-up client addresses, one per attacking client and log-in attempt (10.0.0.1, 10.0.0.2, ...): the
    server believes the bench's ``X-Forwarded-For`` (``TENGEN_TRUSTED_PROXIES``), as it would a proxy's."""

    def __init__(self, first: int) -> None:
        self.n = first

    def next(self) -> dict[str, str]:
        self.n += 1
        return {"X-Forwarded-For": f"10.{self.n >> 16 & 255}.{self.n >> 8 & 255}.{self.n & 255}"}


async def _logins(base: str, start: Start, counts: Counter[str], addresses: Addresses) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        n = 0
        stop = await start.wait()
        while time.monotonic() < stop:
            n += 1
            name = "victim" if n % 2 else f"nobody{addresses.n}x{n}"
            body = {"username": name, "password": f"guess-{n}"}
            response = await client.post("/api/auth/login", json=body, headers=addresses.next())
            counts[f"login {response.status_code}"] += 1


async def _socket(
    url: str, headers: dict[str, str], start: Start, counts: Counter[str], rate: float, message: Callable[[int], dict]
) -> None:
    """One socket sending ``message(n)`` at ``rate`` per second while the attack lasts; answers are counted."""
    async with websockets.connect(url, additional_headers=headers, max_size=2**22, open_timeout=60) as ws:

        async def read() -> None:
            with contextlib.suppress(websockets.ConnectionClosed):
                async for raw in ws:
                    answer = orjson.loads(raw)
                    if answer.get("t") in ("ack", "error", "pong"):
                        counts[f"ws {answer.get('code') or answer['t']}"] += 1

        reader = asyncio.create_task(read())
        n = 0
        stop = await start.wait()
        with contextlib.suppress(websockets.ConnectionClosed):
            while time.monotonic() < stop:
                n += 1
                await ws.send(orjson.dumps(message(n)).decode())
                await asyncio.sleep(1 / rate)
        reader.cancel()


def _refused(n: int) -> dict:
    """A spectator's move (refused: ``not_a_player``) and chat line (refused past the chat limit), in turn."""
    if n % 2:
        return {"t": "play", "id": f"x{n}", "p": [n % 19, (n // 19) % 19]}
    return {"t": "chat", "id": f"x{n}", "channel": "spectators", "text": f"spam {n}"}


async def _refuser(base: str, game_id: str, start: Start, counts: Counter[str], address: dict[str, str]) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=60, headers=address) as client:
        for _ in range(10):  # as a browser would: after a 503, again once its Retry-After has passed
            started = await client.post("/api/guest")
            counts[f"guest {started.status_code}"] += 1
            if started.status_code != 503:
                break
            await asyncio.sleep(float(started.headers.get("retry-after", "1")))
        started.raise_for_status()
        cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
    url = base.replace("http://", "ws://") + f"/ws/games/{game_id}"
    await _socket(url, {"Cookie": cookie, **address}, start, counts, 9.5, _refused)


async def attack(base: str, game_ids: list[str], seconds: float, args: argparse.Namespace) -> None:
    counts: Counter[str] = Counter()
    start = Start(seconds)
    # Each attacking client from addresses of its own, apart from every other's (and from the players').
    blocks = (Addresses(i << 16) for i in itertools.count(1))
    lobby = base.replace("http://", "ws://") + "/ws/lobby"
    tasks = [_logins(base, start, counts, next(blocks)) for _ in range(args.login_workers)]
    tasks += [_refuser(base, game_ids[i % len(game_ids)], start, counts, next(blocks).next()) for i in range(args.refusers)]
    tasks += [
        _socket(lobby, next(blocks).next(), start, counts, 1.9, lambda n: {"t": "ping", "id": f"p{n}"})
        for _ in range(args.lobby_sockets)
    ]
    running = asyncio.gather(*tasks, return_exceptions=True)
    connecting = time.monotonic() + 90
    while start.waiting < len(tasks) and not running.done() and time.monotonic() < connecting:
        await asyncio.sleep(0.2)
    start.stop = time.monotonic() + seconds
    start.go.set()
    print("ready", flush=True)
    results = await running
    errors = [r for r in results if isinstance(r, BaseException)]
    print(json.dumps({"counts": dict(counts), "errors": [repr(e) for e in errors[:3]]}), flush=True)


def launch(base: str, game_ids: list[str], seconds: float, args: argparse.Namespace, log: Path) -> subprocess.Popen[bytes]:
    """The attacker process against ``base`` for ``seconds``, its output in ``log``; ``args`` holds how many
    clients of each kind (``add_options``)."""
    command = [sys.executable, __file__, base, *game_ids, "--seconds", str(seconds)]
    for option in ("login_workers", "refusers", "lobby_sockets"):
        command += [f"--{option.replace('_', '-')}", str(getattr(args, option))]
    return subprocess.Popen(command, cwd=Path(__file__).parent, stdout=log.open("wb"), stderr=subprocess.STDOUT)


def add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--login-workers", type=int, default=8, help="attacking log-in clients (default 8)")
    parser.add_argument("--refusers", type=int, default=40, help="attacking game sockets (default 40)")
    parser.add_argument("--lobby-sockets", type=int, default=20, help="attacking lobby sockets (default 20)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("base", help="the server's address (http://host:port)")
    parser.add_argument("game_ids", nargs="+", help="the games the refusing spectators watch")
    parser.add_argument("--seconds", type=float, default=10.0, help="how long the attack lasts once all are in")
    add_options(parser)
    args = parser.parse_args(argv)
    asyncio.run(attack(args.base, args.game_ids, args.seconds, args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
