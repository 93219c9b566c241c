"""The KataGo house bots on a blitz clock: games lost on time (the figure that must be 0), per step.

A ``tengen serve`` with KataGo (SQLite, the in-process hub; TENGEN_ENGINES_DIR names the installed engine) and
one ``tengen house-bots`` process for the steps asked for, as the server starts them (``app/bots/house.py``:
the same seats, GNU Go at level 0 as the fallback where installed). For each step, ``--games`` games against a
client playing random legal moves (never into its own eyes), colours alternating, ``--concurrent`` at a time:
on 9x9 it plays ``--moves`` moves then passes and accepts the score; on bigger boards it resigns after
``--moves`` moves (a whole 19x19 game is minutes of this machine's CPU). The clock is byo-yomi, ``--main``
seconds then 3 periods of ``--period`` seconds.

Reported per step: games and how they ended, **games the bot lost on time**, the bot's moves, the moves its
fallback gave (its log's "no move within the budget"), and the bot's response time per move (p50, max, from the
event that gave it the turn to its move, seen by the client). The last line is key=value totals.

    TENGEN_ENGINES_DIR=~/.cache/tengen-tests/engines flock /work/heavy.lock \\
        python bench/bot_blitz.py --size 9 --games 10 --steps Kata-25k,Kata-11k
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx

from app.bots.house import KATAGO_BOTS, HouseBot, HouseBots, find_gnugo, prepare
from app.settings import Settings
from tests.support.bot_opponent import Opponent, Outcome, challenge_bot
from tests.support.bot_processes import ServeProcess

FALLBACK_LINE = "no move within the budget"


class Resigner(Opponent):
    """Random moves, then a resignation instead of passes: a sample of a big board's game."""

    async def _act(self, ws: Any) -> None:
        if self.moves_left <= 0 and self.phase == "playing" and self.to_move == self.me and self.outcome.result is None:
            self._ids += 1
            await ws.send(json.dumps({"t": "resign", "id": f"o{self._ids}"}))
            self.to_move = ""
            return
        await super()._act(ws)


async def one_game(server: ServeProcess, bot: str, opts: argparse.Namespace, seed: int) -> Outcome:
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        await http.post("/api/guest")
        clock = {"kind": "byoyomi", "main": opts.main, "periods": 3, "period_time": opts.period}
        colour = "black" if seed % 2 else "white"
        game_id = await challenge_bot(http, bot, timeout=120, board_size=opts.size, rated=False, time_control=clock, color=colour)
        cookie = "; ".join(f"{name}={value}" for name, value in http.cookies.items())
        kind = Opponent if opts.size == 9 else Resigner
        return await kind(server.ws_url, cookie, game_id, moves=opts.moves, seed=seed).play(3600)


async def step_games(server: ServeProcess, bot: HouseBot, opts: argparse.Namespace) -> list[Outcome]:
    gate = asyncio.Semaphore(opts.concurrent)

    async def gated(seed: int) -> Outcome:
        async with gate:
            return await one_game(server, bot.name, opts, seed)

    seeds = range(opts.first_seed, opts.first_seed + opts.games)  # a run can go on where another ended
    return list(await asyncio.gather(*(gated(seed) for seed in seeds)))


def report(name: str, outcomes: list[Outcome], fallbacks: int) -> dict[str, int]:
    times = sorted(t for o in outcomes for t in o.response_times)
    endings = Counter((o.result or {}).get("reason", "unfinished") for o in outcomes)
    lost = sum(1 for o in outcomes if o.result and o.result["reason"] == "timeout" and o.result["winner"] != o.bot_color)
    p50 = statistics.median(times) if times else float("nan")
    worst = times[-1] if times else float("nan")
    print(
        f"{name:<14} games={len(outcomes)} endings={dict(endings)} lost_on_time={lost} bot_moves={len(times)} "
        f"fallback_moves={fallbacks} response_s p50={p50:.2f} max={worst:.2f}",
        flush=True,
    )
    return {"games": len(outcomes), "lost": lost, "moves": len(times), "fallbacks": fallbacks}


async def run(opts: argparse.Namespace, workdir: Path) -> int:
    wanted = [name.strip() for name in opts.steps.split(",") if name.strip()]
    bots = [bot for bot in KATAGO_BOTS if bot.name in wanted]
    if len(bots) != len(wanted):
        raise SystemExit(f"unknown steps in {opts.steps!r}; steps: {', '.join(bot.name for bot in KATAGO_BOTS)}")
    engines = os.environ.get("TENGEN_ENGINES_DIR", str(Path.home() / ".cache" / "tengen-tests" / "engines"))
    server = ServeProcess(
        workdir,
        TENGEN_KATAGO="true",
        TENGEN_ENGINES_DIR=engines,
        TENGEN_KATAGO_BUFFERS=f"[{opts.size}]",
        TENGEN_KATAGO_MEASURE_VISITS="2",
    ).start()
    house = None
    try:
        tokens = await prepare(Settings(env="test", data_dir=workdir), tuple(bots))
        house = HouseBots(find_gnugo("gnugo"), server.url, tokens, workdir / "house-bots")
        house.start()
        began = time.monotonic()
        totals: Counter[str] = Counter()
        print(f"{opts.size}x{opts.size}, byo-yomi {opts.main} s + 3 x {opts.period} s, {opts.concurrent} game(s) at once")
        for bot in bots:
            outcomes = await step_games(server, bot, opts)
            log = workdir / "house-bots" / f"{bot.name}.log"
            fallbacks = log.read_text(errors="replace").count(FALLBACK_LINE) if log.exists() else 0
            totals.update(report(bot.name, outcomes, fallbacks))
        print(
            f"size={opts.size} steps={len(bots)} games={totals['games']} bot_moves={totals['moves']} "
            f"lost_on_time={totals['lost']} fallback_moves={totals['fallbacks']} seconds={time.monotonic() - began:.0f}"
        )
        return 0 if totals["lost"] == 0 else 1
    finally:
        if house is not None:
            house.stop()
        server.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, default=9, choices=(9, 13, 19))
    parser.add_argument("--steps", default="Kata-25k,Kata-11k,Kata-1k,Kata-Policy,Kata-Search,Kata-Sparring")
    parser.add_argument("--games", type=int, default=10, help="games per step")
    parser.add_argument("--concurrent", type=int, default=2, help="games of a step at once")
    parser.add_argument("--moves", type=int, default=30, help="the client's random moves before it passes (9x9) or resigns")
    parser.add_argument("--main", type=int, default=30, help="main time (s)")
    parser.add_argument("--period", type=int, default=5, help="byo-yomi period (s), 3 periods")
    parser.add_argument("--first-seed", type=int, default=0, help="the first game's seed (colours alternate by it)")
    parser.add_argument("--workdir", type=Path, default=None, help="keep the server's and the bots' logs here")
    opts = parser.parse_args()
    if opts.workdir is not None:
        opts.workdir.mkdir(parents=True, exist_ok=True)
        return asyncio.run(run(opts, opts.workdir))
    with tempfile.TemporaryDirectory(prefix="tengen-bot-blitz-") as tmp:
        return asyncio.run(run(opts, Path(tmp)))


if __name__ == "__main__":
    sys.exit(main())
