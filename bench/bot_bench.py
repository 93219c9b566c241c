"""One ``tengen bot`` bridge (GNU Go level 1) against many concurrent 9x9 games on this machine.

A ``tengen serve`` (SQLite, the in-process hub, house bots off) and one bridge for one bot account are
started; clients (one guest each, in this process) challenge the bot, wait for its acceptance and play:
random legal moves (never into their own eyes) for ``--moves`` turns with ``--think`` seconds each, then
passes, then they accept the score. Two phases in the same run:

    base    one game alone: the bot's response time with the machine otherwise as it is
    load    ``--games`` games at once against the same bridge

Reported per phase: games finished and how (score, resignation, ...), **games the bot lost on time** (the
figure that must be 0), and the bot's response time per move (from the event that gave it the turn to its
move, seen by the client) as p50 / p95 / max, with the load/base ratios. The clock is byo-yomi,
``--main`` seconds then 3 periods of ``--period`` seconds.

    nice -n 10 .venv/bin/python bench/bot_bench.py --games 50
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx

from tests.support.bot_opponent import Opponent, Outcome, challenge_bot
from tests.support.bot_processes import BridgeProcess, ServeProcess

PASSWORD = "correct horse battery staple"


async def setup_bot(url: str, games: int) -> tuple[str, str]:
    async with httpx.AsyncClient(base_url=url, timeout=30) as owner:
        response = await owner.post("/api/auth/register", json={"username": "benchowner", "password": PASSWORD})
        assert response.status_code == 201, response.text
        accepts = {"board_sizes": [9], "max_games": games}
        bot = (await owner.post("/api/bots", json={"name": "benchbot", "accepts": accepts})).json()
        token = (await owner.post("/api/tokens", json={"name": "bench", "user_id": bot["id"]})).json()["token"]
        return bot["name"], token


async def one_game(url: str, ws_url: str, bot: str, opts: argparse.Namespace, seed: int) -> Outcome:
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        await http.post("/api/guest")
        tc = {"kind": "byoyomi", "main": opts.main, "periods": 3, "period_time": opts.period}
        game_id = await challenge_bot(
            http, bot, timeout=120, board_size=9, time_control=tc, color="black" if seed % 2 else "white"
        )
        cookie = "; ".join(f"{name}={value}" for name, value in http.cookies.items())
        return await Opponent(ws_url, cookie, game_id, moves=opts.moves, think=opts.think, seed=seed).play(3600)


def summary(name: str, outcomes: list[Outcome], seconds: float) -> dict[str, float]:
    times = sorted(t for o in outcomes for t in o.response_times)
    reasons = Counter((o.result or {}).get("reason", "unfinished") for o in outcomes)
    lost_on_time = sum(1 for o in outcomes if o.result and o.result["reason"] == "timeout" and o.result["winner"] != o.bot_color)
    p50 = statistics.median(times) if times else float("nan")
    p95 = times[int(0.95 * (len(times) - 1))] if times else float("nan")
    worst = times[-1] if times else float("nan")
    print(
        f"{name}: games={len(outcomes)} endings={dict(reasons)} bot_lost_on_time={lost_on_time} "
        f"bot_moves={len(times)} response_s p50={p50:.2f} p95={p95:.2f} max={worst:.2f} wall_s={seconds:.0f}"
    )
    return {"p50": p50, "p95": p95, "max": worst, "lost": lost_on_time}


async def run(opts: argparse.Namespace, workdir: Path) -> int:
    server = ServeProcess(workdir).start()
    bridge = None
    try:
        bot, token = await setup_bot(server.url, opts.games)
        bridge = BridgeProcess(server.url, token, workdir / "bridge.log", level=1).start()
        started = time.monotonic()
        base = [await one_game(server.url, server.ws_url, bot, opts, 0)]
        base_figures = summary("base", base, time.monotonic() - started)
        started = time.monotonic()
        load = await asyncio.gather(*(one_game(server.url, server.ws_url, bot, opts, n + 1) for n in range(opts.games)))
        load_figures = summary("load", list(load), time.monotonic() - started)
        print(
            f"ratios load/base: p50={load_figures['p50'] / base_figures['p50']:.2f} "
            f"p95={load_figures['p95'] / base_figures['p95']:.2f} max={load_figures['max'] / base_figures['max']:.2f}"
        )
        code = bridge.terminate()
        print(f"bridge exit code after SIGTERM: {code}")
        return 0 if load_figures["lost"] == 0 and base_figures["lost"] == 0 else 1
    finally:
        if bridge is not None:
            bridge.kill()
        server.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--moves", type=int, default=25, help="random moves each client plays before passing")
    parser.add_argument("--think", type=float, default=0.5, help="seconds each client waits before its move")
    parser.add_argument("--main", type=int, default=60, help="main time (s)")
    parser.add_argument("--period", type=int, default=10, help="byo-yomi period (s), 3 periods")
    parser.add_argument("--workdir", type=Path, default=None, help="keep the server's and the bridge's logs here")
    opts = parser.parse_args()
    if opts.workdir is not None:
        opts.workdir.mkdir(parents=True, exist_ok=True)
        return asyncio.run(run(opts, opts.workdir))
    with tempfile.TemporaryDirectory(prefix="tengen-bot-bench-") as tmp:
        return asyncio.run(run(opts, Path(tmp)))


if __name__ == "__main__":
    sys.exit(main())
