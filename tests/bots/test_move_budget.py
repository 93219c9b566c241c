"""A bot keeps each move within the budget its clock and its pace give it, with real GNU Go through ``tengen bot``.

The issue's case, made plain: on a 10-minute 9x9 clock GNU Go believes it has all the time it wants, and at
level 20 it takes 20 to 80 s a move. The bridge plays at a pace of 1 s a move (``--max-think``, as the house
bots do): GNU Go is stopped after that budget and its grace, and the fallback engine (GNU Go at level 0) gives
the move. Every move's time is read from the server's own clock and must stay within the budget and grace,
with a generous allowance for the fallback, the network and a busy machine.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from app.bots import clocks
from tests.bots.accounts import make_bot, register
from tests.support.bot_opponent import Opponent, challenge_bot
from tests.support.bot_processes import BridgeProcess, ServeProcess
from tests.support.services import GNUGO, need_gnugo

TEN_MINUTES = {"kind": "byoyomi", "main": 600, "periods": 3, "period_time": 30}
PACE = 1.0  # --max-think
# Seconds a move may take beyond its budget and grace: the fallback engine's start, replay and move, the
# network and a loaded machine. GNU Go at level 20 takes 20 s or more for a 9x9 move.
ALLOWANCE = 2.5
BOT_MOVES = 10


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServeProcess]:
    need_gnugo()
    process = ServeProcess(tmp_path).start()
    yield process
    process.stop()


def bot_move_spending(events: list[dict], bot: str) -> list[tuple[int, float, float]]:
    """(moves played before it, the bot's main time when its turn began, the seconds the move took) of each
    move or pass of the bot, from the server's clocks (still in main time: what it lost is what it took)."""
    out = []
    before: float | None = None
    played = 0
    for event in events:
        if event["t"] not in ("move", "pass"):
            continue
        main = float(event["clocks"][bot]["main"])
        if event["color"] == bot and before is not None:
            out.append((played, before, before - main))
        before = main
        played += 1
    return out


async def test_each_move_comes_within_its_budget_and_the_bot_never_flags(server: ServeProcess, tmp_path: Path) -> None:
    async with httpx.AsyncClient(base_url=server.url) as owner, httpx.AsyncClient(base_url=server.url) as player:
        await register(owner)
        bot, token = await make_bot(owner, board_sizes=[9], max_games=1)
        await player.post("/api/guest")
        extra = ["--max-think", str(PACE), "--fallback-gtp", f"{GNUGO} --mode gtp --level 0"]
        bridge = BridgeProcess(server.url, token, tmp_path / "bridge.log", level=20, extra=extra).start()
        try:
            game_id = await challenge_bot(player, bot["name"], board_size=9, time_control=TEN_MINUTES, color="black")
            cookie = "; ".join(f"{name}={value}" for name, value in player.cookies.items())
            opponent = Opponent(server.ws_url, cookie, game_id, moves=60, seed=11)
            playing = asyncio.create_task(opponent.play(400))

            async def bot_moves_reach(count: int) -> None:
                while opponent.outcome.bot_moves < count and not playing.done():
                    await asyncio.sleep(0.05)

            await asyncio.wait_for(bot_moves_reach(BOT_MOVES), 40 * BOT_MOVES)
            playing.cancel()
        finally:
            bridge.terminate()
    log = bridge.log_text()
    outcome = opponent.outcome
    assert outcome.result is None or outcome.result["reason"] != "timeout", (outcome.result, log[-3000:])
    moves = [event for event in outcome.events if event["t"] in ("move", "pass")]
    assert all(event["t"] == "move" for event in moves), log[-3000:]  # no move given up for want of time
    spending = bot_move_spending(outcome.events, outcome.bot_color)
    assert len(spending) >= BOT_MOVES - 1, log[-3000:]
    for played, main, spent in spending:
        clock = {"main": main, "period_left": None}
        plan = clocks.budget(
            TEN_MINUTES, clock, outcome.bot_color, 0.0, 1.0, 30.0, board_size=9, moves_played=played, max_think=PACE
        )
        assert spent <= plan.wait + ALLOWANCE, (played, main, spent, plan, log[-3000:])
    assert "asking the fallback engine" in log  # GNU Go at level 20 did overrun, and was stopped
