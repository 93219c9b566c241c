"""A bot keeps each move within the budget its clock gives it, with real GNU Go through ``tengen bot``.

GNU Go at level 16 thinks for seconds on a busy 19x19 board; on a fast Fischer clock (10 s and 0.5 s a move)
each move's budget is about half a second. Every move the bot makes must come within that budget and its grace
(the engine is stopped then and the fallback engine, GNU Go at level 0, gives the move), measured on the
server's own clock, with a generous allowance for the fallback, the network and a busy machine; and the bot
never loses on time.
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

INCREMENT = 0.5
FAST = {"kind": "fischer", "main": 10, "increment": INCREMENT}
# Seconds a move may take beyond its budget and grace: the fallback engine's start, replay and move, the
# network and a loaded machine. A level-16 move on a busy board takes about 5 s.
ALLOWANCE = 2.5


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServeProcess]:
    need_gnugo()
    process = ServeProcess(tmp_path).start()
    yield process
    process.stop()


def bot_move_spending(events: list[dict], bot: str) -> list[tuple[int, float, float]]:
    """(moves played before it, the bot's main time when its turn began, the seconds the move took) of each
    move or pass of the bot, from the server's clocks (Fischer: the increment comes back after the move)."""
    out = []
    before: float | None = None
    played = 0
    for event in events:
        if event["t"] not in ("move", "pass"):
            continue
        main = float(event["clocks"][bot]["main"])
        if event["color"] == bot and before is not None:
            out.append((played, before, before + INCREMENT - main))
        before = main
        played += 1
    return out


async def test_each_move_comes_within_its_budget_and_the_bot_never_flags(server: ServeProcess, tmp_path: Path) -> None:
    async with httpx.AsyncClient(base_url=server.url) as owner, httpx.AsyncClient(base_url=server.url) as player:
        await register(owner)
        bot, token = await make_bot(owner, board_sizes=[19], min_move_seconds=0, max_games=1)
        await player.post("/api/guest")
        extra = ["--fallback-gtp", f"{GNUGO} --mode gtp --level 0"]
        bridge = BridgeProcess(server.url, token, tmp_path / "bridge.log", level=16, extra=extra).start()
        try:
            game_id = await challenge_bot(player, bot["name"], board_size=19, time_control=FAST, color="black")
            cookie = "; ".join(f"{name}={value}" for name, value in player.cookies.items())
            opponent = Opponent(server.ws_url, cookie, game_id, moves=40, seed=11)
            outcome = await asyncio.wait_for(opponent.play(400), 420)
        finally:
            bridge.terminate()
    log = bridge.log_text()
    assert outcome.result is not None and outcome.result["reason"] != "timeout", (outcome.result, log[-3000:])
    moves = [event for event in outcome.events if event["t"] in ("move", "pass")]
    first_pass = next(i for i, event in enumerate(moves) if event["t"] == "pass")
    assert moves[first_pass]["color"] != outcome.bot_color, log[-3000:]  # it never gave up a move for want of time
    spending = bot_move_spending(outcome.events, outcome.bot_color)
    assert len(spending) >= 30, log[-3000:]
    for played, main, spent in spending:
        plan = clocks.budget(FAST, {"main": main}, outcome.bot_color, 0.0, 1.0, 30.0, board_size=19, moves_played=played)
        assert spent <= plan.wait + ALLOWANCE, (played, main, spent, plan, log[-3000:])
