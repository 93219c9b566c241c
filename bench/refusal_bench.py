"""What a refused message costs the event loop on a game socket, against a ping, in one process.

A flood of refused messages (a spectator's moves, chat past the chat limit) is what an attacker can send
at the socket's rate from every socket it opens. The bench times the game socket's handling of one client
frame, as ``app/api/routers/game_ws.py`` does it for each frame it reads: the decision (``_handle``), the
refusal's count (``tengen_errors_total``, and towards slowing the socket down) and the reply's bytes. Three
kinds of frame, ``--frames`` each, the least of ``--repeats`` batches: a spectator's ``play`` (refused
``not_a_player``), a guest's chat line past the chat limit (``chat_rate_limited``), and a ``ping`` (answered
``pong``: the cheapest message a socket is answered, for comparison). No sockets, no database: the frame's
reading and the reply's writing by the server, the same for every message, are not in it. Prints the cost
of each in microseconds and, last, ``refusal_ratio=<refused move / ping>``.

    .venv/bin/python bench/refusal_bench.py [--frames 5000] [--repeats 7]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import orjson

from app.transport.room_deps import RoomDeps
from app.api.routers import game_ws
from app.api.socket_admission import Acting
from app.games.live.outcome import Outcome
from app.games.live.room import Room
from app.limits.counters import MemoryCounters
from app.limits.rules import Limiter, Rule
from app.metrics import Metrics
from app.transport.connection import Connection
from app.transport.credential_sweep import CredentialSweep
from app.transport.credentials import Credential
from app.transport.memory_hub import MemoryHub
from app.transport.sockets import SocketRegistry, Ticket

USER = 7


async def _nothing(*_args: object) -> None:
    return None


async def _still_valid(_tickets: list[Ticket]) -> list[Any]:
    return []


async def per_frame(frames: list[str], state: Any, room: Room, metrics: Metrics, repeats: int) -> float:
    """Microseconds per frame through the socket's handling, the least of ``repeats`` batches."""
    best = float("inf")
    # The guest's session credential, its instance's last reading of it fresh (as in the normal course).
    ticket = Ticket(USER, "127.0.0.1", _nothing, credential=Credential(USER, session_version=1))
    acting = Acting(ticket, CredentialSweep(SocketRegistry(0, 0), _still_valid, interval=3600.0))
    for _ in range(repeats):
        conn = Connection(_nothing, _nothing, user_id=USER, user_name="spectator", role=None)
        conn.messages.tokens = conn.messages.burst = float(len(frames) + 1)  # under the socket's rate
        started = time.perf_counter()
        for raw in frames:
            reply, kind = await game_ws._handle(room, conn, acting, raw, state, True)
            if isinstance(reply, Outcome):
                game_ws._observe(metrics, kind, reply, 0.0)
                conn.refused_for(reply.code)
                reply = reply.encode()
            assert reply is not None
            reply.decode()
        best = min(best, (time.perf_counter() - started) / len(frames) * 1e6)
    return best


async def run(args: argparse.Namespace) -> int:
    metrics = Metrics()
    room = Room("bench", RoomDeps(MemoryHub(), None))  # type: ignore[arg-type]  # refused before the room reads anything
    limiter = Limiter(MemoryCounters())
    settings = SimpleNamespace(chat_lines=4, new_account_chat_lines=2, chat_window=3600)
    for _ in range(settings.new_account_chat_lines):  # the guest's lines of this window are said
        await limiter.allow(Rule("chat", settings.new_account_chat_lines, settings.chat_window), USER)
    state = SimpleNamespace(settings=settings, limiter=limiter, sessionmaker=None)
    n = args.frames
    kinds = {
        "refused move": [orjson.dumps({"t": "play", "id": f"m{i}", "p": [i % 19, 3]}).decode() for i in range(n)],
        "refused chat": [
            orjson.dumps({"t": "chat", "id": f"c{i}", "channel": "spectators", "text": f"line {i}"}).decode() for i in range(n)
        ],
        "ping": [orjson.dumps({"t": "ping", "id": f"p{i}"}).decode() for i in range(n)],
    }
    costs = {name: await per_frame(frames, state, room, metrics, args.repeats) for name, frames in kinds.items()}
    for name, cost in costs.items():
        print(f"{name}: {cost:.2f} us a frame")
    print(f"refusal_ratio={costs['refused move'] / costs['ping']:.2f}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=5000)
    parser.add_argument("--repeats", type=int, default=7)
    return asyncio.run(run(parser.parse_args(argv)))


if __name__ == "__main__":
    raise SystemExit(main())
